package io.ibex.samples.perf;

import java.util.concurrent.TimeUnit;

/**
 * Bounds a busy-poll loop without reading the clock on every empty poll: the clock is read once every
 * {@value #SPINS_PER_CLOCK_READ} spins (a clock read can cost more than an empty poll), so a wait that ends soon
 * costs no clock read at all, and a peer that went away is noticed within the timeout plus a few thousand polls.
 * One thread; allocates nothing.
 */
final class SpinTimeout
{
    private static final int SPINS_PER_CLOCK_READ = 4096;

    private final long timeoutNanos;
    private int spins;
    private boolean armed;
    private long deadline;

    /**
     * @param timeoutMillis how long a wait may last.
     */
    SpinTimeout(final long timeoutMillis)
    {
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    }

    /**
     * Starts a new wait: progress was made.
     */
    void reset()
    {
        spins = 0;
        armed = false;
    }

    /**
     * Counts one empty spin of the current wait.
     *
     * @return false once the wait has lasted longer than the timeout.
     */
    boolean spin()
    {
        if (++spins < SPINS_PER_CLOCK_READ)
        {
            return true;
        }
        spins = 0;
        final long now = System.nanoTime();
        if (!armed)
        {
            armed = true;
            deadline = now + timeoutNanos;
            return true;
        }
        return now - deadline < 0;
    }

    /** @return the timeout, for messages. */
    long timeoutMillis()
    {
        return TimeUnit.NANOSECONDS.toMillis(timeoutNanos);
    }
}
