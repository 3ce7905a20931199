package io.ibex.samples.runner.node;

import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.NanoClock;

/**
 * A clock that stands still until a test moves it: as a pacing clock or as an epoch clock.
 */
final class ManualClock implements NanoClock, EpochNanoClock
{
    private long nanos;

    ManualClock(final long nanos)
    {
        this.nanos = nanos;
    }

    @Override
    public long nanoTime()
    {
        return nanos;
    }

    /** Moves the clock forward. */
    void advance(final long deltaNanos)
    {
        nanos += deltaNanos;
    }
}
