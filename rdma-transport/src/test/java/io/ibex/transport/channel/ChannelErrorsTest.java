package io.ibex.transport.channel;

import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpState;
import io.ibex.transport.config.TransportMode;
import io.ibex.transport.stats.Counter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static io.ibex.transport.channel.ChannelPair.receive;
import static io.ibex.transport.channel.ChannelPair.send;
import static io.ibex.transport.channel.TestChannels.WAIT_MILLIS;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Errors of the device under a channel surface as errors: a queue pair in the error state drops its connection
 * (and a source connects again) instead of swallowing samples, and a completion queue that overran fails the
 * channel with the reason instead of leaving it deaf. On any provider (the guest runs them on rxe).
 */
@ExtendWith(NoLeaks.class)
@Timeout(60)
class ChannelErrorsTest
{
    private final int targetPort = TestChannels.freePort();
    private final int sourcePort = TestChannels.freePort();

    @Test
    void aSourceWhoseQueuePairGoesToErrorDropsTheConnectionAndConnectsAgain() throws Exception
    {
        try (ChannelPair pair = rcPair())
        {
            breakAndRecover(pair, pair.source);
        }
    }

    @Test
    void aTargetWhoseQueuePairGoesToErrorDropsTheConnectionAndTheSourceConnectsAgain() throws Exception
    {
        try (ChannelPair pair = rcPair())
        {
            breakAndRecover(pair, pair.target);
        }
    }

    @Test
    void aReceiveCompletionQueueThatOverranFailsTheChannelWithTheReason() throws Exception
    {
        // 48 receives posted (in.max_wrs - in.buffer_subtraction) into a CQ of 8: the config check warns of this.
        try (ChannelPair pair = new ChannelPair(
            TestChannels.target("target", TransportMode.RC, targetPort, c -> c.inCqSize(8).inMaxWrs(64)),
            TestChannels.source("source", TransportMode.RC, sourcePort, targetPort, c -> c.outUseFallback(false))))
        {
            send(pair.source, 0, 40); // the target does not read: 40 completions for a CQ of 8
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
            while (pair.target.failure() == null)
            {
                assertTrue(System.nanoTime() < deadline, "the overrun was never reported");
                Thread.sleep(5);
            }
            final String failure = pair.target.failure();
            assertTrue(failure.startsWith("the receive completion queue overran: more completions than its ") &&
                failure.contains("(in.cq_size = 8)"), failure);
            final ChannelException error = assertThrows(ChannelException.class,
                () -> pair.target.read(new SampleBatch(8)));
            assertTrue(error.getMessage().contains(failure), error.getMessage());
            assertTrue(!pair.target.isListening(), "a failed channel takes no more sources");
        }
    }

    private ChannelPair rcPair() throws InterruptedException
    {
        return new ChannelPair(TestChannels.target("target", TransportMode.RC, targetPort, c -> { }),
            TestChannels.source("source", TransportMode.RC, sourcePort, targetPort,
                c -> c.outUseFallback(false).reconnectMaxDelay(Duration.ofMillis(100))));
    }

    /** Moves {@code broken}'s queue pair to ERR: the connection is dropped within 2 s, then samples flow again. */
    private static void breakAndRecover(final ChannelPair pair, final SampleChannel broken) throws Exception
    {
        send(pair.source, 0, 10);
        receive(pair.target, 0, 10);
        final io.ibex.rdma.verbs.QueuePair qp = broken.sendingQueuePair();
        assertNotNull(qp, broken + " has a connection");
        final long start = System.nanoTime();
        qp.modify(QpAttr.to(QpState.ERR));
        long dropped = 0;
        while (pair.source.stats().get(Counter.RECONNECTS) == 0)
        {
            final long now = System.nanoTime();
            assertTrue(now - start < TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS),
                "the connection of a queue pair in ERR was never dropped and made again");
            if (dropped == 0 && broken.state() != ChannelState.CONNECTED)
            {
                dropped = now;
            }
            Thread.sleep(1);
        }
        final long reconnected = System.nanoTime();
        final long droppedMillis = TimeUnit.NANOSECONDS.toMillis((dropped != 0 ? dropped : reconnected) - start);
        System.out.printf("%s: queue pair in ERR, connection dropped after %d ms, made again after %d ms%n", broken,
            droppedMillis, TimeUnit.NANOSECONDS.toMillis(reconnected - start));
        assertTrue(droppedMillis < PeerKillTest.DETECTION_LIMIT_MILLIS, "dropped after " + droppedMillis + " ms");
        ChannelPair.awaitConnected(pair.target);
        send(pair.source, 10, 10);
        receive(pair.target, 10, 10);
    }
}
