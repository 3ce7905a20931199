package io.ibex.samples.cm;

import io.ibex.samples.IbexRun;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs the rdma_cm programs for tests on the soft provider, whose connection manager serves loopback, and
 * peers of the tests' own making as JVMs of their own.
 */
final class CmPrograms
{
    /** The address every test uses. */
    static final String LOOPBACK = "127.0.0.1";

    private CmPrograms()
    {
    }

    /**
     * Starts {@code ibex ARGS --provider soft} on a thread of its own.
     *
     * @param args the command and its options.
     * @return the run.
     */
    static IbexRun start(final String... args)
    {
        return IbexRun.start(onSoft(args));
    }

    /**
     * Runs {@code ibex ARGS --provider soft} to its end on a thread of its own.
     *
     * @param args the command and its options.
     * @return the finished run.
     */
    static IbexRun run(final String... args)
    {
        return IbexRun.run(onSoft(args));
    }

    /**
     * Starts a JVM running a main class of the test class path (a misbehaving peer).
     *
     * @param mainClass the class.
     * @param args      its arguments.
     * @return the process; its output is read from {@link Process#getInputStream()}, errors go there too.
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
        final CompletableFuture<String> output = CompletableFuture.supplyAsync(() ->
        {
            try
            {
                return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            }
            catch (final IOException ex)
            {
                return "[reading failed: " + ex + "]";
            }
        });
        if (!process.waitFor(IbexRun.LIMIT.toSeconds(), TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            fail("the process did not end within " + IbexRun.LIMIT + ":\n" + output.get(5, TimeUnit.SECONDS));
        }
        return "exit " + process.exitValue() + "\n" + output.get(5, TimeUnit.SECONDS);
    }

    private static String[] onSoft(final String... args)
    {
        final String[] withProvider = Arrays.copyOf(args, args.length + 2);
        withProvider[args.length] = "--provider";
        withProvider[args.length + 1] = "soft";
        return withProvider;
    }
}
