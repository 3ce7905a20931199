package io.ibex.rdma.provider.soft.wire;

import io.ibex.rdma.provider.soft.wire.SoftFaults.Fault;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fault injection's spec and draws: wrong specs are refused naming the item, a seed gives the same faults
 * every time, and the counts add up to what was drawn.
 */
class SoftFaultsTest
{
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "drop                         | 'drop' is not name:value",
        "drop:x                       | drop:x is not a number",
        "drop:1.5                     | drop:1.5 is not a probability in [0, 1]",
        "drop:NaN                     | drop:NaN is not a probability in [0, 1]",
        "lose:0.1                     | unknown fault 'lose'",
        "drop:0.6,duplicate:0.5       | the probabilities add up to 1.1",
        "seed:1.5                     | seed:1.5 is not an integer",
        "delay_us:-1                  | delay_us:-1 is below 0",
        "on:rc                        | on:rc is not ud, links or all"})
    void aWrongSpecIsRefusedNamingTheItem(final String spec, final String why)
    {
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> SoftFaults.parse(spec));
        assertTrue(error.getMessage().startsWith("ibex.soft.faults '" + spec + "': " + why), error.getMessage());
    }

    @Test
    void theSameSeedGivesTheSameFaults()
    {
        final String spec = "drop:0.1,duplicate:0.1,reorder:0.1,delay:0.1,truncate:0.1,seed:42";
        final SoftFaults first = SoftFaults.parse(spec);
        final SoftFaults second = SoftFaults.parse(spec);
        final SoftFaults other = SoftFaults.parse(spec.replace("seed:42", "seed:43"));
        final StringBuilder a = new StringBuilder();
        final StringBuilder b = new StringBuilder();
        final StringBuilder c = new StringBuilder();
        for (int i = 0; i < 1000; i++)
        {
            a.append(first.next(i % 2 == 0, true).ordinal());
            b.append(second.next(i % 2 == 0, true).ordinal());
            c.append(other.next(i % 2 == 0, true).ordinal());
        }
        assertEquals(a.toString(), b.toString());
        assertNotEquals(a.toString(), c.toString());
        long all = 0;
        for (final Fault fault : Fault.values())
        {
            all += first.count(fault);
            assertTrue(fault == Fault.NONE || first.count(fault) > 50, fault + ": " + first.count(fault));
        }
        assertEquals(1000, all);
    }

    @Test
    void whatCannotBeHeldBackArrivesAndOnlyTheChosenTrafficIsTouched()
    {
        final SoftFaults faults = SoftFaults.parse("reorder:1,on:ud");
        assertEquals(Fault.NONE, faults.next(false, true), "a frame, with on:ud");
        assertEquals(Fault.REORDER, faults.next(true, true));
        assertEquals(Fault.NONE, faults.next(true, false), "one datagram is held back already");
        assertEquals(1, faults.count(Fault.REORDER));
        assertEquals(2, faults.count(Fault.NONE));
    }
}
