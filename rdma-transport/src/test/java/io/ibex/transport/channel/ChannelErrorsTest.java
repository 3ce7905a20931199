package io.ibex.transport.channel;

import io.ibex.rdma.testing.LoopbackPorts;
import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
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
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Errors of the device under a channel surface as errors: a queue pair in the error state drops its connection
 * (and a source connects again) instead of swallowing samples, and a completion queue that overran fails the
 * channel with the reason instead of leaving it deaf; the channel itself never overruns its completion queues, even
 * when a disconnect flushes everything it has outstanding. On any provider (the guest runs them on rxe).
 */
@ExtendWith(NoLeaks.class)
@Timeout(60)
class ChannelErrorsTest
{
    private final int targetPort = LoopbackPorts.next();
    private final int sourcePort = LoopbackPorts.next();

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
    void aSourceKeepsNoMoreSendsInFlightThanItsCompletionQueueHoldsAndConnectsAgainWhenTheyAreFlushed()
        throws Exception
    {
        // out.max_wrs 1024 with a send CQ of 16: a broken connection flushes every send in flight into that CQ,
        // signaled or not, so no more than 16 may be in flight.
        try (ChannelPair pair = new ChannelPair(
            TestChannels.target("target", TransportMode.RC, targetPort, c -> c.in(in -> in.maxWrs(64))),
            TestChannels.source("source", TransportMode.RC, sourcePort, targetPort, c -> c.out(out -> out.maxWrs(1024)
                .cqSize(16).useFallback(false).reconnectMaxDelay(Duration.ofMillis(100))))))
        {
            // The target does not read: its 48 posted receives (in.max_wrs - in.buffer_subtraction) fill, then
            // the source's sends wait for receives (RNR) until it holds back.
            final int received = 48;
            final long sent = writeUntilHeldBack(pair.source, received + 16);

            pair.source.sendingQueuePair().modify(QpAttr.to(QpState.ERR));
            awaitReconnect(pair.source);

            assertEquals(received + 16, sent, "sends taken beyond the target's receives and out.cq_size");
            assertEquals(16, pair.source.stats().get(Counter.DROPPED), "the flushed sends are counted as dropped");
            receive(pair.target, 0, received);
            ChannelPair.awaitConnected(pair.target);
            send(pair.source, 1000, 40);
            receive(pair.target, 1000, 40);
        }
    }

    @Test
    void aSourceStopsTakingSamplesOnceItsSendsFlushSoNoMoreThanThoseInFlightAreDropped() throws Exception
    {
        // Between a queue pair's fall into ERR and the connection manager's noticing, every send posted would be
        // flushed at once: a writer that kept going would drop samples without bound (a peer killed mid-stream).
        try (ChannelPair pair = new ChannelPair(
            TestChannels.target("target", TransportMode.RC, targetPort, c -> { }),
            TestChannels.source("source", TransportMode.RC, sourcePort, targetPort, c -> c.out(out -> out.maxWrs(16)
                .useFallback(false).reconnectMaxDelay(Duration.ofMillis(100))))))
        {
            send(pair.source, 0, 10);
            receive(pair.target, 0, 10);
            pair.source.sendingQueuePair().modify(QpAttr.to(QpState.ERR));
            final SampleBatch batch = new SampleBatch(16);
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
            long taken = 0;
            while (pair.source.state() == ChannelState.CONNECTED)
            {
                assertTrue(System.nanoTime() < deadline, "the connection in ERR was never dropped");
                final int before = batch.size();
                final int claimed = pair.source.claim(batch, batch.room());
                for (int i = 0; i < claimed; i++)
                {
                    ChannelPair.fill(batch.get(before + i), 10 + taken + before + i);
                }
                taken += pair.source.write(batch);
            }
            pair.source.release(batch);
            awaitReconnect(pair.source);
            final long dropped = pair.source.stats().get(Counter.DROPPED);
            System.out.printf("%s: %d samples taken while its queue pair was in ERR, %d dropped%n", pair.source,
                taken, dropped);
            assertTrue(dropped <= 16, dropped + " dropped, more than the 16 sends (out.max_wrs) in flight");
            assertTrue(taken <= dropped, "of " + taken + " samples taken in ERR, all flushed, only " + dropped +
                " counted dropped");
        }
    }

