package io.ibex.samples.channel;

import io.ibex.transport.sample.Sample;
import io.ibex.transport.sample.SignalList;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The target's checks of what arrived: order, count, and the values of every signal type.
 */
class ArrivalCheckTest
{
    private static final SignalList SIGNALS = SignalList.parseFormat("1f1i1b1c");

    private final Sample sample = new Sample().wrap(new UnsafeBuffer(ByteBuffer.allocateDirect(
        Sample.slotLength(SIGNALS.size()))), 0, SIGNALS.size());
    private final ArrivalCheck check = new ArrivalCheck(SIGNALS);

    @Test
    void samplesInOrderWithTheirPatternPass()
    {
        for (long sequence = 0; sequence < 300; sequence++)
        {
            arrive(sequence);
        }
        assertNull(check.problem(300));
        assertEquals(300, check.received());
    }

    @Test
    void aMissingAndASwappedSampleAreNamed()
    {
        for (final long sequence : new long[] {0, 1, 3, 2, 5})
        {
            arrive(sequence);
        }
        assertEquals("received 5 of 6 samples; 3 out of order (first: sequence 3 came where 2 was due)",
            check.problem(6));
    }

    @Test
    void aChangedValueOrLengthIsNamed()
    {
        arrive(0);
        sample.initialise(SIGNALS);
        SignalPattern.fill(sample, SIGNALS, 1);
        sample.sequence(1).integerValue(1, 99);
        check.accept(sample);
        sample.sequence(2).length(2);
        check.accept(sample);
        assertEquals("2 with wrong values (first: sequence 1, signal 1 is 0x0000000000000063, not " +
            "0x0000000000000002)", check.problem(3));
    }

    private void arrive(final long sequence)
    {
        sample.initialise(SIGNALS);
        SignalPattern.fill(sample, SIGNALS, sequence);
        check.accept(sample.sequence(sequence));
    }
}
