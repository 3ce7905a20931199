package io.ibex.samples.runner;

import org.agrona.concurrent.IdleStrategy;

import java.util.function.LongSupplier;

/**
 * A path's idle strategy that knows when its input's next sample is due: within {@link #SPIN_NANOS} of it, the path
 * spins rather than yield or park, which would pass over the step. A yield costs about 1.5 us on the project's
 * two-vCPU machine and a park tens of microseconds, so a signal node at 1 MHz waited with {@code yielding} made
 * 0.53 M samples/s where spinning made 0.89 M (docs/benchmarks.md). Farther from the step, the path waits as
 * configured, leaving the core to other threads.
 */
final class PacedIdleStrategy implements IdleStrategy
{
    /** Longer than a yield, short beside a 100 kHz period: the generator still yields most of its 10 us. */
    static final long SPIN_NANOS = 2_000;

    private final IdleStrategy delegate;
    private final LongSupplier nanosUntilDue;

    /**
     * @param delegate      how the path waits otherwise.
     * @param nanosUntilDue the input's {@link io.ibex.samples.runner.node.Node#nanosUntilDue}.
     */
    PacedIdleStrategy(final IdleStrategy delegate, final LongSupplier nanosUntilDue)
    {
        this.delegate = delegate;
        this.nanosUntilDue = nanosUntilDue;
    }

    @Override
    public void idle(final int workCount)
    {
        if (workCount <= 0 && nanosUntilDue.getAsLong() <= SPIN_NANOS)
        {
            Thread.onSpinWait();
            return;
        }
        delegate.idle(workCount);
    }

    @Override
    public void idle()
    {
        delegate.idle();
    }

    @Override
    public void reset()
    {
        delegate.reset();
    }

    @Override
    public String alias()
    {
        return delegate.alias();
    }
}
