package io.ibex.samples.runner;

import io.ibex.samples.runner.node.InfinibandNode;
import io.ibex.samples.runner.node.NodeContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * The warm-up before a run ({@code --warm-up}): the config's paths run with {@link NodeTypes#warmUp} nodes (signals
 * without a limit, files that discard, infiniband nodes on free ports) until the JIT has compiled what they make hot,
 * so that the run's clocks start on compiled code. It runs in two rounds: a node's first-time branches (a signal's
 * first step, a file's header, a channel's first message) are taken in the first round while the code is still
 * interpreted, and compiled code leaves them out; the second round takes them in compiled code, which the JIT
 * compiles again with them, instead of during the run.
 */
final class WarmUp
{
    private static final Logger LOG = LoggerFactory.getLogger(WarmUp.class);
    /** The JIT counts as done when its threads were idle for this long ({@link CompilerThreads#awaitIdle}). */
    static final long QUIET_MILLIS = 100;
    /** The longest a round runs, whether or not the JIT is done. */
    static final long MAX_ROUND_MILLIS = 5000;
    /** The least the second round runs: its nodes' first steps, and the recompilations they ask for. */
    static final long SECOND_ROUND_MILLIS = 100;

    private final Path configFile;
    private final NodeContext context;
    private final Set<Integer> linkedPorts;
    private final RunOptions options;
    private volatile boolean stopped;
    private volatile Runner current;

    /**
     * @param configFile the run's config.
     * @param context    the run's clocks; relative files go to a temporary directory instead.
     * @param config     the run's config as read, for its infiniband links.
     * @param options    the run's options: its connect timeout, idle strategy and threads; the warm-up runs with
     *                   both compilers, whatever {@code --jit} says, so that what C2 compiles before the run stays.
     */
    WarmUp(final Path configFile, final NodeContext context, final RunConfig config, final RunOptions options)
    {
        this.configFile = configFile;
        this.context = context;
        final List<InfinibandNode> infiniband = new ArrayList<>();
        config.nodes().forEach((node) ->
        {
            if (node.node() instanceof InfinibandNode link)
            {
                infiniband.add(link);
            }
        });
        this.linkedPorts = InfinibandNode.linkedPorts(infiniband);
        this.options = new RunOptions(Duration.ofMillis(MAX_ROUND_MILLIS), Duration.ZERO, Duration.ZERO,
            options.connectTimeout(), options.idle(), options.threads(), JitMode.TIERED);
    }

    /** Ends the warm-up as soon as it can, from any thread (a signal handler's). */
    void stop()
    {
        stopped = true;
        final Runner runner = current;
        if (runner != null)
        {
            runner.requestStop("the warm-up was stopped");
        }
    }

    /**
     * Runs both rounds, printing nothing; a failure is logged at debug level and left for the run to report.
     *
     * @param minimum the least the first round runs.
     */
    void run(final Duration minimum)
    {
        Path scratch = null;
        try
        {
            scratch = Files.createTempDirectory("ibex-warm-up");
            final NodeContext scratchContext = new NodeContext(scratch, context.clock(), context.pacingClock());
            final long start = System.nanoTime();
            final boolean first = runRound(scratchContext, minimum.toMillis());
            final boolean done = runRound(scratchContext, SECOND_ROUND_MILLIS) && first;
            LOG.info("warm-up: {} ms, {}", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start),
                done ? "until the JIT was done" : "stopped before the JIT was done");
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

    /** @return whether the round ended because the JIT was done. */
    private boolean runRound(final NodeContext scratchContext, final long minimumMillis)
        throws IOException, InterruptedException
    {
        final AtomicBoolean done = new AtomicBoolean();
        try (RunConfig config = RunConfig.read(configFile, scratchContext, NodeTypes.warmUp(linkedPorts)))
        {
            final Runner runner = new Runner(config, options, new PrintWriter(Writer.nullWriter()), null);
            current = runner;
            if (stopped)
            {
                return false;
            }
            final Thread watcher = new Thread(() ->
            {
                try
                {
                    Thread.sleep(minimumMillis);
                    done.set(CompilerThreads.awaitIdle(QUIET_MILLIS, MAX_ROUND_MILLIS));
                    runner.requestStop("the JIT is done");
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
            }, "ibex-warm-up");
            watcher.setDaemon(true);
            watcher.start();
            try
            {
                runner.run();
            }
            finally
            {
                watcher.interrupt();
                watcher.join();
            }
            return done.get();
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
