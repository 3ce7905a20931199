package io.ibex.samples.runner;

import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A path spins through the last microseconds before its input's next sample is due, and otherwise waits as it was
 * configured to (and resets that strategy after work).
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
    private final PacedIdleStrategy strategy = new PacedIdleStrategy(configured, () -> nanosUntilDue);

    @Test
    void withinTwoMicrosecondsOfTheNextSampleThePathSpins()
    {
        nanosUntilDue = PacedIdleStrategy.SPIN_NANOS;
        strategy.idle(0);
        nanosUntilDue = -5;
        strategy.idle(0);
        assertEquals(List.of(), calls, "the configured strategy is not asked to wait");
    }

    @Test
    void fartherFromItOrWithoutPacingThePathWaitsAsConfigured()
    {
        nanosUntilDue = PacedIdleStrategy.SPIN_NANOS + 1;
        strategy.idle(0);
        nanosUntilDue = Long.MAX_VALUE;
        strategy.idle(0);
        strategy.idle();
        strategy.reset();
        assertEquals(List.of("idle(0)", "idle(0)", "idle()", "reset()"), calls);
    }

    @Test
    void afterWorkTheConfiguredStrategyIsReset()
    {
        nanosUntilDue = 0;
        strategy.idle(3);
        assertEquals(List.of("idle(3)"), calls, "a backoff starts over after work, whatever is due");
    }
}
