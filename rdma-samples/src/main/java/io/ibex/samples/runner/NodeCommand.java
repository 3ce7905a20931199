package io.ibex.samples.runner;

import io.ibex.samples.runner.node.NodeContext;
import io.ibex.transport.config.IdleKind;
import io.ibex.transport.sample.SampleClock;
import org.agrona.concurrent.ShutdownSignalBarrier;
import org.agrona.concurrent.SystemNanoClock;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;

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
        description = "Before the run, run its paths at least this long (in two rounds, each until the JIT is " +
            "done, at most 5 s) with file outputs that discard and infiniband nodes on free ports, so that the " +
            "paths' code is compiled when the clocks start; 0 for none (default: ${DEFAULT-VALUE}).")
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
            final Duration status = statusInterval != null ? statusInterval : config.statusInterval() != null ?
                config.statusInterval() : terminal ? TERMINAL_STATUS_INTERVAL : LOG_STATUS_INTERVAL;
            final RunOptions options = new RunOptions(duration, status, linger, connectTimeout, idle, pathThreads,
                jitMode);
            final WarmUp warming = warmUp.compareTo(Duration.ZERO) > 0 ?
                new WarmUp(configFile, context, config, options) : null;
            final Runner runner = new Runner(config, options, spec.commandLine().getOut(),
                terminal ? spec.commandLine().getErr() : null);
            final ShutdownSignalBarrier signals = new ShutdownSignalBarrier();
            final Thread watcher = new Thread(() ->
            {
                signals.await();
                if (warming != null)
                {
                    warming.stop();
                }
                runner.requestStop("SIGINT or SIGTERM arrived");
            }, "ibex-signals");
            watcher.setDaemon(true);
            watcher.start();
            try
            {
                if (warming != null)
                {
                    warming.run(warmUp);
                }
                runner.run();
            }
            finally
            {
                signals.signal(); // lets the watcher go; a stop request now changes nothing
            }
        }
        return 0;
    }
}
