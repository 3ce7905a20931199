package io.ibex.transport.channel;

import io.ibex.rdma.testing.LoopbackPorts;
import io.ibex.transport.config.ChannelConfig;
import io.ibex.transport.config.TransportMode;
import io.ibex.transport.config.PollMode;
import io.ibex.transport.sample.Sample;
import io.ibex.transport.sample.SignalList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The node-type's lifecycle: each step in order, and every operation in a wrong state refused with both states
 * named.
 */
class ChannelLifecycleTest
{
    private final ChannelConfig config = TestChannels.target("life", TransportMode.RC, LoopbackPorts.next(),
        c -> { });

    @Test
    void stepsThroughTheStatesOfTheNodeType()
    {
        final int live = TestChannels.liveResources();
        final SampleChannel channel = SampleChannel.create();
        assertEquals(ChannelState.INITIALIZED, channel.state());
        channel.parse(config);
        assertEquals(ChannelState.PARSED, channel.state());
        channel.check();
        assertEquals(ChannelState.CHECKED, channel.state());
        channel.start();
        assertEquals(ChannelState.STARTED, channel.state());
        channel.stop();
        assertEquals(ChannelState.STOPPED, channel.state());
        assertEquals(live, TestChannels.liveResources(), "a stopped channel holds no verbs object");
        channel.start();
        assertEquals(ChannelState.STARTED, channel.state(), "a stopped channel starts again");
        channel.close();
        assertEquals(ChannelState.DESTROYED, channel.state());
        channel.close();
        assertEquals(live, TestChannels.liveResources());
    }

    @Test
    void operationsInTheWrongStateNameBothStates()
    {
        final SampleChannel channel = SampleChannel.create();
        final SampleBatch batch = new SampleBatch(1);
        assertMessage("start needs the channel in state CHECKED or STOPPED, but channel '?' is INITIALIZED",
            assertThrows(ChannelStateException.class, channel::start));
        assertMessage("check needs the channel in state PARSED, but channel '?' is INITIALIZED",
            assertThrows(ChannelStateException.class, channel::check));
        channel.parse(config);
        assertMessage("parse needs the channel in state INITIALIZED, but channel 'life' is PARSED",
            assertThrows(ChannelStateException.class, () -> channel.parse(config)));
        assertMessage("write needs the channel in state STARTED or CONNECTED, but channel 'life' is PARSED",
            assertThrows(ChannelStateException.class, () -> channel.write(batch)));
        assertMessage("read needs the channel in state STARTED or CONNECTED, but channel 'life' is PARSED",
            assertThrows(ChannelStateException.class, () -> channel.read(batch)));
        assertMessage("claim needs the channel in state STARTED or CONNECTED, but channel 'life' is PARSED",
            assertThrows(ChannelStateException.class, () -> channel.claim(batch, 1)));
        channel.check().start();
        assertMessage("start needs the channel in state CHECKED or STOPPED, but channel 'life' is STARTED",
            assertThrows(ChannelStateException.class, channel::start));
        channel.close();
        assertMessage("read needs the channel in state STARTED or CONNECTED, but channel 'life' is DESTROYED",
            assertThrows(ChannelStateException.class, () -> channel.read(batch)));
        assertMessage("start needs the channel in state CHECKED or STOPPED, but channel 'life' is DESTROYED",
            assertThrows(ChannelStateException.class, channel::start));
    }

    @Test
    void aStartedChannelWithoutPeerTakesAndReturnsNothing()
    {
        try (SampleChannel channel = SampleChannel.open(config))
        {
            final SampleBatch batch = new SampleBatch(4);
            assertEquals(2, channel.claim(batch, 2));
            assertEquals(0, channel.write(batch), "no peer: nothing taken");
            assertEquals(2, batch.size(), "the samples stay with the caller");
            final SampleBatch received = new SampleBatch(4);
            assertEquals(0, channel.read(received));
            assertThrows(IllegalArgumentException.class, () -> channel.read(batch),
                "claimed samples are not a receive batch");
            channel.release(batch);
            assertEquals(0, batch.size());
        }
    }

    @Test
    void claimingMoreThanThePoolHoldsClaimsWhatIsFree()
    {
        try (SampleChannel channel = SampleChannel.open(config.toBuilder().out(out -> out.maxWrs(16)).build()))
        {
            final SampleBatch batch = new SampleBatch(100);
            assertEquals(16 + 2, channel.claim(batch, 100), "out.max_wrs + 2 * out.vectorize slots");
            final SampleBatch more = new SampleBatch(1);
            assertEquals(0, channel.claim(more, 1), "an empty pool claims nothing and throws nothing");
            channel.release(batch);
            assertEquals(1, channel.claim(more, 1));
            channel.release(more);
        }
    }

    @Test
    void aSecondChannelOnTheSameAddressFailsToStartAndSaysWhy()
    {
        try (SampleChannel first = SampleChannel.open(config))
        {
            assertEquals(ChannelState.STARTED, first.state());
            final SampleChannel second = SampleChannel.create().parse(config).check();
            final ChannelException error = assertThrows(ChannelException.class, second::start);
            assertEquals(true, error.getMessage().startsWith("life: cannot bind to " + config.in().address()),
                error.getMessage());
            assertEquals(ChannelState.CHECKED, second.state());
            second.close();
        }
    }

    @ParameterizedTest
    @EnumSource(PollMode.class)
    void stoppingEndsAReadThatIsWaitingWithAClearError(final PollMode mode) throws Exception
    {
        final int port = LoopbackPorts.next();
        try (ChannelPair pair = new ChannelPair(
            TestChannels.target("waiting", TransportMode.RC, port, c -> c.pollMode(mode)),
            TestChannels.source("source", TransportMode.RC, LoopbackPorts.next(), port, c -> { })))
        {
            final CompletableFuture<Integer> reader = CompletableFuture.supplyAsync(() ->
                pair.target.read(new SampleBatch(1), TestChannels.WAIT_MILLIS, TimeUnit.MILLISECONDS));
            Thread.sleep(100);
            pair.target.stop();
            final ExecutionException error = assertThrows(ExecutionException.class,
                () -> reader.get(2, TimeUnit.SECONDS));
            assertEquals("read needs the channel in state STARTED or CONNECTED, but channel 'waiting' is STOPPED",
                error.getCause().getMessage());
        }
    }

    @Test
    void udRefusesSamplesLargerThanTheMtu()
    {
        final SampleChannel channel = SampleChannel.create().parse(TestChannels.target("big", TransportMode.UD,
            LoopbackPorts.next(), c -> c.signals(SignalList.ofCount(Sample.MAX_CAPACITY)))).check();
        final ChannelException error = assertThrows(ChannelException.class, channel::start);
        assertTrue(error.getMessage().startsWith("big: a sample of 1000 values takes 8024 bytes, more than the UD" +
            " MTU of "), error.getMessage());
        channel.close();
    }

    private static void assertMessage(final String expected, final Exception error)
    {
        assertEquals(expected, error.getMessage());
    }
}
