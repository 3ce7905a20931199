package io.ibex.samples.runner.node;

/**
 * Steps at a fixed rate on a monotonic clock, without blocking: step {@code k} is due {@code k} periods after the
 * start, as the expirations of the periodic timer (a timerfd) a VILLAS node waits on. A caller that polls late gets
 * the latest step that is due, and the steps it passed over count as missed, as VILLAS counts them. Not thread
 * safe; allocates nothing.
 */
final class StepPacer
{
    /** The highest rate a period of whole nanoseconds can pace: one step a nanosecond. */
    static final double MAX_RATE = 1e9;

    private final long periodNanos;
    private long startNanos;
    private long nextStep;
    private long nextDueNanos;
    private long missedSteps;

    /**
     * @param rate steps per second, above 0 and at most {@link #MAX_RATE}.
     * @throws IllegalArgumentException naming the rate if it is outside that range (or not a number).
     */
    StepPacer(final double rate)
    {
        if (!(rate > 0 && rate <= MAX_RATE))
        {
            throw new IllegalArgumentException("rate " + rate + " outside (0, " + MAX_RATE + "] steps per second");
        }
        this.periodNanos = (long)(1e9 / rate);
    }

    /** @return the period in nanoseconds, 1e9 / rate rounded down, as VILLAS sets its timer. */
    long periodNanos()
    {
        return periodNanos;
    }

    /**
     * Starts counting: step 0 is due at once.
     *
     * @param nowNanos the monotonic clock now.
     */
    void start(final long nowNanos)
    {
        startNanos = nowNanos;
        nextStep = 0;
        nextDueNanos = nowNanos;
        missedSteps = 0;
    }

    /**
     * @param nowNanos the monotonic clock now.
     * @return the latest step that is due, if it is one not returned before; else -1 (nothing is due yet).
     */
    long poll(final long nowNanos)
    {
        return poll(nowNanos, Long.MAX_VALUE);
    }

    /**
     * As {@link #poll(long)}, for a run of {@code limit} steps: a poll that comes after the last one returns
     * {@code limit} itself (the end), and only the steps before it count as missed.
     *
     * @param nowNanos the monotonic clock now.
     * @param limit    how many steps the run has.
     * @return the latest step that is due, at most {@code limit}, if not returned before; else -1 (nothing due
     *         yet, or the end was returned).
     */
    long poll(final long nowNanos, final long limit)
    {
        if (nextStep > limit || nowNanos - nextDueNanos < 0)
        {
            return -1;
        }
        final long step = Math.min((nowNanos - startNanos) / periodNanos, limit);
        missedSteps += step - nextStep;
        nextStep = step + 1;
        nextDueNanos = startNanos + nextStep * periodNanos;
        return step;
    }

    /**
     * @param nowNanos the monotonic clock now.
     * @return nanoseconds until the next step not yet returned by {@link #poll} is due (0 or less: due).
     */
    long nanosUntilDue(final long nowNanos)
    {
        return nextDueNanos - nowNanos;
    }

    /** @return how many steps were passed over since the start: due, but never returned by {@link #poll}. */
    long missedSteps()
    {
        return missedSteps;
    }
}
