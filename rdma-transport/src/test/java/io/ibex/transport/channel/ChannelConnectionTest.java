package io.ibex.transport.channel;

import io.ibex.rdma.testing.LoopbackPorts;
import io.ibex.transport.config.ChannelConfig;
import io.ibex.transport.config.TransportMode;
import io.ibex.transport.stats.Counter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import static io.ibex.transport.channel.ChannelPair.awaitConnected;
import static io.ibex.transport.channel.ChannelPair.receive;
import static io.ibex.transport.channel.ChannelPair.send;
import static io.ibex.transport.channel.ConnectionFactory.QP_REFUSED;
import static io.ibex.transport.channel.TestChannels.WAIT_MILLIS;
import static io.ibex.transport.channel.TestChannels.awaitFailure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Connections coming and going: reconnecting sources, targets that accept again, fallback to listening, both
 * directions over RC and UD.
 */
@ExtendWith(NoLeaks.class)
class ChannelConnectionTest
{
    private final int targetPort = LoopbackPorts.next();
    private final int sourcePort = LoopbackPorts.next();
    @Test
    void aSourceReconnectsWhenItsTargetComesBack() throws Exception
    {
        try (ChannelPair pair = new ChannelPair(target(TransportMode.RC), source(TransportMode.RC, c -> { })))
        {
            send(pair.source, 0, 10);
            receive(pair.target, 0, 10);
            pair.target.stop();
            awaitState(pair.source, ChannelState.STARTED);
            pair.target.start();
            awaitConnected(pair.source);
            awaitConnected(pair.target);
            send(pair.source, 10, 10);
            receive(pair.target, 10, 10);
            assertEquals(1, pair.source.stats().get(Counter.RECONNECTS));
        }
    }

    @Test
    void bothQueuePairsOfAnRcConnectionWaitTheShortestRnrTimerNotRdmaCmsDefault() throws Exception
    {
        try (ChannelPair pair = new ChannelPair(target(TransportMode.RC), source(TransportMode.RC, c -> { })))
        {
            awaitConnected(pair.source);
            awaitConnected(pair.target);
            for (final SampleChannel channel : new SampleChannel[] {pair.source, pair.target})
            {
                assertEquals(RnrTuning.MIN_RNR_TIMER, channel.sendingQueuePair().query().minRnrTimer(),
                    "min_rnr_timer of " + channel.config().name() + "'s QP (rdma_cm's is 0: 655 ms)");
            }
        }
    }

    @Test
    void aSourceLosesNothingToATargetThatGrantsNoRnrRetriesAndPostsItsReceivesLate() throws Exception
    {
        try (GrudgingTarget target = new GrudgingTarget(TestChannels.address(targetPort));
            SampleChannel source = SampleChannel.open(source(TransportMode.RC, c -> c
                .out(out -> out.useFallback(false)))))
        {
            target.acceptGrantingNothing(32);
            awaitConnected(source);
            assertEquals(RnrTuning.RNR_RETRY_FOREVER, source.sendingQueuePair().query().rnrRetry(),
                "rnr_retry of the source's QP after a peer that granted 0");
            send(source, 0, 20);
            Thread.sleep(300); // the sends meet no posted receive: RNR NAKs, which must not fail them
            assertEquals(LongStream.range(0, 20).boxed().toList(), target.postReceivesAndRead(20));
            assertEquals(0, source.stats().get(Counter.DROPPED));
            assertEquals(ChannelState.CONNECTED, source.state(), "still connected");
        }
    }

    @Test
    void aSecondSourceHearsWhyTheTargetRefusedIt() throws Exception
    {
        try (ChannelPair pair = new ChannelPair(target(TransportMode.RC), source(TransportMode.RC, c -> { }));
            SampleChannel second = SampleChannel.open(TestChannels.source("second", TransportMode.RC,
                LoopbackPorts.next(), targetPort, c -> c.out(out -> out.useFallback(false).reconnect(false)))))
        {
            awaitFailure(second);
            final String failure = second.failure().getMessage();
            assertTrue(failure.endsWith("failed: REJECTED (status 28: this target is connected to another source)"),
                failure);
            assertEquals(ChannelState.CONNECTED, pair.source.state(), "the first source keeps its target");
        }
    }

