package io.ibex.benchmarks;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The echo of a two-JVM ping-pong, a second JVM of this host on the same class path: launched with its soft device
 * taking or declining the shared-memory link ({@code ibex.soft.sharedMemory=on|off}), talked to by lines on its
 * standard input and output, and ended by closing its input. The echo side's loop is {@link #echoUntilInputEnds}.
 */
final class EchoProcess implements AutoCloseable
{
    /** What the echo process prints once it echoes. */
    static final String READY = "READY";
    /** Polls between looks at whether the echo process still lives (a look is a system call). */
    private static final int POLLS_PER_LIVENESS_CHECK = 1 << 20;

    private final Process process;
    private final BufferedReader fromEcho;
    private final Writer toEcho;
    private int polls;

    /**
     * Starts {@code main} in a new JVM.
     *
     * @param sharedMemory whether its soft device takes the shared-memory link (else it declines: TCP).
     * @param yield        whether it yields the core on an empty poll (else it spins); passed as its last argument.
     */
    EchoProcess(final Class<?> main, final boolean sharedMemory, final boolean yield, final String... args)
        throws IOException
    {
        final List<String> command = new ArrayList<>(List.of(
            Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
            System.getProperty("java.class.path"), "-Dibex.soft.sharedMemory=" + (sharedMemory ? "on" : "off"),
            main.getName()));
        command.addAll(List.of(args));
        command.add(Boolean.toString(yield));
        process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        fromEcho = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
        toEcho = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.US_ASCII);
    }

    /**
     * @return the next line the echo process printed.
     * @throws IllegalStateException if it ended first.
     */
    String readLine() throws IOException
    {
        final String line = fromEcho.readLine();
        if (line == null)
        {
            throw new IllegalStateException("the echo process ended (exit code " + exitCode() + ")");
        }
        return line;
    }

    void writeLine(final String line) throws IOException
    {
        toEcho.write(line + "\n");
        toEcho.flush();
    }

    /**
     * Waits until the echo process said {@link #READY}.
     */
    void awaitReady() throws IOException
    {
        final String line = readLine();
        if (!READY.equals(line))
        {
            throw new IllegalStateException("the echo process said '" + line + "', not " + READY);
        }
    }

    /**
     * Called on every empty poll: every {@value #POLLS_PER_LIVENESS_CHECK}th looks whether the process lives.
     *
     * @throws IllegalStateException if it has ended.
     */
    void checkAlive()
    {
        if (++polls == POLLS_PER_LIVENESS_CHECK)
        {
            polls = 0;
            if (!process.isAlive())
            {
                throw new IllegalStateException("the echo process ended with exit code " + process.exitValue());
            }
        }
    }

    /**
     * Closes the echo process's input, which ends it; kills it if it has not ended within 10 s.
     */
    @Override
    public void close()
    {
        try
        {
            toEcho.close();
            if (!process.waitFor(10, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
            }
        }
        catch (final IOException | InterruptedException ex)
        {
            process.destroyForcibly();
        }
    }

    private String exitCode()
    {
        try
        {
            return process.waitFor(1, TimeUnit.SECONDS) ? Integer.toString(process.exitValue()) : "none yet";
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    /**
     * The echo process's loop: prints {@link #READY}, then runs {@code echo} until its input ends.
     *
     * @param in    the process's standard input, past what it read before.
     * @param yield the process's last argument: whether to yield the core on an empty poll (else spin).
     * @throws Exception what the echo's duty cycle throws: the process ends with it.
     */
    static void echoUntilInputEnds(final BufferedReader in, final Agent echo, final String yield) throws Exception
    {
        final IdleStrategy idle = idleStrategy(Boolean.parseBoolean(yield));
        final Thread watcher = new Thread(() -> awaitEnd(in), echo.roleName() + "-input");
        watcher.setDaemon(true);
        watcher.start();
        System.out.println(READY);
        System.out.flush();
        while (watcher.isAlive())
        {
            idle.idle(echo.doWork());
        }
    }

    /**
     * @return a yielding or a busy-spinning idle strategy.
     */
    static IdleStrategy idleStrategy(final boolean yield)
    {
        return yield ? new YieldingIdleStrategy() : new BusySpinIdleStrategy();
    }

    private static void awaitEnd(final BufferedReader in)
    {
        try
        {
            while (in.read() >= 0)
            {
                // nothing else comes: the other side closes the input to end the echo
            }
        }
        catch (final IOException ignore)
        {
            // an input that fails has ended too
        }
    }
}
