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

import static io.ibex.transport.channel.ChannelPair.awaitConnected;
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
@Timeout(120)
class PeerKillTest
{
    /** The contract: a peer's death is reported within this long. */
    static final long DETECTION_LIMIT_MILLIS = 2000;
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
        final Peer first = peer("target", TransportMode.RC, targetPort);
        try (SampleChannel source = SampleChannel.open(TestChannels.source("source", TransportMode.RC, sourcePort,
            targetPort, PeerKillTest::tweak)))
        {
            awaitConnected(source);
            final int liveConnected = TestChannels.liveResources();
            final Writer writer = new Writer(source);
            while (first.received() < FIRST_RUN)
            {
                writer.writeSome();
            }
            final long killed = first.kill();
            while (source.state() == ChannelState.CONNECTED)
            {
                writer.writeSome();
                assertTrue(System.nanoTime() - killed < TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS),
                    "the source never noticed its target's death");
            }
            final long detectedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
            System.out.printf("source: target's death detected after %d ms, longest write %d us%n", detectedMillis,
                writer.longestNanos / 1000);
            assertTrue(detectedMillis < DETECTION_LIMIT_MILLIS, "detected after " + detectedMillis + " ms");
            assertTrue(writer.longestNanos < TimeUnit.MILLISECONDS.toNanos(DETECTION_LIMIT_MILLIS),
                "a write blocked for " + writer.longestNanos / 1000 + " us");
            assertNull(source.failure(), "a lost peer is no failure: the source tries again");
            final long sentBefore = source.stats().get(Counter.SENT);
            final long dropped = source.stats().get(Counter.DROPPED);
            assertEquals(writer.taken, sentBefore, "every sample write took is counted sent");
            assertEquals(0, writer.writeSome(), "nothing is taken while no target is connected");
            awaitLive(liveConnected - 1, "the lost connection's queue pair is freed");

            final Peer second = peer("target", TransportMode.RC, targetPort);
            awaitConnected(source);
            while (writer.taken < sentBefore + SECOND_RUN)
            {
                writer.writeSome();
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
            final Peer first = peer("source", TransportMode.RC, sourcePort, targetPort);
            awaitConnected(target);
            final int liveConnected = TestChannels.liveResources();
            final Reader reader = new Reader(target);
            while (reader.next < FIRST_RUN)
            {
                reader.readSome();
            }
            final long killed = first.kill();
            while (target.state() == ChannelState.CONNECTED)
            {
                reader.readSome();
                assertTrue(System.nanoTime() - killed < TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS),
                    "the target never noticed its source's death");
            }
            final long detectedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
            System.out.printf("target: source's death detected after %d ms, longest read %d us%n", detectedMillis,
                reader.longestNanos / 1000);
            assertTrue(detectedMillis < DETECTION_LIMIT_MILLIS, "detected after " + detectedMillis + " ms");
            assertTrue(reader.longestNanos < TimeUnit.MILLISECONDS.toNanos(DETECTION_LIMIT_MILLIS),
                "a read blocked for " + reader.longestNanos / 1000 + " us");
            while (reader.readSome() > 0)
            {
                continue; // what arrived before the disconnect is still handed up
            }
            awaitLive(liveConnected - 1, "the lost connection's queue pair is freed");
            assertTrue(target.isListening(), "the target listens for the next source");
            final long fromFirst = reader.next;
            assertEquals(fromFirst, target.stats().get(Counter.RECEIVED));

            peer("source", TransportMode.RC, sourcePort, targetPort);
            awaitConnected(target);
            reader.next = 0; // the next source starts again at sequence 0
            while (reader.next < FIRST_RUN)
            {
                reader.readSome();
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

    /** Writes samples 0, 1, 2, ... and counts what the channel took; a write must never block. */
    private static final class Writer
    {
        private final SampleChannel channel;
        private final SampleBatch batch = new SampleBatch(16);
        private long next;
        private long taken;
        private long longestNanos;

        Writer(final SampleChannel channel)
        {
            this.channel = channel;
        }

        int writeSome()
        {
            final int before = batch.size();
            final int claimed = channel.claim(batch, batch.room());
            for (int i = 0; i < claimed; i++)
            {
                ChannelPair.fill(batch.get(before + i), next++);
            }
            final long start = System.nanoTime();
            final int written = channel.write(batch);
            longestNanos = Math.max(longestNanos, System.nanoTime() - start);
            taken += written;
            if (written == 0)
            {
                Thread.yield();
            }
            return written;
        }
    }

    /** Reads samples, which must come in order from 0; a read must never block. */
    private static final class Reader
    {
        private final SampleChannel channel;
        private final SampleBatch batch = new SampleBatch(64);
        private long next;
        private long longestNanos;

        Reader(final SampleChannel channel)
        {
            this.channel = channel;
        }

        int readSome()
        {
            final long start = System.nanoTime();
            final int read = channel.read(batch);
            longestNanos = Math.max(longestNanos, System.nanoTime() - start);
            for (int i = 0; i < read; i++)
            {
                assertEquals(next++, batch.get(i).sequence(), "sequence");
            }
            if (read == 0)
            {
                Thread.yield();
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

        void awaitOpen() throws InterruptedException
        {
            assertTrue(open.await(WAIT_MILLIS, TimeUnit.MILLISECONDS), "the peer process did not open its channel");
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