    @Test
    void sendsThatWentOutBeforeADisconnectAreNotCountedDropped() throws Exception
    {
        try (ChannelPair pair = new ChannelPair(target(TransportMode.RC), source(TransportMode.RC, c -> { })))
        {
            send(pair.source, 0, 100);
            receive(pair.target, 0, 100);
            pair.target.stop();
            awaitState(pair.source, ChannelState.STARTED);
            assertEquals(100, pair.source.stats().get(Counter.SENT));
            assertEquals(0, pair.source.stats().get(Counter.DROPPED),
                "the unsignaled sends after the 64th were delivered: no flush completion came for them");
        }
    }

    @Test
    void aTargetListensWhenOpenReturnsSoASourceOpenedNextConnectsWithoutFallingBack() throws Exception
    {
        try (SampleChannel target = SampleChannel.open(target(TransportMode.RC)))
        {
            assertTrue(target.isListening(), "listening when open returned");
            try (SampleChannel source = SampleChannel.open(source(TransportMode.RC, c -> { })))
            {
                awaitConnected(source);
                assertFalse(source.isListening(), "the source connected at once: it did not fall back");
            }
        }
    }

    @Test
    void aTargetAcceptsTheNextSourceAfterOneLeaves() throws Exception
    {
        try (SampleChannel target = SampleChannel.open(target(TransportMode.RC)))
        {
            for (int round = 0; round < 3; round++)
            {
                try (SampleChannel source = SampleChannel.open(source(TransportMode.RC, c -> { })))
                {
                    awaitConnected(source);
                    awaitConnected(target);
                    send(source, round * 5L, 5);
                    receive(target, round * 5L, 5);
                }
                awaitState(target, ChannelState.STARTED);
            }
        }
    }

    @Test
    void rcCarriesSamplesBothWays() throws Exception
    {
        try (ChannelPair pair = new ChannelPair(target(TransportMode.RC), source(TransportMode.RC, c -> { })))
        {
            send(pair.target, 100, 20);
            receive(pair.source, 100, 20);
            send(pair.source, 0, 20);
            receive(pair.target, 0, 20);
        }
    }

    @Test
    void udCarriesSamplesBothWaysWhenBothSidesHaveAnOut() throws Exception
    {
        final ChannelConfig a = TestChannels.source("a", TransportMode.UD, targetPort, sourcePort, c -> { });
        final ChannelConfig b = TestChannels.source("b", TransportMode.UD, sourcePort, targetPort, c -> { });
        try (SampleChannel first = SampleChannel.open(a); SampleChannel second = SampleChannel.open(b))
        {
            awaitConnected(first);
            awaitConnected(second);
            awaitReceiving(first, second);
            awaitReceiving(second, first);
            send(first, 1000, 20);
            receive(second, 1000, 20);
            send(second, 2000, 20);
            receive(first, 2000, 20);
        }
    }

    @Test
    void aSourceThatCannotConnectFallsBackToListening() throws Exception
    {
        try (SampleChannel fallen = SampleChannel.open(source(TransportMode.RC, c -> { })))
        {
            awaitListening(fallen);
            final ChannelConfig other = TestChannels.source("other", TransportMode.RC, LoopbackPorts.next(),
                sourcePort, c -> c.out(out -> out.useFallback(false)));
            try (SampleChannel source = SampleChannel.open(other))
            {
                awaitConnected(source);
                awaitConnected(fallen);
                send(source, 0, 10);
                receive(fallen, 0, 10);
            }
        }
    }

