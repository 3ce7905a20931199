package io.ibex.transport.channel;

import io.ibex.rdma.Providers;
import io.ibex.rdma.provider.soft.SoftProvider;
import io.ibex.rdma.provider.soft.cm.SoftEventChannel;
import io.ibex.rdma.testing.LoopbackPorts;
import io.ibex.transport.config.TransportMode;
import io.ibex.transport.stats.Counter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static io.ibex.transport.channel.TestChannels.WAIT_MILLIS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The pause policy (docs/soft-provider.md, "A paused peer"), on one connection: a target whose JVM is stopped
 * (SIGSTOP) mid-stream for less than the RC bound, (retry_cnt + 1) periods of max(4.096 us * 2^timeout, 1 s), 8 s
 * with the channel's settings, keeps its link and loses nothing; stopped again for longer, it loses its link, the
 * source reconnects, the target takes none of the requests that went stale meanwhile, and every sample the source
 * counted sent was read or counted dropped. And a target whose source is stopped for good (its host gone, as far as
 * the target can tell) turns the next source away only until the probe of the silent one fails at the bound, then
 * takes it. The soft provider's: an HCA's timers run on while its process is stopped.
 */
@ExtendWith(NoLeaks.class)
@Timeout(120)
class PeerPauseTest
{
    /** RC gives up on a silent peer after this long: (7 + 1) * max(4.096 us * 2^14, 1 s). */
    private static final long BOUND_MILLIS = 8000;
    private static final long BELOW_BOUND_MILLIS = 5000;
    private static final long BEYOND_BOUND_MILLIS = 10_500;
    /** The source's requests to the paused target expire after this long, so that stale ones pile up. */
    private static final long REPLY_TIMEOUT_MILLIS = 1000;
    private static final int RUN = 2000;
    /** What the target logs when a request it took failed: one its source had given up on before it was read. */
    private static final Pattern STALE_ACCEPTED =
        Pattern.compile("WARN .*(handling CmEvent\\{CONNECT_REQUEST.* failed|accepting .* failed)");

    private PeerProcess target;
    private PeerProcess silentSource;
    private String replyTimeout;

    @BeforeEach
    void shortenReplyTimeout()
    {
        assumeTrue(SoftProvider.NAME.equals(Providers.select().name()),
            "SIGSTOP pauses a soft peer's transport; an HCA's runs on while its process is stopped");
        replyTimeout = System.setProperty(SoftEventChannel.REPLY_TIMEOUT_PROPERTY, Long.toString(REPLY_TIMEOUT_MILLIS));
    }

    @AfterEach
    void cleanUp() throws InterruptedException
    {
        if (replyTimeout != null)
        {
            System.setProperty(SoftEventChannel.REPLY_TIMEOUT_PROPERTY, replyTimeout);
        }
        else
        {
            System.clearProperty(SoftEventChannel.REPLY_TIMEOUT_PROPERTY);
        }
        for (final PeerProcess peer : new PeerProcess[] {target, silentSource})
        {
            if (peer != null)
            {
                peer.kill();
            }
        }
    }

    @Test
    void aTargetPausedBelowTheBoundLosesNothingAndBeyondItIsReconnectedWithEverySampleReadOrCountedDropped()
        throws Exception
    {
        try (SampleChannel source = openSourceAndTarget())
        {
            final PeerKillTest.Writer writer = streamUntilRead(source, RUN);
            pauseBelowTheBound(source, writer);
            pauseBeyondTheBound(source, writer);
        }
    }

