package io.ibex.transport.channel;

import io.ibex.rdma.testing.LoopbackPorts;
import io.ibex.transport.config.ChannelConfig;
import io.ibex.transport.config.PollMode;
import io.ibex.transport.config.TransportMode;
import io.ibex.transport.sample.SignalList;
import io.ibex.transport.stats.Counter;
import io.ibex.transport.stats.Metric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static io.ibex.transport.channel.ChannelPair.fill;
import static io.ibex.transport.channel.ChannelPair.receive;
import static io.ibex.transport.channel.ChannelPair.send;
import static io.ibex.transport.channel.TestChannels.WAIT_MILLIS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The data path's rules: vectorized posts, inline and signaled sends, back-pressure instead of loss on RC,
 * receive headroom, loss counted exactly on UD, event polling.
 */
@ExtendWith(NoLeaks.class)
class ChannelDataPathTest
{
    private final int targetPort = LoopbackPorts.next();
    private final int sourcePort = LoopbackPorts.next();
    @Test
    void writeTakesAtMostVectorizeSamplesAndSignalsEveryNthSend() throws Exception
    {
        try (ChannelPair pair = pair(TransportMode.RC, t -> { }, s -> s
            .out(out -> out.vectorize(8).periodicSignaling(4))))
        {
            final SampleBatch batch = new SampleBatch(20);
            assertEquals(20, pair.source.claim(batch, 20));
            for (int i = 0; i < 20; i++)
            {
                fill(batch.get(i), i);
            }
            assertEquals(8, pair.source.write(batch), "one post list of out.vectorize samples");
            assertEquals(12, batch.size(), "the rest stay in the batch, in order");
            assertEquals(8, batch.get(0).sequence());
            while (!batch.isEmpty())
            {
                pair.source.write(batch);
            }
            receive(pair.target, 0, 20);
            assertEquals(20, pair.source.stats().get(Counter.SENT));
            assertEquals(5, pair.source.stats().get(Counter.SIGNALED_SENDS), "every 4th of 20 sends");
        }
    }

    @Test
    void samplesThatFitMaxInlineDataAreSentInlineExceptTheSignaledOnes() throws Exception
    {
        try (ChannelPair pair = pair(TransportMode.RC, t -> { },
            s -> s.out(out -> out.maxInlineData(64).periodicSignaling(5)).signals(SignalList.ofCount(4))))
        {
            send(pair.source, 0, 10);
            receive(pair.target, 0, 10);
            assertEquals(2, pair.source.stats().get(Counter.SIGNALED_SENDS));
            assertEquals(8, pair.source.stats().get(Counter.INLINE_SENDS), "24 + 4 * 8 = 56 bytes fit 64");
        }
    }

    @Test
    void rcPushesBackInsteadOfDroppingWhenTheReaderFallsBehind() throws Exception
    {
        try (ChannelPair pair = pair(TransportMode.RC, t -> t.in(in -> in.maxWrs(16).bufferSubtraction(4)),
            s -> s.out(out -> out.maxWrs(8))))
        {
            final SampleBatch batch = new SampleBatch(1);
            long accepted = 0;
            long idleSince = System.nanoTime();
            while (System.nanoTime() - idleSince < TimeUnit.MILLISECONDS.toNanos(300))
            {
                if (batch.isEmpty() && pair.source.claim(batch, 1) == 1)
                {
                    fill(batch.get(0), accepted);
                }
                if (!batch.isEmpty() && pair.source.write(batch) == 1)
                {
                    accepted++;
                    idleSince = System.nanoTime();
                }
                assertTrue(accepted < 1000, "the source never pushed back");
            }
            assertTrue(accepted >= 12 && accepted <= 12 + 8 + 8 + 1,
                "12 receives posted at the target, 8 sends queued (plus what its pool holds): " + accepted);
            receive(pair.target, 0, (int)accepted);
            send(pair.source, accepted, 10);
            receive(pair.target, accepted, 10);
            pair.source.release(batch);
            assertEquals(0, pair.source.stats().get(Counter.DROPPED));
            assertTrue(pair.source.stats().get(Counter.BACK_PRESSURED) > 0, "the full send queue was counted");
            final long outstanding = pair.target.stats().get(Counter.POSTED_RECEIVES) - pair.target.stats().get(
                Counter.RECEIVED);
            assertTrue(outstanding > 12 - 3 && outstanding <= 12, "in.max_wrs - in.buffer_subtraction = 12" +
                " receives stay posted, re-posted in lists of a quarter of that: " + outstanding);
        }
    }

