package io.ibex.transport.channel;

import io.ibex.rdma.testing.LoopbackPorts;
import io.ibex.transport.config.TransportMode;
import io.ibex.transport.stats.Counter;
import io.ibex.transport.stats.Metric;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * RC's promise at volume: a million samples, written by one thread and read by another, all arrive, in order.
 * ({@code -Dibex.test.samples} shortens it where a round trip costs milliseconds, as in the emulated guest.)
 */
class MillionSamplesTest
{
    private static final int SAMPLES = Integer.getInteger("ibex.test.samples", 1_000_000);

    @Test
    void everySampleArrivesInOrderOverRc() throws Exception
    {
        final int targetPort = LoopbackPorts.next();
        try (ChannelPair pair = new ChannelPair(
            TestChannels.target("target", TransportMode.RC, targetPort,
                c -> c.in(in -> in.maxWrs(512).vectorize(32).bufferSubtraction(64).cqSize(512))),
            TestChannels.source("source", TransportMode.RC, LoopbackPorts.next(), targetPort,
                c -> c.out(out -> out.maxWrs(512).vectorize(32).cqSize(512)))))
        {
            final CompletableFuture<Void> writer = CompletableFuture.runAsync(() ->
                ChannelPair.send(pair.source, 0, SAMPLES));
            ChannelPair.receive(pair.target, 0, SAMPLES);
            writer.get();
            assertEquals(SAMPLES, pair.target.stats().get(Counter.RECEIVED));
            assertEquals(0, pair.target.stats().get(Counter.INVALID));
            assertEquals(0, pair.target.stats().snapshot().metric(Metric.REORDERED).count());
            assertEquals(0, pair.target.stats().snapshot().metric(Metric.SKIPPED).sum());
        }
    }
}