    @Test
    void aTargetKeepsNoMoreReceivesPostedThanItsCompletionQueueHoldsAndTheSourceConnectsAgainWhenTheyAreFlushed()
        throws Exception
    {
        // 1008 receives (in.max_wrs - in.buffer_subtraction) for a receive CQ of 32: the config check warns, and
        // only 32 are posted, as a broken connection flushes every posted receive into that CQ.
        try (ChannelPair pair = new ChannelPair(
            TestChannels.target("target", TransportMode.RC, targetPort, c -> c.in(in -> in.maxWrs(1024).cqSize(32))),
            TestChannels.source("source", TransportMode.RC, sourcePort, targetPort,
                c -> c.out(out -> out.useFallback(false).reconnectMaxDelay(Duration.ofMillis(100))))))
        {
            final long posted = pair.target.stats().get(Counter.POSTED_RECEIVES);
            breakAndRecover(pair, pair.target);
            assertNull(pair.target.failure(), "the target failed");
            assertEquals(32, posted, "receives posted at first");
            for (int first = 20; first < 220; first += 25) // 200 samples through 32 receives, re-posted as read
            {
                send(pair.source, first, 25);
                receive(pair.target, first, 25);
            }
        }
    }

    @Test
    void aReceiveCompletionQueueThatOverranFailsTheChannelWithTheReason() throws Exception
    {
        // The channel keeps no more receives posted than its CQ of 8 holds: 16 more posted behind its back,
        // all flushed when the queue pair goes to ERR, overrun it.
        try (ChannelPair pair = new ChannelPair(
            TestChannels.target("target", TransportMode.RC, targetPort, c -> c.in(in -> in.cqSize(8).maxWrs(64))),
            TestChannels.source("source", TransportMode.RC, sourcePort, targetPort, c -> c
                .out(out -> out.useFallback(false)))))
        {
            final QueuePair qp = pair.target.sendingQueuePair();
            for (int i = 0; i < 16; i++)
            {
                qp.postRecv(new ReceiveWorkRequest(1).numSge(0).wrId(-1L));
            }
            qp.modify(QpAttr.to(QpState.ERR));
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
            while (pair.target.failure() == null)
            {
                assertTrue(System.nanoTime() < deadline, "the overrun was never reported");
                Thread.sleep(5);
            }
            final String failure = pair.target.failure().getMessage();
            assertTrue(failure.startsWith("the receive completion queue overran: more completions than its ") &&
                failure.contains("(in.cq_size = 8)"), failure);
            final ChannelException error = assertThrows(ChannelException.class,
                () -> pair.target.read(new SampleBatch(8)));
            assertTrue(error.getMessage().contains(failure), error.getMessage());
            assertTrue(!pair.target.isListening(), "a failed channel takes no more sources");
        }
    }

    /**
     * Writes samples 0, 1, ... until at least {@code atLeast} are sent and a write takes nothing.
     *
     * @return how many were sent.
     */
    private static long writeUntilHeldBack(final SampleChannel source, final int atLeast)
    {
        final SampleBatch batch = new SampleBatch(1);
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        long sent = 0;
        while (true)
        {
            if (batch.isEmpty() && source.claim(batch, 1) == 1)
            {
                ChannelPair.fill(batch.get(0), sent);
            }
            if (!batch.isEmpty() && source.write(batch) == 1)
            {
                sent++;
            }
            else if (sent >= atLeast)
            {
                source.release(batch);
                return sent;
            }
            else
            {
                assertTrue(System.nanoTime() < deadline, source + " took nothing after " + sent + " samples");
                Thread.yield();
            }
        }
    }

    private static void awaitReconnect(final SampleChannel source) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        while (source.stats().get(Counter.RECONNECTS) == 0)
        {
            assertNull(source.failure(), "the source failed");
            assertTrue(System.nanoTime() < deadline, "the broken connection was never made again");
            Thread.sleep(1);
        }
    }

    private ChannelPair rcPair() throws InterruptedException
    {
        return new ChannelPair(TestChannels.target("target", TransportMode.RC, targetPort, c -> { }),
            TestChannels.source("source", TransportMode.RC, sourcePort, targetPort,
                c -> c.out(out -> out.useFallback(false).reconnectMaxDelay(Duration.ofMillis(100)))));
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
