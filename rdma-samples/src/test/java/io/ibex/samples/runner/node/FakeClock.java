package io.ibex.samples.runner.node;

import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.NanoClock;

/**
 * A clock that moves only when a test moves it: epoch time for stamps, and the pacing clock too.
 */
final class FakeClock implements EpochNanoClock, NanoClock
{
    private long nanos;

    FakeClock(final long nanos)
    {
        this.nanos = nanos;
    }

    @Override
    public long nanoTime()
    {
        return nanos;
    }

    FakeClock advance(final long byNanos)
    {
        nanos += byNanos;
        return this;
    }
}
