package io.ibex.samples.runner;

import io.ibex.samples.runner.hook.Hook;
import io.ibex.samples.runner.node.InfinibandNode;
import io.ibex.samples.runner.node.Node;
import io.ibex.transport.config.IdleKind;
import io.ibex.transport.stats.ChannelStats;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.AgentTerminationException;
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
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs a config as VILLASnode's super node does: starts the hooks and the nodes the enabled paths use (those that
 * receive first, then the infiniband sources, waiting until each is connected, then the other inputs), and starts
 * a thread per path. The run ends when every path whose input ended wrote everything and all paths were idle for the linger
 * time (unless {@code idle_stop = false}), after the duration, on {@link #requestStop}, or when a node fails.
 * Then it stops the paths, the nodes and the hooks, and prints a summary: what each node and path did and where
 * files went. A node's failure is thrown after the summary, with the node's message; so is a node's
 * {@link Node#shortfall() shortfall} (a generator that made no sample), after a warning in the summary.
 */
public final class Runner
{
    private static final Logger LOG = LoggerFactory.getLogger(Runner.class);
    private static final long MONITOR_MILLIS = 10;

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
            agents.add(new PathAgent(path));
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
        long runNanos = 0;
        try
        {
            for (final Hook hook : hooks)
            {
                hook.start();
                startedHooks.add(hook);
            }
            startNodes(used, startedNodes);
            final long start = System.nanoTime();
            for (final PathAgent agent : agents)
            {
                final IdleStrategy idle = idle(agent.config()).newStrategy();
                final AgentRunner runner = new AgentRunner(
                    new PacedIdleStrategy(idle, agent.config().input().node()::nanosUntilDue), this::pathFailed, null,
                    agent);
                runners.add(runner);
                AgentRunner.startOnThread(runner, (task) -> new Thread(task, "ibex-" + agent.roleName()
                    .replace(' ', '-')));
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
            printSummary(agents, used, startedHooks, ending, runNanos);
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
     * missed while connections are made.
     */
    private void startNodes(final List<RunNode> used, final List<Node> started)
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
        for (final Node input : inputs)
        {
            start(input, started);
        }
    }

    private static void start(final Node node, final List<Node> started)
    {
        node.start();
        started.add(node);
    }

    /**
     * @return how a path waits when its input has nothing: as the infiniband node it reads says in its
     *         {@code idle_strategy} (its empty polls are what the path repeats), else as the command line says.
     */
    private IdleKind idle(final PathConfig path)
    {
        return path.input().node() instanceof InfinibandNode infiniband ? infiniband.idle() : options.idle();
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
        final String ending, final long runNanos)
    {
        final RuntimeException failed = failure.get();
        out.printf(Locale.ROOT, "ibex node %s: ran %.3f s and stopped because %s%n", config.location().source(),
            runNanos / 1e9, failed != null ? failed.getMessage() : ending);
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
