package io.ibex.samples.verbs;

import io.ibex.samples.IbexCommand;
import picocli.CommandLine;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * One run of an {@code ibex} command through {@link IbexCommand#commandLine()}, in this JVM on a thread of its
 * own, or as a separate JVM; with what it printed. Test support for the out-of-band commands.
 */
public final class IbexRun
{
    private static final Duration LIMIT = Duration.ofSeconds(60);
    /** A thread of its own for each blocking task: the common pool may have one thread only. */
    private static final Executor THREAD_EACH = (task) ->
    {
        final Thread thread = new Thread(task, "ibex-run");
        thread.setDaemon(true);
        thread.start();
    };
    private static final Pattern ITERS = Pattern.compile("(?m)^(\\d+) iters in [0-9.]+ seconds = [0-9.]+ usec/iter$");
    private static final Pattern BYTES = Pattern.compile("(?m)^(\\d+) bytes in [0-9.]+ seconds = [0-9.]+ Mbit/sec$");

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private final CompletableFuture<Integer> status;
    private final Process process;

    private IbexRun(final String[] args, final boolean separateJvm)
    {
        if (separateJvm)
        {
            final Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
            final List<String> command = new ArrayList<>(List.of(
                java.toString(), "-cp", System.getProperty("java.class.path"), IbexCommand.class.getName()));
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
            status = CompletableFuture.supplyAsync(() -> commandLine.execute(args), THREAD_EACH);
        }
    }

    /**
     * @param args the arguments after {@code ibex}.
     * @return the run, started on a thread of its own.
     */
    public static IbexRun start(final String... args)
    {
        return new IbexRun(args, false);
    }

    /**
     * @param args the arguments after {@code ibex}.
     * @return the run, started as a separate JVM with this JVM's class path.
     */
    public static IbexRun startJvm(final String... args)
    {
        return new IbexRun(args, true);
    }

    /**
     * @param args the arguments after {@code ibex}.
     * @return the finished run.
     */
    public static IbexRun run(final String... args)
    {
        final IbexRun run = start(args);
        run.status();
        return run;
    }

    /**
     * @param command the subcommand.
     * @param port    the TCP port of the out-of-band exchange.
     * @param more    the other arguments.
     * @return the arguments of an out-of-band command on the soft provider whose server listens on loopback.
     */
    public static String[] args(final String command, final int port, final String... more)
    {
        final List<String> args = new ArrayList<>(List.of(
            command, "--provider", "soft", "-p", Integer.toString(port), "--listen", "127.0.0.1"));
        args.addAll(List.of(more));
        return args.toArray(new String[0]);
    }

    /** @return a TCP port on the loopback address that was free a moment ago. */
    public static int freePort()
    {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException(ex);
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
        final long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!out().contains(text))
        {
            if (status.isDone())
            {
                fail("finished (status " + status.join() + ") without printing \"" + text + "\"\n" + this);
            }
            if (System.nanoTime() > deadline)
            {
                fail("did not print \"" + text + "\" within " + LIMIT + "\n" + this);
            }
            sleep();
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
            if (process != null)
            {
                process.destroyForcibly();
            }
            throw new AssertionError("did not finish within " + LIMIT + ": " + ex + "\n" + this, ex);
        }
    }

    /** Kills the separate JVM at once, as a peer that dies. */
    public void kill()
    {
        process.destroyForcibly();
    }

    /** @return what it printed on standard output so far. */
    public String out()
    {
        synchronized (out)
        {
            return out.toString();
        }
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
     * @return the address it printed on that line (ibv_ud_pingpong's colon before the GID made a comma).
     */
    public String address(final String label)
    {
        final Matcher matcher = Pattern.compile("(?m)^  " + label + " address: +(.*)$").matcher(out());
        assertTrue(matcher.find(), () -> "no " + label + " address line\n" + this);
        return matcher.group(1).replace(": GID", ", GID");
    }

    /** @return the number of iterations of the "N iters in" line. */
    public long iters()
    {
        return number(ITERS);
    }

    /** @return the number of bytes of the "N bytes in" line. */
    public long bytes()
    {
        return number(BYTES);
    }

    /**
     * Asserts that the run finished with status 0.
     *
     * @return this.
     */
    public IbexRun assertSucceeded()
    {
        final int exit = status();
        if (exit != 0)
        {
            fail("exit status " + exit + "\n" + this);
        }
        return this;
    }

    /**
     * Asserts that the run failed the ibex way: status 1 and one error line beginning as expected.
     *
     * @param command the subcommand, e.g. "rc-pingpong".
     * @param message what the error line must contain.
     * @return this.
     */
    public IbexRun assertFailed(final String command, final String message)
    {
        final int exit = status();
        if (exit != 1)
        {
            fail("exit status " + exit + ", expected 1\n" + this);
        }
        final String prefix = "ibex " + command + ": error: ";
        final String line = err().lines().filter((l) -> l.startsWith(prefix)).findFirst().orElse(null);
        assertTrue(line != null && line.contains(message),
            () -> "expected an error line \"" + prefix + "...\" containing \"" + message + "\"\n" + this);
        return this;
    }

    private long number(final Pattern pattern)
    {
        final Matcher matcher = pattern.matcher(out());
        assertTrue(matcher.find(), () -> "no line matching " + pattern + "\n" + this);
        return Long.parseLong(matcher.group(1));
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

    private static void sleep()
    {
        try
        {
            Thread.sleep(10);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError(ex);
        }
    }

    @Override
    public String toString()
    {
        return "stdout:\n" + out() + "\nstderr:\n" + err();
    }
}
