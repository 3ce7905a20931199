package io.ibex.samples;

import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import picocli.CommandLine;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Test support for the {@code ibex} programs: one run of a command through {@link IbexCommand#commandLine()},
 * in this JVM on a thread of its own or as a JVM of its own, with what it printed; free loopback ports, and a
 * wait until a server listens on one. Every wait is bounded.
 */
public final class IbexRun
{
    /** How long any one run, or any one wait for it, may take. */
    public static final Duration LIMIT = Duration.ofSeconds(60);
    /** The repository's examples directory, seen from the module's directory (where tests run). */
    public static final Path EXAMPLES = Path.of("..", "examples");

    /** A thread of its own for each blocking task: the common pool may have one thread only. */
    private static final Executor THREAD_EACH = (task) ->
    {
        final Thread thread = new Thread(task, "ibex-run");
        thread.setDaemon(true);
        thread.start();
    };
    private static final String TCP_LISTEN = "0A";
    private static final Pattern ITERS = Pattern.compile("(?m)^(\\d+) iters in [0-9.]+ seconds = [0-9.]+ usec/iter$");
    private static final Pattern BYTES = Pattern.compile("(?m)^(\\d+) bytes in [0-9.]+ seconds = [0-9.]+ Mbit/sec$");

    private final String[] args;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private final CompletableFuture<Integer> status;
    private final Process process;

    private IbexRun(final String[] args, final List<String> jvmOptions)
    {
        this.args = args.clone();
        if (jvmOptions != null)
        {
            final List<String> command = new ArrayList<>();
            command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(jvmOptions);
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), IbexCommand.class.getName()));
            command.addAll(List.of(args));
            try
            {
                process = new ProcessBuilder(command).start();
            }
            catch (final IOException ex)
            {
                throw new IllegalStateException("cannot start a JVM: " + command, ex);
            }
            final CompletableFuture<Void> stdout =
                CompletableFuture.runAsync(() -> copy(process.getInputStream(), out), THREAD_EACH);
            final CompletableFuture<Void> stderr =
                CompletableFuture.runAsync(() -> copy(process.getErrorStream(), err), THREAD_EACH);
            status = process.onExit().thenApply((p) ->
            {
                stdout.join();
                stderr.join();
                return p.exitValue();
            });
        }
        else
        {
            process = null;
            final CommandLine commandLine = IbexCommand.commandLine()
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true));
            status = CompletableFuture.supplyAsync(() -> commandLine.execute(this.args), THREAD_EACH);
        }
    }

    /**
     * @param args the arguments after {@code ibex}.
     * @return the run, started on a thread of its own.
     */
    public static IbexRun start(final String... args)
    {
        return new IbexRun(args, null);
    }

    /**
     * @param args the arguments after {@code ibex}.
     * @return the run, started as a separate JVM with this JVM's class path.
     */
    public static IbexRun startJvm(final String... args)
    {
        return new IbexRun(args, List.of());
    }

    /**
     * @param jvmOptions the options of the JVM, before the class path.
     * @param args       the arguments after {@code ibex}.
     * @return the run, started as a separate JVM with these options and this JVM's class path.
     */
    public static IbexRun startJvm(final List<String> jvmOptions, final String... args)
    {
        return new IbexRun(args, jvmOptions);
    }

    /**
     * @param args the arguments after {@code ibex}.
     * @return the run, finished, on a thread of its own.
     */
    public static IbexRun run(final String... args)
    {
        final IbexRun run = start(args);
        run.status();
        return run;
    }

    /**
     * @param command the subcommand of a program set up out of band (the ping-pongs, rdma-write, perf).
     * @param port    the TCP port of its out-of-band exchange.
     * @param more    the other arguments.
     * @return its arguments on the soft provider, with the server listening on loopback.
     */
    public static String[] outOfBandArgs(final String command, final int port, final String... more)
    {
        final List<String> args = new ArrayList<>(List.of(
            command, "--provider", "soft", "-p", Integer.toString(port), "--listen", "127.0.0.1"));
        args.addAll(List.of(more));
        return args.toArray(new String[0]);
    }

    /**
     * Waits until a TCP socket listens on the port, as read from {@code /proc/net/tcp}, so that nothing
     * touches the port (the soft connection manager's listeners are TCP sockets too).
     *
     * @param port   the port.
     * @param server the server's run, which must not end first.
     */
    public static void awaitListening(final int port, final IbexRun server)
    {
        awaitListening(port, () -> !server.isDone(), server);
    }

    /**
     * As {@link #awaitListening(int, IbexRun)}, for a server that is not a run of this class.
     *
     * @param port        the port.
     * @param serverAlive whether the server still runs: it must not end first.
     * @param server      describes the server, for the failure message.
     */
    public static void awaitListening(final int port, final BooleanSupplier serverAlive, final Object server)
    {
        final IdleStrategy idle = new SleepingMillisIdleStrategy(10);
        final long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!listening(port))
        {
            if (!serverAlive.getAsBoolean() || System.nanoTime() - deadline > 0)
            {
                fail("the server never listened on port " + port + ": " + server);
            }
            idle.idle();
        }
    }

    /**
     * Waits until the run printed a line containing the text (a server prints its local address once it listens).
     *
     * @param text what to wait for.
     * @return this.
     */
    public IbexRun awaitOutput(final String text)
    {
        final IdleStrategy idle = new SleepingMillisIdleStrategy(10);
        final long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!out().contains(text))
        {
            if (status.isDone())
            {
                fail("finished (status " + status.join() + ") without printing \"" + text + "\"\n" + this);
            }
            if (System.nanoTime() - deadline > 0)
            {
                fail("did not print \"" + text + "\" within " + LIMIT + "\n" + this);
            }
            idle.idle();
        }
        return this;
    }

    /** @return the exit status, once the run finished. */
    public int status()
    {
        try
        {
            return status.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        }
        catch (final Exception ex)
        {
            status.cancel(true);
            if (process != null)
            {
                process.destroyForcibly();
            }
            throw new AssertionError("did not finish within " + LIMIT + ": " + ex + "\n" + this, ex);
        }
    }

    /** @return whether the run finished. */
    public boolean isDone()
    {
        return status.isDone();
    }

    /** Kills the separate JVM at once, as a peer that dies. */
    public void kill()
    {
        process.destroyForcibly();
    }

    /**
     * Sends a signal to the separate JVM, as a user's Ctrl-C (INT) or a service manager (TERM) does.
     *
     * @param name the signal's name, e.g. "INT".
     */
    public void signal(final String name)
    {
        try
        {
            final int status = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO()
                .start().waitFor();
            assertEquals(0, status, () -> "kill -" + name + " " + process.pid() + " failed");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while sending SIG" + name, ex);
        }
    }

    /**
     * Waits until the run printed text on standard error (log lines, the status line).
     *
     * @param text what to wait for.
     * @return this.
     */
    public IbexRun awaitError(final String text)
    {
        final IdleStrategy idle = new SleepingMillisIdleStrategy(10);
        final long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!err().contains(text))
        {
            if (status.isDone() || System.nanoTime() - deadline > 0)
            {
                fail("did not print \"" + text + "\" on standard error\n" + this);
            }
            idle.idle();
        }
        return this;
    }

    /**
     * Asserts that the run finished with the status.
     *
     * @param expected the status.
     * @return this.
     */
    public IbexRun assertStatus(final int expected)
    {
        assertEquals(expected, status(), this::toString);
        return this;
    }

    /**
     * Asserts that the run finished with status 0.
     *
     * @return this.
     */
    public IbexRun assertSucceeded()
    {
        return assertStatus(0);
    }

    /**
     * Asserts that the run failed the ibex way: status 1 and an error line naming the command.
     *
     * @param command the subcommand, e.g. "rc-pingpong".
     * @param message what the error line must contain.
     * @return this.
     */
    public IbexRun assertFailed(final String command, final String message)
    {
        assertStatus(1);
        final String prefix = "ibex " + command + ": error: ";
        final String line = err().lines().filter((l) -> l.startsWith(prefix)).findFirst().orElse(null);
        assertTrue(line != null && line.contains(message),
            () -> "expected an error line \"" + prefix + "...\" containing \"" + message + "\"\n" + this);
        return this;
    }

    /** @return what it printed on standard output so far. */
    public String out()
    {
        synchronized (out)
        {
            return out.toString();
        }
    }

    /** @return the lines of the standard output so far. */
    public List<String> outLines()
    {
        return out().lines().toList();
    }

    /**
     * @param pattern a pattern of a whole line.
     * @return the match of the first line of the standard output that matches.
     */
    public Matcher line(final Pattern pattern)
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

    /** @return what it printed on standard error so far. */
    public String err()
    {
        synchronized (err)
        {
            return err.toString();
        }
    }

    /**
     * @param label "local" or "remote".
     * @return the address the rdma-core example programs print on that line (ibv_ud_pingpong's colon before
     *         the GID made a comma).
     */
    public String address(final String label)
    {
        final Matcher matcher = Pattern.compile("(?m)^  " + label + " address: +(.*)$").matcher(out());
        assertTrue(matcher.find(), () -> "no " + label + " address line\n" + this);
        return matcher.group(1).replace(": GID", ", GID");
    }

    /** @return the number of iterations of the ping-pongs' "N iters in" line. */
    public long iters()
    {
        return number(ITERS);
    }

    /** @return the number of bytes of the ping-pongs' "N bytes in" line. */
    public long bytes()
    {
        return number(BYTES);
    }

    @Override
    public String toString()
    {
        return "ibex " + String.join(" ", args) + "\n--- stdout:\n" + out() + "\n--- stderr:\n" + err();
    }

    private long number(final Pattern pattern)
    {
        final Matcher matcher = pattern.matcher(out());
        assertTrue(matcher.find(), () -> "no line matching " + pattern + "\n" + this);
        return Long.parseLong(matcher.group(1));
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

    private static void copy(final InputStream in, final StringWriter to)
    {
        try (in)
        {
            final byte[] buffer = new byte[4096];
            int n;
            while ((n = in.read(buffer)) > 0)
            {
                synchronized (to)
                {
                    to.write(new String(buffer, 0, n, StandardCharsets.UTF_8));
                }
            }
        }
        catch (final IOException ex)
        {
            synchronized (to)
            {
                to.write("\n[reading failed: " + ex + "]");
            }
        }
    }
}
