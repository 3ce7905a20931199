package io.ibex.transport.stats;

import io.ibex.transport.sample.Sample;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * Feeds samples with chosen flags, sequence and timestamps (given in nanoseconds since the epoch) to stats.
 */
final class ReceivedSamples
{
    static final int ALL = Sample.HAS_TS_ORIGIN | Sample.HAS_TS_RECEIVED | Sample.HAS_SEQUENCE | Sample.HAS_DATA;
    static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final Sample sample = new Sample().wrap(
        new UnsafeBuffer(ByteBuffer.allocateDirect(Sample.slotLength(1))), 0, 1);
    private final ChannelStats stats;

    ReceivedSamples(final ChannelStats stats)
    {
        this.stats = stats;
        sample.length(1).floatValue(0, 1.0);
    }

    /** A sample with every flag, sequence numbers only (timestamps 0). */
    void receive(final long sequence)
    {
        receive(ALL, sequence, 0, 0);
    }

    void receive(final int flags, final long sequence, final long originNanos, final long receivedNanos)
    {
        stats.onReceived(set(flags, sequence, originNanos, receivedNanos));
    }

    void send(final int flags, final long receivedNanos)
    {
        stats.onSent(set(flags, 0, 0, receivedNanos));
    }

    Sample set(final int flags, final long sequence, final long originNanos, final long receivedNanos)
    {
        return sample.flags(flags).sequence(sequence)
            .origin(Math.floorDiv(originNanos, NANOS_PER_SECOND), Math.floorMod(originNanos, NANOS_PER_SECOND))
            .received(Math.floorDiv(receivedNanos, NANOS_PER_SECOND), Math.floorMod(receivedNanos, NANOS_PER_SECOND));
    }
}