    @Test
    void aTargetWhoseSourceFellSilentTakesTheNextSourceOnceTheProbeOfTheSilentOneFails() throws Exception
    {
        final int targetPort = LoopbackPorts.next();
        try (SampleChannel receiver = SampleChannel.open(TestChannels.target("target", TransportMode.RC, targetPort,
            PeerKillTest::tweak)))
        {
            silentSource = new PeerProcess(List.of("source", TransportMode.RC.name(),
                Integer.toString(LoopbackPorts.next()), Integer.toString(targetPort)));
            silentSource.awaitOpen();
            assertTrue(receiver.awaitConnected(PeerProcess.START_WAIT_MILLIS, TimeUnit.MILLISECONDS), "no connection");
            final PeerKillTest.Reader reader = new PeerKillTest.Reader(receiver);
            while (reader.next < RUN)
            {
                reader.step();
            }
            silentSource.signal("STOP");
            final long stopped = System.nanoTime();
            try (SampleChannel next = SampleChannel.open(TestChannels.source("next", TransportMode.RC,
                LoopbackPorts.next(), targetPort, PeerKillTest::tweak)))
            {
                final SampleBatch batch = new SampleBatch(64);
                while (next.state() != ChannelState.CONNECTED)
                {
                    receiver.read(batch); // the silent source's last samples
                    assertTrue(System.nanoTime() - stopped < TimeUnit.MILLISECONDS.toNanos(BOUND_MILLIS + WAIT_MILLIS),
                        "the next source was turned away for longer than the bound");
                }
                System.out.printf("the next source connected %d ms after the first fell silent%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopped));
                streamFromZero(next, receiver);
            }
        }
    }

    /** Writes RUN samples from 0 on the source; the target reads them all, in order, after any earlier ones. */
    private static void streamFromZero(final SampleChannel source, final SampleChannel target)
    {
        final PeerKillTest.Writer writer = new PeerKillTest.Writer(source);
        final SampleBatch batch = new SampleBatch(64);
        long expected = -1;
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        while (expected < RUN)
        {
            if (writer.taken < RUN)
            {
                writer.step();
            }
            final int read = target.read(batch);
            for (int i = 0; i < read; i++)
            {
                final long sequence = batch.get(i).sequence();
                if (expected >= 0 || sequence == 0)
                {
                    assertEquals(Math.max(expected, 0), sequence, "the next source's samples, in order from 0");
                    expected = sequence + 1;
                }
            }
            assertTrue(System.nanoTime() < deadline, "the target read the next source's samples up to " + expected);
        }
    }

    private void pauseBelowTheBound(final SampleChannel source, final PeerKillTest.Writer writer) throws Exception
    {
        target.signal("STOP");
        final long stopped = System.nanoTime();
        while (System.nanoTime() - stopped < TimeUnit.MILLISECONDS.toNanos(BELOW_BOUND_MILLIS))
        {
            writer.step();
            assertEquals(ChannelState.CONNECTED, source.state(), "the link of a peer paused below the bound");
        }
        target.signal("CONT");
        final long before = writer.taken;
        while (writer.taken < before + RUN)
        {
            writer.step();
            assertEquals(ChannelState.CONNECTED, source.state(), "the link of a peer paused below the bound");
        }
        target.awaitReceived(0, writer.taken - 1);
        assertEquals(writer.taken, source.stats().get(Counter.SENT));
        assertEquals(0, source.stats().get(Counter.DROPPED), "dropped below the bound");
        assertEquals(0, source.stats().get(Counter.RECONNECTS), "reconnects below the bound");
        System.out.printf("paused %d ms, below the bound: %d samples sent, all read%n", BELOW_BOUND_MILLIS,
            writer.taken);
    }

    private void pauseBeyondTheBound(final SampleChannel source, final PeerKillTest.Writer writer) throws Exception
    {
        target.signal("STOP");
        final long stopped = System.nanoTime();
        while (source.state() == ChannelState.CONNECTED)
        {
            writer.step();
        }
        final long lostMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopped);
        final long sentAtLoss = writer.taken;
        while (System.nanoTime() - stopped < TimeUnit.MILLISECONDS.toNanos(BEYOND_BOUND_MILLIS))
        {
            writer.step();
        }
        target.signal("CONT");
        assertTrue(source.awaitConnected(WAIT_MILLIS, TimeUnit.MILLISECONDS), "the source did not reconnect");
        final long before = writer.taken;
        while (writer.taken < before + RUN)
        {
            writer.step();
        }
        final long sent = source.stats().get(Counter.SENT);
        final long dropped = source.stats().get(Counter.DROPPED);
        assertEquals(writer.taken, sent);
        target.awaitRead(sent - 1);
        long read = 0;
        long next = 0;
        for (final long[] run : target.runs())
        {
            assertTrue(run[0] >= next, "sample " + run[0] + " read again or out of order");
            assertTrue(run[0] == next || next >= sentAtLoss - dropped && run[0] <= sentAtLoss, "samples " + next +
                ".." + (run[0] - 1) + " lost, but only the " + dropped + " before " + sentAtLoss + " were dropped");
            read += run[1] - run[0] + 1;
            next = run[1] + 1;
        }
        System.out.printf("paused %d ms, beyond the bound: the link lost after %d ms; %d samples sent, %d read, " +
            "%d lost, %d counted dropped (%d of them read all the same)%n", BEYOND_BOUND_MILLIS, lostMillis, sent,
            read, sent - read, dropped, dropped - (sent - read));
        assertTrue(lostMillis >= BOUND_MILLIS && lostMillis < BOUND_MILLIS + 2000,
            "the link was lost after " + lostMillis + " ms, not at the bound of " + BOUND_MILLIS + " ms");
        assertEquals(sent, next, "the last sample read is the last sent");
        assertEquals(1, source.stats().get(Counter.RECONNECTS), "reconnects");
        for (final String line : target.log())
        {
            assertTrue(!STALE_ACCEPTED.matcher(line).find(), "the target took a stale request: " + line);
        }
    }

    private SampleChannel openSourceAndTarget() throws Exception
    {
        final int targetPort = LoopbackPorts.next();
        final int sourcePort = LoopbackPorts.next();
        final SampleChannel source = SampleChannel.open(TestChannels.source("source", TransportMode.RC, sourcePort,
            targetPort, PeerKillTest::tweak));
        target = new PeerProcess(List.of("target", TransportMode.RC.name(), Integer.toString(targetPort)));
        target.awaitOpen();
        assertTrue(source.awaitConnected(PeerProcess.START_WAIT_MILLIS, TimeUnit.MILLISECONDS), "no connection");
        return source;
    }

    private PeerKillTest.Writer streamUntilRead(final SampleChannel source, final long count)
    {
        final PeerKillTest.Writer writer = new PeerKillTest.Writer(source);
        while (target.received() < count)
        {
            writer.step();
        }
        return writer;
    }
}
