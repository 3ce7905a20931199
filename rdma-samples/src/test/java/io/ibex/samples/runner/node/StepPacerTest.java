package io.ibex.samples.runner.node;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The period as VILLAS sets its timer, steps due at whole periods from the start, missed steps on a jump.
 */
class StepPacerTest
{
    @Test
    void thePeriodIsWholeNanosecondsAsVillasSetsItsTimer()
    {
        assertEquals(10_000, new StepPacer(100_000).periodNanos());
        assertEquals(333_333_333, new StepPacer(3).periodNanos());
        assertEquals(1, new StepPacer(StepPacer.MAX_RATE).periodNanos());
    }

    @Test
    void stepsAreDueAWholeNumberOfPeriodsAfterTheStartWithoutDrift()
    {
        final StepPacer pacer = new StepPacer(3);
        pacer.start(-1_000); // a monotonic clock may be negative
        assertEquals(0, pacer.poll(-1_000));
        assertEquals(-1, pacer.poll(-1_000 + 333_333_332));
        assertEquals(1, pacer.poll(-1_000 + 333_333_333));
        assertEquals(-1, pacer.poll(-1_000 + 666_666_665));
        assertEquals(3_000, pacer.poll(-1_000 + 3_000 * 333_333_333L + 7));
        assertEquals(2_998, pacer.missedSteps());
    }

    @Test
    void aLatePollAfterTheLastStepOfARunEndsItAndMissesOnlyTheStepsBeforeTheLimit()
    {
        final StepPacer pacer = new StepPacer(1e9); // a step a nanosecond
        pacer.start(0);
        assertEquals(0, pacer.poll(0, 10));
        assertEquals(10, pacer.poll(1_000_000, 10), "the end, not step 1,000,000");
        assertEquals(9, pacer.missedSteps(), "steps 1 to 9; none beyond the limit");
        assertEquals(-1, pacer.poll(1_000_000, 10), "returned once");
    }

    @Test
    void aRateOutsideItsRangeIsRefused()
    {
        assertEquals("rate 0.0 outside (0, 1.0E9] steps per second",
            assertThrows(IllegalArgumentException.class, () -> new StepPacer(0)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> new StepPacer(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> new StepPacer(2e9));
    }
}
