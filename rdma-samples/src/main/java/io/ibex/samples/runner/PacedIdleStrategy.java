package io.ibex.samples.runner;

import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * The idle strategy of a path thread, which knows when the next paced step of its inputs is due: within
 * {@link #SPIN_NANOS} of it the thread spins, within {@link #PARK_LEAD_NANOS} it yields (a park would overshoot the
 * step), and farther it parks until the lead before the step, if no input it reads must be polled (an infiniband
 * target); else it polls as that input's idle strategy says. So a generator at 1 kHz sleeps most of each period,
 * and one at 100 kHz never parks.
 */
final class PacedIdleStrategy implements IdleStrategy
{
    /** Within this of a step the thread spins, as a yield may outlast it: a small part of a 100 kHz period. */
    static final long SPIN_NANOS = 2_000;
    /** A park overshoots by the timer slack (Linux's default: 50 µs) and a wake-up: this much early is on time. */
    static final long PARK_LEAD_NANOS = 150_000;
    /** The longest park: how late the end of a run or of an input's pacing is noticed. */
    static final long MAX_PARK_NANOS = 1_000_000;

    private final IdleStrategy polling;
    private final boolean busySpin;
    private final boolean parksBetweenSteps;
    private final LongSupplier nanosUntilDue;
    private final LongConsumer park;

    /**
     * @param polling           how the thread waits without a step due soon, unless it parks between steps.
     * @param busySpin          whether it spins, not yields, within the lead of a step.
     * @param parksBetweenSteps whether it parks until the lead of the next step: when no input must be polled.
     * @param nanosUntilDue     the earliest of its inputs' {@link io.ibex.samples.runner.node.Node#nanosUntilDue}.
     * @param park              parks the thread for so many nanoseconds ({@link LockSupport#parkNanos(long)}).
     */
    PacedIdleStrategy(final IdleStrategy polling, final boolean busySpin, final boolean parksBetweenSteps,
        final LongSupplier nanosUntilDue, final LongConsumer park)
    {
        this.polling = polling;
        this.busySpin = busySpin;
        this.parksBetweenSteps = parksBetweenSteps;
        this.nanosUntilDue = nanosUntilDue;
        this.park = park;
    }

    @Override
    public void idle(final int workCount)
    {
        if (workCount > 0)
        {
            polling.idle(workCount);
            return;
        }
        final long due = nanosUntilDue.getAsLong();
        if (due <= SPIN_NANOS || busySpin && due <= PARK_LEAD_NANOS)
        {
            Thread.onSpinWait();
        }
        else if (due <= PARK_LEAD_NANOS)
        {
            Thread.yield();
        }
        else if (parksBetweenSteps && due != Long.MAX_VALUE)
        {
            park.accept(Math.min(due - PARK_LEAD_NANOS, MAX_PARK_NANOS));
        }
        else
        {
            polling.idle(0);
        }
    }

    @Override
    public void idle()
    {
        polling.idle();
    }

    @Override
    public void reset()
    {
        polling.reset();
    }

    @Override
    public String alias()
    {
        return "paced-" + polling.alias();
    }
}
