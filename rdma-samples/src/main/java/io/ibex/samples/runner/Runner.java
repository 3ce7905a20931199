package io.ibex.samples.runner;

import io.ibex.samples.runner.hook.Hook;
import io.ibex.samples.runner.node.InfinibandNode;
import io.ibex.samples.runner.node.Node;
import io.ibex.transport.config.IdleKind;
import io.ibex.transport.stats.ChannelStats;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs a config as VILLASnode's super node does: starts the hooks and the nodes the enabled paths use (those that
 * receive first, then the infiniband sources, waiting until each is connected, then the other inputs), and starts
 * the paths' threads (one per path, or one for all when cores are scarce: {@link PathThreads}). The run ends when
 * every path whose input ended wrote everything and all paths were idle for the linger time (unless
 * {@code idle_stop = false}), after the duration, on {@link #requestStop}, or when a node fails.
 * Then it stops the paths, the nodes and the hooks, and prints a summary: what each node and path did and where
 * files went. A node's failure is thrown after the summary, with the node's message; so is a node's
 * {@link Node#shortfall() shortfall} (a generator that made no sample), after a warning in the summary.
 */
public final class Runner
{
    private static final Logger LOG = LoggerFactory.getLogger(Runner.class);
    private static final long MONITOR_MILLIS = 10;
    /** How long the JIT must have been idle before the inputs start, with C1 alone. */
    private static final long SETTLE_QUIET_MILLIS = 50;
    /** The longest the inputs wait for the JIT. */
    private static final long SETTLE_MAX_MILLIS = 500;

    private final RunConfig config;
    private final RunOptions options;
    private final PrintWriter out;
    private final PrintWriter terminal;
    private final AtomicReference<RuntimeException> failure = new AtomicReference<>();
    private volatile String stopRequest;

    /**
     * @param config   the config, its nodes built.
     * @param options  how to run it.
     * @param out      where the summary goes.
     * @param terminal where the status line is updated in place, or null to log it as a line each time.
     */
    public Runner(final RunConfig config, final RunOptions options, final PrintWriter out, final PrintWriter terminal)
    {
        this.config = config;
        this.options = options;
        this.out = out;
        this.terminal = terminal;
    }

    /**
     * Asks a run to end as soon as it can, from any thread (a signal handler's).
     *
     * @param reason why, for the summary.
     */
    public void requestStop(final String reason)
    {
        stopRequest = reason;
    }

    /**
     * Runs the config until it ends, then prints the summary.
     *
     * @throws RunException     if the config has no enabled path, or a node did not do at all what it was asked.
     * @throws RuntimeException the first failure of a node, a hook or a path (a {@link
     *                          io.ibex.samples.runner.node.NodeException} names the node), after stopping
     *                          everything.
     */
    public void run()
    {
        if (config.paths().isEmpty())
        {
            throw new RunException(config.location().source() + ": no enabled paths, so nothing to run: add one " +
                "such as paths = ( { in = \"siggen\", out = \"ib_node_source\" } )");
        }
        final Set<RunNode> inPaths = new HashSet<>();
        final List<PathAgent> agents = new ArrayList<>();
        for (final PathConfig path : config.paths())
        {
            inPaths.add(path.input());
            inPaths.addAll(path.outputs());
            agents.add(new PathAgent(path, path.placement().orElse(config.placement())));
        }
        final List<RunNode> used = new ArrayList<>();
        final List<Hook> hooks = new ArrayList<>();
        for (final RunNode node : config.nodes())
        {
            if (inPaths.contains(node))
            {
                used.add(node);
                hooks.addAll(node.hooks());
            }
            else
            {
                LOG.info("node '{}' is not used by any enabled path: not started", node.name());
            }
        }
        config.paths().forEach((path) -> hooks.addAll(path.hooks()));
        final List<Hook> startedHooks = new ArrayList<>();
        final List<Node> startedNodes = new ArrayList<>();
        final List<AgentRunner> runners = new ArrayList<>();
        String ending = null;
        String threading = null;
        long runNanos = 0;
        try
        {
            for (final Hook hook : hooks)
            {
                hook.start();
                startedHooks.add(hook);
            }
            final double freeCores = FreeCores.measure();
            final boolean shared = shared(agents, freeCores);
            final boolean c1 = options.jit().c1Only(agents.size(), freeCores);
            final String jitProblem = c1 ? JitMode.applyC1Only() : null;
            if (jitProblem != null)
            {
                LOG.warn("--jit {}: C2 stays on: {}", options.jit().optionName(), jitProblem);
            }
            threading = String.format(Locale.ROOT, "%s on %s, %s (--threads %s, --jit %s; %.1f of %d cores free)",
                agents.size() == 1 ? "1 path" : agents.size() + " paths", shared ? "one thread" : "a thread each",
                c1 && jitProblem == null ? "C1 only" : "C1 and C2", options.threads().optionName(),
                options.jit().optionName(), freeCores, Runtime.getRuntime().availableProcessors());
            LOG.info("{}", threading);
            startNodes(used, startedNodes, c1 && jitProblem == null);
            final long start = System.nanoTime();
            if (shared)
            {
                startThread(agents, runners);
            }
            else
            {
                agents.forEach((agent) -> startThread(List.of(agent), runners));
            }
            ending = monitor(agents, channelStats(used), start);
            runNanos = System.nanoTime() - start;
        }
        catch (final RuntimeException ex)
        {
            fail(ex);
        }
        finally
        {
            runners.forEach(AgentRunner::close);
            for (int i = startedNodes.size() - 1; i >= 0; i--)
            {
                stop(startedNodes.get(i));
            }
            startedHooks.forEach(this::stop);
        }
        if (!runners.isEmpty())
        {
            printSummary(agents, used, startedHooks, ending, threading, runNanos);
        }
        final RuntimeException failed = failure.get();
        if (failed != null)
        {
            throw failed;
        }
        final String shortfalls = shortfalls(used);
        if (shortfalls != null)
        {
            throw new RunException(shortfalls);
        }
    }

    /**
     * @return what nodes were asked for and did not do at all, after a warning in the summary for each; null if
     *         nothing is lacking.
     */
    private String shortfalls(final List<RunNode> used)
    {
        final StringJoiner lacking = new StringJoiner("; ");
        for (final RunNode node : used)
        {
            final String shortfall = node.node().shortfall();
            if (shortfall != null)
            {
                final String text = node.node().type() + " node '" + node.name() + "' " + shortfall;
                out.println("  warning: " + text);
                lacking.add(text);
            }
        }
        out.flush();
        return lacking.length() == 0 ? null : lacking.toString();
    }

    /**
     * Starts the nodes in three steps: first those that receive (infiniband targets, outputs), so that a source
     * finds its target listening; then the infiniband sources, waiting until each is connected; last the other
     * inputs (signal generators, files to replay), so that their clocks start with the paths and no step is
     * missed while connections are made. With C1 alone, the inputs start once the JIT compiled what the first two
     * steps asked for (at most {@link #SETTLE_MAX_MILLIS}), so that its work does not take the paths' core.
     */
    private void startNodes(final List<RunNode> used, final List<Node> started, final boolean settleJit)
    {
        final List<InfinibandNode> sources = new ArrayList<>();
        final List<Node> inputs = new ArrayList<>();
        final Set<Node> pathInputs = new HashSet<>();
        config.paths().forEach((path) -> pathInputs.add(path.input().node()));
        for (final RunNode runNode : used)
        {
            final Node node = runNode.node();
            if (node instanceof InfinibandNode infiniband && infiniband.isSource())
            {
                sources.add(infiniband);
            }
            else if (pathInputs.contains(node) && !(node instanceof InfinibandNode))
            {
                inputs.add(node);
            }
            else
            {
                start(node, started);
            }
        }
        for (final InfinibandNode source : sources)
        {
            start(source, started);
        }
        final long deadline = System.nanoTime() + options.connectTimeout().toNanos();
        for (final InfinibandNode source : sources)
        {
            source.awaitConnected(deadline, options.connectTimeout());
        }
        if (settleJit)
        {
            settleJit();
        }
        for (final Node input : inputs)
        {
            start(input, started);
        }
    }

    private static void settleJit()
    {
        try
        {
            CompilerThreads.awaitIdle(SETTLE_QUIET_MILLIS, SETTLE_MAX_MILLIS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private static void start(final Node node, final List<Node> started)
    {
        node.start();
        started.add(node);
    }

    /**
     * @return whether the paths run on one thread: as {@code --threads} says, except that {@code auto} gives each
     *         its own when a path has its own {@code affinity} or {@code priority}.
     * @throws RunException if {@code --threads shared} would put paths of different placements on one thread.
     */
    private boolean shared(final List<PathAgent> agents, final double freeCores)
    {
        final boolean placed = config.paths().stream().anyMatch((path) -> !path.placement().isNone());
        if (options.threads() == PathThreads.SHARED && placed &&
            agents.stream().map(PathAgent::placement).distinct().count() > 1)
        {
            throw new RunException(config.location().source() + ": --threads shared runs every path on one " +
                "thread, but the paths ask for different affinity or priority: use --threads per-path");
        }
        return options.threads().shared(agents.size(), freeCores) && !(options.threads() == PathThreads.AUTO && placed);
    }

    /**
     * Starts a thread that runs the paths' duty cycles in turn. It waits as the most eager of their inputs asks
     * (an infiniband node's {@code idle_strategy}, else the command line's), and parks between paced steps when no
     * input must be polled. The thread is named after the paths ("path 1", "[path 1,path 2]").
     */
    private void startThread(final List<PathAgent> paths, final List<AgentRunner> runners)
    {
        IdleKind idle = null;
        boolean polled = false;
        final Node[] inputs = new Node[paths.size()];
        for (int i = 0; i < inputs.length; i++)
        {
            inputs[i] = paths.get(i).config().input().node();
            final IdleKind kind = inputs[i] instanceof InfinibandNode infiniband ? infiniband.idle() : options.idle();
            polled |= inputs[i] instanceof InfinibandNode;
            idle = idle == null || kind.ordinal() < idle.ordinal() ? kind : idle;
        }
        final IdleStrategy strategy = new PacedIdleStrategy(idle.newStrategy(), idle == IdleKind.BUSY_SPIN,
            !polled && idle != IdleKind.BUSY_SPIN, () -> earliestDue(inputs), LockSupport::parkNanos);
        final Agent agent = paths.size() == 1 ? paths.get(0) : new CompositeAgent(paths);
        final AgentRunner runner = new AgentRunner(strategy, this::pathFailed, null, agent);
        runners.add(runner);
        AgentRunner.startOnThread(runner);
    }

    /** @return the nanoseconds until the earliest of the inputs' next steps is due. */
    private static long earliestDue(final Node[] inputs)
    {
        long earliest = Long.MAX_VALUE;
        for (final Node input : inputs)
        {
            earliest = Math.min(earliest, input.nanosUntilDue());
        }
        return earliest;
    }

    /** @return why the run ends, once it does. */
    private String monitor(final List<PathAgent> agents, final List<ChannelStats> channels, final long start)
    {
        final IdleStrategy wait = new SleepingMillisIdleStrategy(MONITOR_MILLIS);
        final StatusLine status = new StatusLine(agents, channels, start);
        final long statusNanos = options.statusInterval().toNanos();
        final long lingerNanos = options.linger().toNanos();
        long nextStatus = start + statusNanos;
        long progress = -1;
        long lastProgress = start;
        String ending = null;
        while (ending == null)
        {
            wait.idle();
            final long now = System.nanoTime();
            long moved = 0;
            boolean anyEnded = false;
            boolean endedDrained = true;
            for (final PathAgent agent : agents)
            {
                moved += agent.read() + agent.written();
                anyEnded |= agent.inputEnded();
                endedDrained &= !agent.inputEnded() || agent.drained();
            }
            if (moved != progress)
            {
                progress = moved;
                lastProgress = now;
            }
            if (failure.get() != null)
            {
                ending = "of a failure";
            }
            else if (stopRequest != null)
            {
                ending = stopRequest;
            }
            else if (options.duration() != null && now - start >= options.duration().toNanos())
            {
                ending = "its duration of " + millis(options.duration().toNanos()) + " passed";
            }
            else if (config.idleStop() && anyEnded && endedDrained && now - lastProgress >= lingerNanos)
            {
                ending = "its inputs ended and the paths were idle for " + millis(lingerNanos);
            }
            if (statusNanos > 0 && (now - nextStatus >= 0 || ending != null))
            {
                showStatus(status.next(now), ending != null);
                nextStatus = now + statusNanos;
            }
        }
        return ending;
    }

    private void showStatus(final String line, final boolean last)
    {
        if (terminal == null)
        {
            LOG.info("status: {}", line);
            return;
        }
        terminal.print("\r" + line + "\033[K" + (last ? System.lineSeparator() : ""));
        terminal.flush();
    }

    private void printSummary(final List<PathAgent> agents, final List<RunNode> used, final List<Hook> hooks,
        final String ending, final String threading, final long runNanos)
    {
        final RuntimeException failed = failure.get();
        out.printf(Locale.ROOT, "ibex node %s: ran %.3f s and stopped because %s%n", config.location().source(),
            runNanos / 1e9, failed != null ? failed.getMessage() : ending);
        out.printf("  %s%n", threading);
        final int width = used.stream().mapToInt((node) -> node.name().length()).max().orElse(0);
        for (final RunNode node : used)
        {
            out.printf(Locale.ROOT, "  %-" + width + "s  %-10s  %s%n", node.name(), node.node().type(),
                node.node().summary());
        }
        for (final PathAgent agent : agents)
        {
            final StringBuilder line = new StringBuilder("  ").append(agent.config().describe()).append(": read ")
                .append(agent.read());
            final List<RunNode> outputs = agent.config().outputs();
            for (int i = 0; i < outputs.size(); i++)
            {
                line.append(i == 0 ? ", wrote " : ", ").append(agent.writtenTo(i)).append(" to ")
                    .append(outputs.get(i).name());
            }
            if (agent.pending() > 0)
            {
                line.append("; ").append(agent.pending()).append(" read but not written by every output");
            }
            out.println(line);
        }
        for (final Hook hook : hooks)
        {
            if (hook.report() != null)
            {
                out.println(hook.report().stripTrailing());
            }
        }
        out.flush();
    }

    private static List<ChannelStats> channelStats(final List<RunNode> used)
    {
        final List<ChannelStats> stats = new ArrayList<>();
        for (final RunNode node : used)
        {
            if (node.node() instanceof InfinibandNode infiniband)
            {
                stats.add(infiniband.stats());
            }
        }
        return stats;
    }

    private void pathFailed(final Throwable error)
    {
        final Throwable cause = error instanceof AgentTerminationException && error.getCause() != null ?
            error.getCause() : error;
        fail(cause instanceof RuntimeException runtime ? runtime : new IllegalStateException(cause));
    }

    private void fail(final RuntimeException ex)
    {
        if (!failure.compareAndSet(null, ex))
        {
            LOG.warn("another failure after the first: {}", ex.getMessage());
        }
    }

    private void stop(final Node node)
    {
        try
        {
            node.stop();
        }
        catch (final RuntimeException ex)
        {
            fail(ex);
        }
    }

    private void stop(final Hook hook)
    {
        try
        {
            hook.stop();
        }
        catch (final RuntimeException ex)
        {
            fail(ex);
        }
    }

    private static String millis(final long nanos)
    {
        return TimeUnit.NANOSECONDS.toMillis(nanos) + " ms";
    }
}
