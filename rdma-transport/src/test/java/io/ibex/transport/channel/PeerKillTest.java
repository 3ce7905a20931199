package io.ibex.transport.channel;

import io.ibex.transport.config.ChannelConfig;
import io.ibex.transport.config.TransportMode;
import io.ibex.transport.stats.Counter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.ibex.transport.channel.TestChannels.WAIT_MILLIS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A peer killed with SIGKILL mid-stream ({@link Process#destroyForcibly()} of a {@link ChannelPeerProcess}): the
 * surviving channel leaves CONNECTED within 2 s (the contract), its writes and reads never block, it frees the
 * connection's verbs objects, and it carries on with the next peer process; its counters account for every
 * sample. On the soft provider the two JVMs always talk TCP (their devices are different endpoints).
 */
@ExtendWith(NoLeaks.class)
@Timeout(300)
class PeerKillTest
{
    /** The contract: a peer's death is reported within this long. */
    static final long DETECTION_LIMIT_MILLIS = 2000;
    private static final long START_WAIT_MILLIS = 12 * WAIT_MILLIS;
    private static final int FIRST_RUN = 2000;
    private static final int SECOND_RUN = 1000;

    private final int targetPort = TestChannels.freePort();
    private final int sourcePort = TestChannels.freePort();
    private final List<Peer> peers = new ArrayList<>();

    /** Both ends: the source keeps trying (every 100 ms at most) instead of falling back to listening. */
    static void tweak(final ChannelConfig.Builder config)
    {
        config.outUseFallback(false).reconnectMaxDelay(Duration.ofMillis(100));
    }

    @AfterEach
    void killPeers() throws InterruptedException
    {
        for (final Peer peer : peers)
        {
            peer.kill();
        }
    }

    @Test
    void aSourceReportsItsKilledTargetWithinTwoSecondsThenResumesWithTheNextOne() throws Exception
    {
        try (SampleChannel source = SampleChannel.open(TestChannels.source("source", TransportMode.RC, sourcePort,
            targetPort, PeerKillTest::tweak)))
        {
            final int unconnected = quietLive();
            final Peer first = peer("target", TransportMode.RC, targetPort);
            awaitConnectedToPeer(source);
            final Writer writer = new Writer(source);
            while (first.received() < FIRST_RUN)
            {
                writer.step();
            }
            killAndAwaitDetection(first, source, writer);
            assertNull(source.failure(), "a lost peer is no failure: the source tries again");
            final long sentBefore = source.stats().get(Counter.SENT);
            final long dropped = source.stats().get(Counter.DROPPED);
            assertEquals(writer.taken, sentBefore, "every sample write took is counted sent");
            assertEquals(0, writer.step(), "nothing is taken while no target is connected");
            awaitLive(unconnected, "the lost connection's verbs objects are freed");

            final Peer second = peer("target", TransportMode.RC, targetPort);
            awaitConnectedToPeer(source);
            while (writer.taken < sentBefore + SECOND_RUN)
            {
                writer.step();
            }
            second.awaitReceived(sentBefore, writer.taken - 1);

            first.assertReadInOrder(0);
            assertTrue(first.received() <= sentBefore, first.received() + " read of " + sentBefore);
            assertTrue(dropped <= source.config().outMaxWrs(),
                dropped + " dropped: only sends still in flight may be unconfirmed at a disconnect");
            assertEquals(writer.taken, source.stats().get(Counter.SENT));
            assertEquals(dropped, source.stats().get(Counter.DROPPED), "nothing more was dropped after reconnecting");
            assertEquals(1, source.stats().get(Counter.RECONNECTS));
            System.out.printf("source: %d samples sent before the kill, the target read %d of them, %d counted " +
                "dropped; %d sent to the next target, all read%n", sentBefore, first.received(), dropped,
                writer.taken - sentBefore);
        }
    }

    @Test
    void aTargetReportsItsKilledSourceWithinTwoSecondsThenAcceptsTheNextOne() throws Exception
    {
        try (SampleChannel target = SampleChannel.open(TestChannels.target("target", TransportMode.RC, targetPort,
            PeerKillTest::tweak)))
        {
            final int unconnected = TestChannels.liveResources();
            final Peer first = peer("source", TransportMode.RC, sourcePort, targetPort);
            awaitConnectedToPeer(target);
            final Reader reader = new Reader(target);
            while (reader.next < FIRST_RUN)
            {
                reader.step();
            }
            killAndAwaitDetection(first, target, reader);
            while (reader.step() > 0)
            {
                continue; // what arrived before the disconnect is still handed up
            }
            awaitLive(unconnected, "the lost connection's verbs objects are freed");
            assertTrue(target.isListening(), "the target listens for the next source");
            final long fromFirst = reader.next;
            assertEquals(fromFirst, target.stats().get(Counter.RECEIVED));

            peer("source", TransportMode.RC, sourcePort, targetPort);
            awaitConnectedToPeer(target);
            reader.next = 0; // the next source starts again at sequence 0
            while (reader.next < FIRST_RUN)
            {
                reader.step();
            }
            assertEquals(fromFirst + reader.next, target.stats().get(Counter.RECEIVED));
            assertEquals(0, target.stats().get(Counter.INVALID));
        }
    }

    private Peer peer(final String role, final TransportMode mode, final int... ports) throws Exception
    {
        final List<String> args = new ArrayList<>(List.of(role, mode.name()));
        for (final int port : ports)
        {
            args.add(Integer.toString(port));
        }
        final Peer peer = new Peer(args);
        peers.add(peer);
        peer.awaitOpen();
        return peer;
    }

    /** Waits for a connection with a peer process, which may be slow to answer while its JVM warms up. */
    private static void awaitConnectedToPeer(final SampleChannel channel) throws InterruptedException
    {
        assertTrue(channel.awaitConnected(START_WAIT_MILLIS, TimeUnit.MILLISECONDS), channel + " did not connect");
    }

    /**
     * Kills the peer and keeps the survivor's data path going until it leaves CONNECTED: within the 2 s of the
     * contract, and with no write or read blocking that long.
     */
    private static void killAndAwaitDetection(final Peer peer, final SampleChannel survivor, final TimedStep data)
        throws InterruptedException
    {
        final long killed = peer.kill();
        data.longestNanos = 0; // from the kill on: a slow step while streaming (JIT, GC, a loaded guest) is no hang
        while (survivor.state() == ChannelState.CONNECTED)
        {
            data.step();
            assertTrue(System.nanoTime() - killed < TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS),
                survivor + " never noticed its peer's death");
        }
        final long detectedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
        System.out.printf("%s: the peer's death detected after %d ms, longest %s since the kill %d us%n", survivor,
            detectedMillis, data.what, data.longestNanos / 1000);
        assertTrue(detectedMillis < DETECTION_LIMIT_MILLIS, "detected after " + detectedMillis + " ms");
        assertTrue(data.longestNanos < TimeUnit.MILLISECONDS.toNanos(DETECTION_LIMIT_MILLIS),
            "a " + data.what + " blocked for " + data.longestNanos / 1000 + " us");
    }

    /**
     * @return the verbs objects open while a source has no target: the fewest seen over a few of its reconnection
     *     attempts (an attempt holds a queue pair for a moment).
     */
    private static int quietLive() throws InterruptedException
    {
        int fewest = Integer.MAX_VALUE;
        for (int i = 0; i < 60; i++)
        {
            fewest = Math.min(fewest, TestChannels.liveResources());
            Thread.sleep(5);
        }
        return fewest;
    }

    private static void awaitLive(final int expected, final String what) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        int live;
        while ((live = TestChannels.liveResources()) != expected)
        {
            assertTrue(System.nanoTime() < deadline, what + ": " + live + " verbs objects open, not " + expected);
            Thread.sleep(1);
        }
    }

    /** A write or read on the survivor, timed: neither may ever block. */
    private abstract static class TimedStep
    {
        protected final SampleChannel channel;
        private final String what;
        private long longestNanos;

        TimedStep(final SampleChannel channel, final String what)
        {
            this.channel = channel;
            this.what = what;
        }

        /** @return how many samples the step moved; it yields the thread when none. */
        final int step()
        {
            final long start = System.nanoTime();
            final int moved = move();
            longestNanos = Math.max(longestNanos, System.nanoTime() - start);
            if (moved == 0)
            {
                Thread.yield();
            }
            return moved;
        }

        protected abstract int move();
    }

    /** Writes samples 0, 1, 2, ... and counts what the channel took. */
    private static final class Writer extends TimedStep
    {
        private final SampleBatch batch = new SampleBatch(16);
        private long next;
        private long taken;

        Writer(final SampleChannel channel)
        {
            super(channel, "write");
        }

        @Override
        protected int move()
        {
            final int before = batch.size();
            final int claimed = channel.claim(batch, batch.room());
            for (int i = 0; i < claimed; i++)
            {
                ChannelPair.fill(batch.get(before + i), next++);
            }
            final int written = channel.write(batch);
            taken += written;
            return written;
        }
    }

    /** Reads samples, which must come in order from 0. */
    private static final class Reader extends TimedStep
    {
        private final SampleBatch batch = new SampleBatch(64);
        private long next;

        Reader(final SampleChannel channel)
        {
            super(channel, "read");
        }

        @Override
        protected int move()
        {
            final int read = channel.read(batch);
            for (int i = 0; i < read; i++)
            {
                assertEquals(next++, batch.get(i).sequence(), "sequence");
            }
            return read;
        }
    }

    /** A {@link ChannelPeerProcess} and what it printed. */
    private static final class Peer
    {
        private final Process process;
        private final CountDownLatch open = new CountDownLatch(1);
        private final List<long[]> runs = new ArrayList<>();
        private long received;

        Peer(final List<String> args) throws IOException
        {
            final List<String> command = new ArrayList<>(List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classPath()));
            for (final String argument : ManagementFactory.getRuntimeMXBean().getInputArguments())
            {
                if (!argument.startsWith("-javaagent") && !argument.startsWith("-agent"))
                {
                    command.add(argument); // --add-exports, -Djava.library.path, ... as this JVM has them
                }
            }
            for (final Map.Entry<Object, Object> property : System.getProperties().entrySet())
            {
                final String key = property.getKey().toString();
                if (key.startsWith("ibex.") || key.startsWith("org.slf4j."))
                {
                    command.add("-D" + key + "=" + property.getValue()); // also those the test runner set
                }
            }
            command.add(ChannelPeerProcess.class.getName());
            command.addAll(args);
            process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            final Thread lines = new Thread(this::readLines, "peer-lines");
            lines.setDaemon(true);
            lines.start();
        }

        /**
         * @return this JVM's class path, with what the test's class loader adds (JUnit's console launcher, as the
         *     Soft-RoCE guest runs it, loads the tests from its own {@code -cp}).
         */
        private static String classPath()
        {
            final StringBuilder path = new StringBuilder(System.getProperty("java.class.path"));
            if (PeerKillTest.class.getClassLoader() instanceof URLClassLoader loader)
            {
                for (final URL url : loader.getURLs())
                {
                    try
                    {
                        path.append(File.pathSeparatorChar).append(Paths.get(url.toURI()));
                    }
                    catch (final URISyntaxException ex)
                    {
                        throw new IllegalStateException("a class path entry that is no file: " + url, ex);
                    }
                }
            }
            return path.toString();
        }

        /** Waits for the peer's channel: a JVM starts slowly under emulation (the Soft-RoCE guest), so longer. */
        void awaitOpen() throws InterruptedException
        {
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_WAIT_MILLIS);
            while (!open.await(10, TimeUnit.MILLISECONDS))
            {
                assertTrue(process.isAlive(), "the peer process ended with " + exitValue() +
                    " before its channel opened");
                assertTrue(System.nanoTime() < deadline, "the peer process did not open its channel in " +
                    START_WAIT_MILLIS + " ms");
            }
        }

        private int exitValue()
        {
            return process.isAlive() ? -1 : process.exitValue();
        }

        synchronized long received()
        {
            return received;
        }

        /** Waits until the peer read samples first..last. */
        void awaitReceived(final long first, final long last) throws InterruptedException
        {
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
            synchronized (this)
            {
                while (received < last - first + 1)
                {
                    final long left = deadline - System.nanoTime();
                    assertTrue(left > 0, "the peer read " + received + " of samples " + first + ".." + last);
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                }
                assertEquals(last - first + 1, received, "samples read");
            }
            assertReadInOrder(first);
        }

        /** Checks that the peer read first, first + 1, ... with nothing missing, repeated or out of order. */
        synchronized void assertReadInOrder(final long first)
        {
            long expected = first;
            for (final long[] run : runs)
            {
                assertEquals(expected, run[0], "the run the peer read next starts at");
                expected = run[1] + 1;
            }
        }

        /** @return when the process was gone, after SIGKILL. */
        long kill() throws InterruptedException
        {
            process.destroyForcibly();
            assertTrue(process.waitFor(WAIT_MILLIS, TimeUnit.MILLISECONDS), "the peer process did not die");
            return System.nanoTime();
        }

        private void readLines()
        {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.US_ASCII)))
            {
                for (String line = in.readLine(); line != null; line = in.readLine())
                {
                    if (line.equals(ChannelPeerProcess.OPEN))
                    {
                        open.countDown();
                    }
                    else if (line.startsWith(ChannelPeerProcess.READ))
                    {
                        final String[] fields = line.substring(ChannelPeerProcess.READ.length()).split(" ");
                        final long[] run = {Long.parseLong(fields[0]), Long.parseLong(fields[1])};
                        synchronized (this)
                        {
                            runs.add(run);
                            received += run[1] - run[0] + 1;
                            notifyAll();
                        }
                    }
                }
            }
            catch (final IOException ex)
            {
                // killed: its output ends here
            }
        }
    }
}
