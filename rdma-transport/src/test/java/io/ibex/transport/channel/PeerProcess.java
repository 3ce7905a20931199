package io.ibex.transport.channel;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static io.ibex.transport.channel.TestChannels.WAIT_MILLIS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A {@link ChannelPeerProcess} in a JVM of its own, with this JVM's options, and what it printed: the runs of
 * samples a target read (standard output) and its log (standard error, echoed here). It can be killed (SIGKILL),
 * paused (SIGSTOP) and continued (SIGCONT).
 */
final class PeerProcess
{
    /** How long a peer's JVM may take to open its channel: it starts slowly under emulation (Soft-RoCE guest). */
    static final long START_WAIT_MILLIS = 12 * WAIT_MILLIS;

    private final Process process;
    private final CountDownLatch open = new CountDownLatch(1);
    private final List<long[]> runs = new ArrayList<>();
    private final List<String> log = new ArrayList<>();
    private long received;

    /**
     * @param args the {@link ChannelPeerProcess} arguments.
     * @throws IOException if the JVM cannot start.
     */
    PeerProcess(final List<String> args) throws IOException
    {
        final List<String> command = new ArrayList<>(List.of(
            Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classPath()));
        for (final String argument : ManagementFactory.getRuntimeMXBean().getInputArguments())
        {
            if (!argument.startsWith("-javaagent") && !argument.startsWith("-agent"))
            {
                command.add(argument); // -Dibex.native.library, -Djava.library.path, ... as this JVM has them
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
        process = new ProcessBuilder(command).start();
        daemon("peer-lines", process.getInputStream(), this::onLine);
        daemon("peer-log", process.getErrorStream(), this::onLogLine);
    }

    /**
     * @return this JVM's class path, with what the test's class loader adds (JUnit's console launcher, as the
     *     Soft-RoCE guest runs it, loads the tests from its own {@code -cp}).
     */
    private static String classPath()
    {
        final StringBuilder path = new StringBuilder(System.getProperty("java.class.path"));
        if (PeerProcess.class.getClassLoader() instanceof URLClassLoader loader)
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

    /** Waits for the peer's channel to open. */
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

    /** Waits until the peer read sample {@code last} (the latest it is sent). */
    void awaitRead(final long last) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        synchronized (this)
        {
            while (runs.isEmpty() || runs.get(runs.size() - 1)[1] < last)
            {
                final long left = deadline - System.nanoTime();
                assertTrue(left > 0, "the peer did not read sample " + last + "; read " + received);
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        }
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

    /** @return the runs of consecutive samples the peer read, each {first, last}, in the order read. */
    synchronized List<long[]> runs()
    {
        return new ArrayList<>(runs);
    }

    /** @return the lines the peer logged so far. */
    synchronized List<String> log()
    {
        return new ArrayList<>(log);
    }

    /** @return when the process was gone, after SIGKILL. */
    long kill() throws InterruptedException
    {
        process.destroyForcibly();
        assertTrue(process.waitFor(WAIT_MILLIS, TimeUnit.MILLISECONDS), "the peer process did not die");
        return System.nanoTime();
    }

    /** Sends the process a signal, as {@code kill -NAME pid}: STOP pauses it, CONT continues it. */
    void signal(final String name) throws IOException, InterruptedException
    {
        final Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
        assertTrue(kill.waitFor(WAIT_MILLIS, TimeUnit.MILLISECONDS) && kill.exitValue() == 0,
            "kill -" + name + " " + process.pid() + " failed");
    }

    private void onLine(final String line)
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

    private void onLogLine(final String line)
    {
        System.err.println("peer: " + line);
        synchronized (this)
        {
            log.add(line);
        }
    }

    /** Hands each line of the stream to the consumer on a daemon thread, until the stream ends. */
    private static void daemon(final String name, final InputStream stream, final Consumer<String> lines)
    {
        final Thread thread = new Thread(() ->
        {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(stream, StandardCharsets.US_ASCII)))
            {
                for (String line = in.readLine(); line != null; line = in.readLine())
                {
                    lines.accept(line);
                }
            }
            catch (final IOException ex)
            {
                // killed: its output ends here
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
    }
}
