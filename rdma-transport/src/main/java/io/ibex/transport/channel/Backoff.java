package io.ibex.transport.channel;

import java.time.Duration;

/**
 * When a source tries to connect again: after out.reconnect_min_delay, doubling with each failure up to
 * out.reconnect_max_delay, and from the minimum again once a connection is up. The connector's thread only.
 */
final class Backoff
{
    private static final long NONE = Long.MIN_VALUE;

    private final long minNanos;
    private final long maxNanos;
    private long delayNanos;
    private long dueNanos = NONE;

    Backoff(final Duration min, final Duration max)
    {
        this.minNanos = min.toNanos();
        this.maxNanos = max.toNanos();
        this.delayNanos = minNanos;
    }

    /**
     * Schedules the next try one delay from now, and doubles the delay for the one after.
     *
     * @return the delay of this try, in nanoseconds.
     */
    long schedule(final long nowNanos)
    {
        final long delay = delayNanos;
        dueNanos = nowNanos + delay;
        delayNanos = Math.min(delay * 2, maxNanos);
        return delay;
    }

    /** @return whether a scheduled try is due; it is then taken, so the next call says false until rescheduled. */
    boolean takeDue(final long nowNanos)
    {
        if (dueNanos == NONE || nowNanos - dueNanos < 0)
        {
            return false;
        }
        dueNanos = NONE;
        return true;
    }

    /** A connection is up: the next failure waits the minimum again. */
    void reset()
    {
        delayNanos = minNanos;
    }
}
