package io.ibex.samples.runner;

import io.ibex.samples.runner.node.NodeContext;
import io.ibex.transport.config.IdleKind;
import io.ibex.transport.sample.SampleClock;
import org.agrona.concurrent.ShutdownSignalBarrier;
import org.agrona.concurrent.SystemNanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code ibex node CONFIG}: runs a VILLAS config (libconfig or JSON) as {@code villas node CONFIG} does: its nodes,
 * and a thread per path moving samples from one node to others, with a live status line, until its inputs ended
 * (or {@code --duration}, or SIGINT/SIGTERM); then a summary. docs/runner.md describes the node types, paths and
 * hooks.
 */
@Command(
    name = "node",
    mixinStandardHelpOptions = true,
    description = "Run a VILLAS config: its nodes (signal, file, infiniband) and paths, until the inputs end, " +
        "--duration passes or SIGINT/SIGTERM arrives; then print a summary.")
public final class NodeCommand implements Callable<Integer>
{
    private static final Logger LOG = LoggerFactory.getLogger(NodeCommand.class);
    private static final long COMPILER_QUIET_MILLIS = 100;
    private static final long COMPILER_WAIT_MILLIS = 3000;
    private static final long COMPILER_POLL_MILLIS = 10;
    private static final Duration TERMINAL_STATUS_INTERVAL = Duration.ofSeconds(1);
    private static final Duration LOG_STATUS_INTERVAL = Duration.ofSeconds(5);

    @Parameters(index = "0", paramLabel = "CONFIG", description = "A VILLAS config: libconfig (.conf) or JSON (.json).")
    private Path configFile;

    @Option(names = "--duration", paramLabel = "TIME", converter = DurationConverter.class,
        description = "Stop after this long (10s, 500ms, 2m; a number alone is seconds); default: when the " +
            "inputs ended and the paths are idle.")
    private Duration duration;

    @Option(names = "--status-interval", paramLabel = "TIME", converter = DurationConverter.class,
        description = "How often the status line is shown, 0 for never (default: the config's stats rate, else " +
            "1s on a terminal, where it is updated in place, and 5s as a log line otherwise).")
    private Duration statusInterval;

    @Option(names = "--linger", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "1s",
        description = "How long the paths must be idle after the inputs ended before the run ends " +
            "(default: ${DEFAULT-VALUE}).")
    private Duration linger;

    @Option(names = "--connect-timeout", paramLabel = "TIME", converter = DurationConverter.class,
        defaultValue = "10s", description = "How long the infiniband sources may take to connect before the " +
            "paths start (default: ${DEFAULT-VALUE}).")
    private Duration connectTimeout;

    @Option(names = "--idle-strategy", paramLabel = "KIND", defaultValue = "yielding",
        description = "How the path threads wait for work: busy-spin, yielding, backoff or sleeping " +
            "(default: ${DEFAULT-VALUE}).")
    private String idleStrategy;

    @Option(names = "--warm-up", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "500ms",
        description = "Before the run, run its paths this long with file outputs that discard and infiniband " +
            "nodes that talk to peers of their own, so that the JIT has compiled the paths' code when the clocks " +
            "start; 0 for none (default: ${DEFAULT-VALUE}).")
    private Duration warmUp;

    @Option(names = "--jit", paramLabel = "MODE", defaultValue = "auto",
        description = "Which compilers run the paths' code: c1 (quick; C2 compiles for seconds on the cores the " +
            "paths need), tiered (C1 and C2, the JVM's default) or auto: c1 when the machine has fewer free cores " +
            "than paths plus one (default: ${DEFAULT-VALUE}).")
    private String jit;

    @Option(names = "--threads", paramLabel = "HOW", defaultValue = "auto",
        description = "How the paths are spread over threads: per-path, shared (one for all) or auto: a thread per " +
            "path when the machine has a free core per path and one more, else shared (default: ${DEFAULT-VALUE}).")
    private String threads;

    @Spec
    private CommandSpec spec;