    @Test
    void withoutFallbackOrReconnectAFailedConnectStopsTheChannelWithTheReason() throws Exception
    {
        try (SampleChannel source = SampleChannel.open(source(TransportMode.RC, c ->
        {
            c.out(out -> out.useFallback(false));
            c.out(out -> out.reconnect(false));
        })))
        {
            awaitFailure(source);
            final String failure = source.failure().getMessage();
            assertTrue(failure.startsWith("connecting to " + TestChannels.address(targetPort) + " failed"), failure);
            final ChannelException error = assertThrows(ChannelException.class,
                () -> source.read(new SampleBatch(1)));
            assertTrue(error.getMessage().contains(failure), error.getMessage());
            assertSame(source.failure(), error.getCause(), "the read's exception has the failure as its cause");
        }
    }

    @Test
    void aQueuePairTheDeviceRefusesFailsTheSourceRatherThanFallingBackToListening() throws Exception
    {
        try (SampleChannel target = SampleChannel.open(target(TransportMode.RC));
            SampleChannel source = SampleChannel.open(source(TransportMode.RC, c -> c
                .out(out -> out.maxInlineData(1000)))))
        {
            awaitFailure(source);
            final ChannelException failure = source.failure();
            assertTrue(failure.getMessage().startsWith(QP_REFUSED) && failure.getMessage().contains("1000"),
                failure.getMessage());
            assertNotNull(failure.getCause(), "the device's refusal is the failure's cause");
            assertEquals(ChannelState.STARTED, target.state(), "the target never heard of it");
        }
    }

    @Test
    void aQueuePairTheDeviceRefusesFailsTheTargetWhenASourceArrives() throws Exception
    {
        // A target makes its QPs with the out section's max_inline_data too.
        try (SampleChannel target = SampleChannel.open(TestChannels.target("target", TransportMode.RC, targetPort,
                c -> c.out(out -> out.maxInlineData(1000))));
            SampleChannel source = SampleChannel.open(source(TransportMode.RC, c -> c
                .out(out -> out.useFallback(false)))))
        {
            awaitFailure(target);
            final ChannelException failure = target.failure();
            assertTrue(failure.getMessage().startsWith(QP_REFUSED) && failure.getMessage().contains("1000"),
                failure.getMessage());
            assertNotNull(failure.getCause(), "the device's refusal is the failure's cause");
        }
    }

    @Test
    void withReconnectASourceKeepsTryingUntilItsTargetAppears() throws Exception
    {
        try (SampleChannel source = SampleChannel.open(source(TransportMode.RC, c -> c
            .out(out -> out.useFallback(false)))))
        {
            Thread.sleep(200);
            assertEquals(ChannelState.STARTED, source.state());
            try (SampleChannel target = SampleChannel.open(target(TransportMode.RC)))
            {
                awaitConnected(source);
                awaitConnected(target);
                send(source, 0, 5);
                receive(target, 0, 5);
            }
        }
    }

    private ChannelConfig target(final TransportMode mode)
    {
        return TestChannels.target("target", mode, targetPort, c -> { });
    }

    private ChannelConfig source(final TransportMode mode,
        final java.util.function.Consumer<ChannelConfig.Builder> tweak)
    {
        return TestChannels.source("source", mode, sourcePort, targetPort, tweak);
    }

    private static void awaitState(final SampleChannel channel, final ChannelState state) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        while (channel.state() != state)
        {
            assertTrue(System.nanoTime() < deadline, channel + " did not become " + state);
            Thread.sleep(5);
        }
    }

    /** A fallen-back source listens once its failed connect was handled: poll until a peer can connect. */
    private static void awaitListening(final SampleChannel channel) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        while (!channel.isListening())
        {
            assertTrue(System.nanoTime() < deadline, channel + " did not fall back to listening");
            Thread.sleep(5);
        }
    }

    /** UD: each side is CONNECTED once it can send; wait until the other has accepted it too. */
    private static void awaitReceiving(final SampleChannel sender, final SampleChannel receiver) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        while (receiver.stats().get(Counter.POSTED_RECEIVES) == 0)
        {
            assertTrue(System.nanoTime() < deadline, receiver + " never accepted " + sender);
            Thread.sleep(5);
        }
    }
}
