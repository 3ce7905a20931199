package io.ibex.samples.cm;

import io.ibex.rdma.Providers;
import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.cm.EventChannel;
import io.ibex.rdma.cm.PortSpace;
import io.ibex.rdma.provider.soft.SoftProvider;
import io.ibex.samples.IbexCommand;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs the rdma_cm programs for tests: in this JVM on a thread of their own, through
 * {@link IbexCommand#commandLine()} with captured output, or as a JVM of their own; finds free loopback ports and
 * waits until a server listens on one, the way the interop harness does ({@code ss -ltn}: the soft connection
 * manager's listeners are TCP sockets).
 */
final class CmPrograms
{
    /** How long any one program may run in a test. */
    static final long RUN_SECONDS = 30;
    /** The address every test uses. */
    static final String LOOPBACK = "127.0.0.1";

    private static final ExecutorService THREADS = Executors.newCachedThreadPool(runnable ->
    {
        final Thread thread = new Thread(runnable, "ibex-program");
        thread.setDaemon(true);
        return thread;
    });
    private static final String TCP_LISTEN = "0A";

    private CmPrograms()
    {
    }

    /**
     * Opens the soft provider's shared device context, which the connection manager keeps open for the JVM,
     * so leak checks can count from there.
     *
     * @return the number of soft verbs resources open now.
     */
    static int softResourceBaseline()
    {
        try (EventChannel channel = Providers.select("soft").createEventChannel())
        {
            final CmId id = channel.createId(PortSpace.TCP);
            id.bindAddr(new InetSocketAddress(LOOPBACK, 0));
        }
        return SoftProvider.liveResources();
    }

    /**
     * @return a loopback TCP port that was free a moment ago.
     */
    static int freePort()
    {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK)))
        {
            return socket.getLocalPort();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Waits until a TCP socket listens on the port, as read from {@code /proc/net/tcp}, so nothing touches it.
     *
     * @param port        the port.
     * @param serverAlive whether the server still runs: it must not end first.
     * @param server      describes the server, for the failure message.
     */
    static void awaitListening(final int port, final BooleanSupplier serverAlive, final Supplier<String> server)
    {
        final IdleStrategy idle = new SleepingMillisIdleStrategy(10);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(RUN_SECONDS);
        while (!listening(port))
        {
            if (!serverAlive.getAsBoolean() || System.nanoTime() - deadline > 0)
            {
                fail("the server never listened on port " + port + ": " + server.get());
            }
            idle.idle();
        }
    }

    /**
     * Waits until the run's server listens on the port.
     *
     * @param port   the port.
     * @param server the server's run, which must not end first.
     */
    static void awaitListening(final int port, final Run server)
    {
        awaitListening(port, () -> !server.isDone(), server::toString);
    }

    /**
     * Starts {@code ibex ARGS} on a thread of its own, with {@code --provider soft} appended.
     *
     * @param args the command and its options.
     * @return the run.
     */
    static Run start(final String... args)
    {
        return new Run(args);
    }

    /**
     * Runs {@code ibex ARGS} to its end on a thread of its own, with {@code --provider soft} appended.
     *
     * @param args the command and its options.
     * @return the finished run.
     */
    static Run run(final String... args)
    {
        final Run run = new Run(args);
        run.await();
        return run;
    }

    /**
     * Starts a JVM running a main class of the test class path.
     *
     * @param mainClass the class.
     * @param args      its arguments.
     * @return the process; its output is read from {@link Process#getInputStream()}, errors go to the log.
     * @throws IOException if it cannot start.
     */
    static Process startJvm(final Class<?> mainClass, final String... args) throws IOException
    {
        final List<String> command = new ArrayList<>(List.of(
            Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"),
            mainClass.getName()));
        command.addAll(Arrays.asList(args));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    /**
     * @param process a process started by {@link #startJvm}.
     * @return its exit code and output, once it ended.
     * @throws Exception if it did not end in time or its output cannot be read.
     */
    static String awaitJvm(final Process process) throws Exception
    {
        final Future<String> output = THREADS.submit(() ->
            new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        if (!process.waitFor(RUN_SECONDS, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            fail("the process did not end within " + RUN_SECONDS + " s:\n" + output.get(5, TimeUnit.SECONDS));
        }
        return "exit " + process.exitValue() + "\n" + output.get(5, TimeUnit.SECONDS);
    }

    private static boolean listening(final int port)
    {
        final String localPort = String.format(Locale.ROOT, ":%04X", port);
        for (final String table : List.of("/proc/net/tcp", "/proc/net/tcp6"))
        {
            try
            {
                for (final String line : Files.readAllLines(Path.of(table)))
                {
                    final String[] fields = line.trim().split("\\s+");
                    if (fields.length > 3 && fields[1].endsWith(localPort) && TCP_LISTEN.equals(fields[3]))
                    {
                        return true;
                    }
                }
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException("cannot tell whether port " + port + " listens", ex);
            }
        }
        return false;
    }

    /**
     * One run of an ibex command in this JVM, its output captured.
     */
    static final class Run
    {
        private final String[] args;
        private final StringWriter out = new StringWriter();
        private final StringWriter err = new StringWriter();
        private final Future<Integer> status;

        private Run(final String... args)
        {
            this.args = Arrays.copyOf(args, args.length + 2);
            this.args[args.length] = "--provider";
            this.args[args.length + 1] = "soft";
            final CommandLine commandLine = IbexCommand.commandLine()
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true));
            status = THREADS.submit(() -> commandLine.execute(this.args));
        }

        /**
         * @return the exit status, once the command ended.
         */
        int await()
        {
            try
            {
                return status.get(RUN_SECONDS, TimeUnit.SECONDS);
            }
            catch (final TimeoutException ex)
            {
                status.cancel(true);
                return fail("did not end within " + RUN_SECONDS + " s: " + this);
            }
            catch (final Exception ex)
            {
                throw new IllegalStateException("ibex " + String.join(" ", args) + " failed to run", ex);
            }
        }

        /**
         * Asserts the command ended with the status.
         *
         * @param expected the status.
         * @return this run.
         */
        Run assertStatus(final int expected)
        {
            assertEquals(expected, await(), this::toString);
            return this;
        }

        /** @return whether the command ended. */
        boolean isDone()
        {
            return status.isDone();
        }

        /** @return the standard output so far. */
        String out()
        {
            return out.toString();
        }

        /**
         * @param pattern a pattern of a whole line.
         * @return the match of the first line of the standard output that matches.
         */
        Matcher line(final Pattern pattern)
        {
            for (final String line : outLines())
            {
                final Matcher matcher = pattern.matcher(line);
                if (matcher.matches())
                {
                    return matcher;
                }
            }
            throw new AssertionError("no line matches " + pattern + ":\n" + this);
        }

        /** @return the lines of the standard output so far. */
        List<String> outLines()
        {
            return out.toString().lines().toList();
        }

        /** @return the error output so far. */
        String err()
        {
            return err.toString();
        }

        @Override
        public String toString()
        {
            return "ibex " + String.join(" ", args) + "\n--- stdout:\n" + out + "--- stderr:\n" + err;
        }
    }
}