    @Test
    void udLossIsCountedExactlyBySequenceGaps() throws Exception
    {
        try (ChannelPair pair = pair(TransportMode.UD, t -> t.in(in -> in.maxWrs(16).bufferSubtraction(4)), s -> { }))
        {
            final int burst = 200;
            send(pair.source, 0, 1);
            receive(pair.target, 0, 1);
            send(pair.source, 1, burst);
            final SampleBatch batch = new SampleBatch(1);
            long received = 1 + drain(pair.target, batch);
            assertTrue(received <= 1 + 12, "at most the 12 posted receives took a datagram: " + received);
            send(pair.source, burst + 1, 1);
            assertEquals(1, pair.target.read(batch, WAIT_MILLIS, TimeUnit.MILLISECONDS));
            assertEquals(burst + 1, batch.get(0).sequence(), "the marker after the burst arrives");
            received++;
            pair.target.release(batch);
            assertEquals(received, pair.target.stats().get(Counter.RECEIVED));
            assertEquals(burst + 2 - received, pair.target.stats().snapshot().metric(
                Metric.SKIPPED).sum(), "every datagram lost shows as a sequence gap");
        }
    }

    @Test
    void eventPollModeWakesTheReaderWhenASampleArrives() throws Exception
    {
        try (ChannelPair pair = pair(TransportMode.RC, t -> t.pollMode(PollMode.EVENT), s -> { }))
        {
            final SampleBatch batch = new SampleBatch(4);
            final long start = System.nanoTime();
            assertEquals(0, pair.target.read(batch, 120, TimeUnit.MILLISECONDS));
            assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(120), "waited the timeout");
            final Thread writer = new Thread(() -> send(pair.source, 0, 50));
            writer.start();
            receive(pair.target, 0, 50);
            writer.join();
        }
    }

    @Test
    void bytesThatAreNotASampleAreCountedAndNeverHandedUp() throws Exception
    {
        try (SampleChannel target = SampleChannel.open(TestChannels.target("target", TransportMode.RC, targetPort,
            c -> c.signals(SignalList.ofCount(3))));
            RawSender peer = new RawSender(TestChannels.address(targetPort)))
        {
            ChannelPair.awaitConnected(target);
            assertTrue(peer.send(31).isSuccess());
            assertTrue(peer.send(16).isSuccess());
            peer.buffer().putLong(0, 7L, ByteOrder.LITTLE_ENDIAN);
            peer.buffer().putDouble(24, 2.5, ByteOrder.LITTLE_ENDIAN);
            assertTrue(peer.send(32).isSuccess());
            final SampleBatch batch = new SampleBatch(4);
            assertEquals(1, target.read(batch, WAIT_MILLIS, TimeUnit.MILLISECONDS));
            assertEquals(7, batch.get(0).sequence());
            assertEquals(1, batch.get(0).length());
            assertEquals(2.5, batch.get(0).floatValue(0));
            assertEquals(0, target.read(batch, 100, TimeUnit.MILLISECONDS));
            assertEquals(2, target.stats().get(Counter.INVALID), "31 and 16 bytes are not 24 + 8 per value");
            assertEquals(1, target.stats().get(Counter.RECEIVED));
        }
    }

    @Test
    void aPeerSendingMoreThanASampleHoldsIsDroppedAndTheTargetAcceptsTheNext() throws Exception
    {
        try (SampleChannel target = SampleChannel.open(TestChannels.target("target", TransportMode.RC, targetPort,
            c -> c.signals(SignalList.ofCount(3)))))
        {
            try (RawSender peer = new RawSender(TestChannels.address(targetPort)))
            {
                ChannelPair.awaitConnected(target);
                assertTrue(!peer.send(24 + 8 * 10).isSuccess(), "the target has no room for 10 values");
                final SampleBatch batch = new SampleBatch(4);
                final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
                while (target.state() == ChannelState.CONNECTED && System.nanoTime() < deadline)
                {
                    assertEquals(0, target.read(batch, 10, TimeUnit.MILLISECONDS));
                }
                assertEquals(ChannelState.STARTED, target.state(), "the broken connection is dropped");
                assertEquals(1, target.stats().get(Counter.INVALID));
            }
            try (RawSender next = new RawSender(TestChannels.address(targetPort)))
            {
                ChannelPair.awaitConnected(target);
                next.buffer().putLong(0, 9L, ByteOrder.LITTLE_ENDIAN);
                assertTrue(next.send(24).isSuccess());
                final SampleBatch batch = new SampleBatch(1);
                assertEquals(1, target.read(batch, WAIT_MILLIS, TimeUnit.MILLISECONDS));
                assertEquals(9, batch.get(0).sequence());
                target.release(batch);
            }
        }
    }

    private ChannelPair pair(final TransportMode mode, final Consumer<ChannelConfig.Builder> target,
        final Consumer<ChannelConfig.Builder> source) throws InterruptedException
    {
        return new ChannelPair(TestChannels.target("target", mode, targetPort, target),
            TestChannels.source("source", mode, sourcePort, targetPort, source));
    }

    /** Reads until nothing more comes for 200 ms. */
    private static long drain(final SampleChannel channel, final SampleBatch batch)
    {
        long count = 0;
        int read;
        while ((read = channel.read(batch, 200, TimeUnit.MILLISECONDS)) > 0)
        {
            count += read;
        }
        return count;
    }
}