    /**
     * Runs the config.
     *
     * @return 0 when it ran and stopped without a failure; failures are thrown and reported by the ibex command.
     */
    @Override
    public Integer call()
    {
        final IdleKind idle = IdleKind.fromConfigName(idleStrategy);
        final PathThreads pathThreads = PathThreads.fromOptionName(threads);
        final JitMode jitMode = JitMode.fromOptionName(jit);
        final boolean terminal = System.console() != null;
        final NodeContext context = new NodeContext(Path.of("").toAbsolutePath(), new SampleClock(),
            SystemNanoClock.INSTANCE);
        try (RunConfig config = RunConfig.read(configFile, context, NodeTypes.standard()))
        {
            warmUp(context, idle, pathThreads);
            final Duration status = statusInterval != null ? statusInterval : config.statusInterval() != null ?
                config.statusInterval() : terminal ? TERMINAL_STATUS_INTERVAL : LOG_STATUS_INTERVAL;
            final RunOptions options = new RunOptions(duration, status, linger, connectTimeout, idle, pathThreads,
                jitMode);
            final Runner runner = new Runner(config, options, spec.commandLine().getOut(),
                terminal ? spec.commandLine().getErr() : null);
            final ShutdownSignalBarrier signals = new ShutdownSignalBarrier();
            final Thread watcher = new Thread(() ->
            {
                signals.await();
                runner.requestStop("SIGINT or SIGTERM arrived");
            }, "ibex-signals");
            watcher.setDaemon(true);
            watcher.start();
            try
            {
                runner.run();
            }
            finally
            {
                signals.signal(); // lets the watcher go; a stop request now changes nothing
            }
        }
        return 0;
    }

    /**
     * Runs the config for {@code --warm-up} with {@link NodeTypes#warmUp()} (relative files in a temporary
     * directory, deleted after), printing nothing; a failure there is left for the real run to report. The warm-up
     * runs with both compilers, whatever {@code --jit} says: what C2 compiles before the run stays, and
     * {@code --jit} keeps C2 from compiling during it.
     */
    private void warmUp(final NodeContext context, final IdleKind idle, final PathThreads pathThreads)
    {
        if (warmUp.isZero() || warmUp.isNegative())
        {
            return;
        }
        Path scratch = null;
        try
        {
            scratch = Files.createTempDirectory("ibex-warm-up");
            final NodeContext scratchContext = new NodeContext(scratch, context.clock(), context.pacingClock());
            try (RunConfig config = RunConfig.read(configFile, scratchContext, NodeTypes.warmUp()))
            {
                new Runner(config, new RunOptions(warmUp, Duration.ZERO, Duration.ZERO, connectTimeout, idle,
                    pathThreads, JitMode.TIERED), new PrintWriter(Writer.nullWriter()), null).run();
            }
            awaitQuietCompiler();
        }
        catch (final IOException | RuntimeException ex)
        {
            LOG.debug("warm-up failed; the run goes on", ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        finally
        {
            deleteTree(scratch);
        }
    }

    /**
     * Waits until the JIT compiled nothing for {@link #COMPILER_QUIET_MILLIS} (it goes on compiling what the warm-up
     * made hot, on the cores the run needs), at most {@link #COMPILER_WAIT_MILLIS}.
     */
    private static void awaitQuietCompiler() throws InterruptedException
    {
        final CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
        if (compiler == null || !compiler.isCompilationTimeMonitoringSupported())
        {
            return;
        }
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(COMPILER_WAIT_MILLIS);
        long last = compiler.getTotalCompilationTime();
        long quietSince = System.nanoTime();
        while (System.nanoTime() - deadline < 0 &&
            System.nanoTime() - quietSince < TimeUnit.MILLISECONDS.toNanos(COMPILER_QUIET_MILLIS))
        {
            Thread.sleep(COMPILER_POLL_MILLIS);
            final long now = compiler.getTotalCompilationTime();
            if (now != last)
            {
                last = now;
                quietSince = System.nanoTime();
            }
        }
    }

    private static void deleteTree(final Path root)
    {
        if (root == null)
        {
            return;
        }
        try (Stream<Path> paths = Files.walk(root))
        {
            paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
        }
        catch (final IOException | UncheckedIOException ex)
        {
            LOG.warn("cannot delete the warm-up's directory {}: {}", root, ex.toString());
        }
    }
}
