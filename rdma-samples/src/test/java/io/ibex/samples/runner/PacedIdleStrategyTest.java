package io.ibex.samples.runner;

import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A path thread spins through the last microseconds before its inputs' next step, yields within the lead, parks
 * farther when nothing must be polled, and otherwise waits as it was configured to (and resets that after work).
 */
class PacedIdleStrategyTest
{
    private final List<String> calls = new ArrayList<>();
    private final IdleStrategy configured = new IdleStrategy()
    {
        @Override
        public void idle(final int workCount)
        {
            calls.add("idle(" + workCount + ")");
        }

        @Override
        public void idle()
        {
            calls.add("idle()");
        }

        @Override
        public void reset()
        {
            calls.add("reset()");
        }
    };
    private long nanosUntilDue;

    private PacedIdleStrategy strategy(final boolean busySpin, final boolean parksBetweenSteps)
    {
        return new PacedIdleStrategy(configured, busySpin, parksBetweenSteps, () -> nanosUntilDue,
            (nanos) -> calls.add("park(" + nanos + ")"));
    }

    @Test
    void withinTheLeadOfTheNextStepTheThreadNeitherParksNorPolls()
    {
        for (final PacedIdleStrategy strategy : List.of(strategy(false, true), strategy(false, false),
            strategy(true, false)))
        {
            for (final long due : new long[] {-5, PacedIdleStrategy.SPIN_NANOS, PacedIdleStrategy.PARK_LEAD_NANOS})
            {
                nanosUntilDue = due;
                strategy.idle(0);
            }
        }
        assertEquals(List.of(), calls, "neither parked nor the configured strategy asked to wait");
    }

    @Test
    void fartherFromItAThreadWithNothingToPollParksUntilTheLeadAtMostTheLongestPark()
    {
        final PacedIdleStrategy strategy = strategy(false, true);
        nanosUntilDue = PacedIdleStrategy.PARK_LEAD_NANOS + 300_000;
        strategy.idle(0);
        nanosUntilDue = PacedIdleStrategy.PARK_LEAD_NANOS + 20_000_000;
        strategy.idle(0);
        assertEquals(List.of("park(300000)", "park(" + PacedIdleStrategy.MAX_PARK_NANOS + ")"), calls);
    }

    @Test
    void fartherFromItOrWithoutPacingAThreadThatPollsWaitsAsConfigured()
    {
        final PacedIdleStrategy strategy = strategy(false, false);
        nanosUntilDue = PacedIdleStrategy.PARK_LEAD_NANOS + 1;
        strategy.idle(0);
        nanosUntilDue = Long.MAX_VALUE;
        strategy.idle(0);
        strategy(false, true).idle(0);
        strategy.idle();
        strategy.reset();
        assertEquals(List.of("idle(0)", "idle(0)", "idle(0)", "idle()", "reset()"), calls);
    }

    @Test
    void afterWorkTheConfiguredStrategyIsReset()
    {
        nanosUntilDue = 0;
        strategy(false, true).idle(3);
        assertEquals(List.of("idle(3)"), calls, "a backoff starts over after work, whatever is due");
    }
}
