package io.ibex.samples.runner.node;

import io.ibex.transport.channel.SampleBatch;
import io.ibex.transport.channel.SampleChannel;
import io.ibex.transport.config.ChannelConfig;
import io.ibex.transport.config.ConfigException;
import io.ibex.transport.config.IdleKind;
import io.ibex.transport.config.internal.ChannelConfigs;
import io.ibex.transport.config.internal.ConfigGroup;
import io.ibex.transport.config.internal.ConfigValue;
import io.ibex.transport.sample.Sample;
import io.ibex.transport.sample.SignalList;
import io.ibex.transport.stats.ChannelStats;
import io.ibex.transport.stats.Counter;
import io.ibex.transport.stats.Metric;
import io.ibex.transport.stats.MetricSnapshot;
import io.ibex.transport.stats.StatsSnapshot;
import org.agrona.CloseHelper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A node of type {@code infiniband}: one {@link SampleChannel}, with every key of VILLASnode's node-type
 * (docs/config.md). A source (with {@code out.address}) connects to its target, a target listens. As a path's
 * input it copies received samples into the path's block and gives them back to the channel at once; as a path's
 * output it claims samples of the send pool, copies the block's into them and writes them, taking only what the
 * channel takes (back-pressure: nothing is dropped, the path offers the rest again).
 */
public final class InfinibandNode implements Node
{
    /** Builds infiniband nodes: binds and checks their settings as {@link ChannelConfig} does. */
    public static final NodeFactory FACTORY = InfinibandNode::create;
    private final ChannelConfig config;
    private final SampleChannel channel;
    private final SampleBatch received;
    private final SampleBatch claimed;
    /** The warm-up's own peer, null in a run. */
    private final SampleChannel warmUpPeer;
    private final SampleBatch warmUpBatch;
    private int nextReceived;
    private long warmUpSequence;

    private InfinibandNode(final ChannelConfig config, final ChannelConfig warmUpPeer)
    {
        this.config = config;
        this.channel = SampleChannel.create().parse(config).check();
        this.received = new SampleBatch(config.in().vectorize());
        this.claimed = new SampleBatch(config.out().vectorize());
        this.warmUpPeer = warmUpPeer == null ? null : SampleChannel.create().parse(warmUpPeer).check();
        this.warmUpBatch = warmUpPeer == null ? null : new SampleBatch(Math.max(config.in().vectorize(),
            config.out().vectorize()));
    }

    /**
     * Builds infiniband nodes for the warm-up, on free ports of their hosts: a source and a target of the run that
     * are each other's peers (their ports in {@code linkedPorts}) are linked to each other as in the run; any other
     * node talks to a peer channel of its own (written to, it drains its peer; read, it has its peer send a sample
     * first). Both run the code of a real node, so that the JIT's profile of the warm-up holds for the run.
     *
     * @param linkedPorts the ports of the run's targets that a source of the same run connects to
     *                    ({@link #linkedPorts}).
     * @return a factory for one reading of the config: each reading links on fresh ports.
     */
    public static NodeFactory warmUpFactory(final Set<Integer> linkedPorts)
    {
        final Map<Integer, Integer> ports = new HashMap<>();
        return (name, settings, context) -> create(name, settings, (config) ->
        {
            final InetSocketAddress peer = config.isSource() ? config.out().address() : config.in().address();
            return linkedPorts.contains(peer.getPort()) ?
                linkedNode(config, ports.computeIfAbsent(peer.getPort(), (port) -> freePort(peer.getAddress()))) :
                warmUpNode(config);
        });
    }

    /** @return the node on the warm-up's port of its link: a source connects to it, a target listens on it. */
    private static InfinibandNode linkedNode(final ChannelConfig config, final int port)
    {
        final InetAddress host = config.in().address().getAddress();
        final ChannelConfig moved = config.isSource() ?
            config.toBuilder().in(in -> in.address(new InetSocketAddress(host, freePort(host))))
                .out(out -> out.address(new InetSocketAddress(config.out().address().getAddress(), port))).build() :
            config.toBuilder().in(in -> in.address(new InetSocketAddress(host, port))).build();
        return new InfinibandNode(moved.check(), null);
    }

    /**
     * @param nodes a run's infiniband nodes.
     * @return the ports of its targets that a source among them connects to: the same address, or the port of a
     *         target listening on every address.
     */
    public static Set<Integer> linkedPorts(final List<InfinibandNode> nodes)
    {
        final Set<Integer> linked = new HashSet<>();
        for (final InfinibandNode target : nodes)
        {
            final InetSocketAddress listening = target.config.in().address();
            for (final InfinibandNode source : nodes)
            {
                final InetSocketAddress peer = source.config.isSource() ? source.config.out().address() : null;
                if (!target.config.isSource() && peer != null && peer.getPort() == listening.getPort() &&
                    (listening.getAddress().isAnyLocalAddress() || listening.equals(peer)))
                {
                    linked.add(listening.getPort());
                }
            }
        }
        return linked;
    }

    private static ConfiguredNode create(final String name, final ConfigGroup settings, final NodeContext context)
    {
        return create(name, settings, (config) -> new InfinibandNode(config, null));
    }

    private static ConfiguredNode create(final String name, final ConfigGroup settings,
        final Function<ChannelConfig, InfinibandNode> build)
    {
        final ChannelConfig config = ChannelConfigs.fromGroup(name, settings).check();
        final ConfigValue nodeHooks = ChannelConfigs.hooks(config);
        ConfigValue inHooks = ChannelConfigs.inHooks(config);
        ConfigValue outHooks = ChannelConfigs.outHooks(config);
        // VILLAS copies node-level hooks into each direction without its own; here a node's hooks form one list.
        if (nodeHooks != null && inHooks == null)
        {
            inHooks = nodeHooks;
        }
        else if (nodeHooks != null && outHooks == null)
        {
            outHooks = nodeHooks;
        }
        else if (nodeHooks != null)
        {
            throw new ConfigException(nodeHooks.location(), "hooks: node '" + name + "' has in.hooks and " +
                "out.hooks already: give its hooks in those");
        }
        return new ConfiguredNode(build.apply(config), inHooks, outHooks);
    }

    /** @return the node as the warm-up runs it: a source to a target of its own, or a target of a source of its own. */
    private static InfinibandNode warmUpNode(final ChannelConfig config)
    {
        final InetAddress host = config.in().address().getAddress();
        final InetSocketAddress targetAddress = new InetSocketAddress(host, freePort(host));
        final InetSocketAddress sourceAddress = new InetSocketAddress(host, freePort(host));
        final ChannelConfig target = config.toBuilder().in(in -> in.address(targetAddress))
            .out(out -> out.address((InetSocketAddress)null)).build().check();
        final ChannelConfig source = config.toBuilder().in(in -> in.address(sourceAddress))
            .out(out -> out.address(targetAddress)).build()
            .check();
        return config.isSource() ? new InfinibandNode(source, rename(target, "-warm-up-peer")) :
            new InfinibandNode(target, rename(source, "-warm-up-peer"));
    }

    private static ChannelConfig rename(final ChannelConfig config, final String suffix)
    {
        return config.toBuilder().name(config.name() + suffix).build().check();
    }

    private static int freePort(final InetAddress host)
    {
        try (ServerSocket socket = new ServerSocket(0, 1, host))
        {
            return socket.getLocalPort();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("no free port on " + host + " for the warm-up", ex);
        }
    }

    @Override
    public String name()
    {
        return config.name();
    }

    @Override
    public String type()
    {
        return ChannelConfig.NODE_TYPE;
    }

    @Override
    public SignalList signals()
    {
        return config.signals();
    }

    @Override
    public boolean readable()
    {
        return true;
    }

    @Override
    public boolean writable()
    {
        return true;
    }

    /** @return whether the node connects to a peer ({@code out.address}) rather than only listening. */
    public boolean isSource()
    {
        return config.isSource();
    }

    /** @return how the node waits between empty polls ({@code idle_strategy}): a path reading it waits so. */
    public IdleKind idle()
    {
        return config.idle();
    }

    /** @return the channel's statistics (counters, owd and the other metrics), live. */
    public ChannelStats stats()
    {
        return channel.stats();
    }

    /**
     * Opens the channel: binds in.address, then connects (a source) or listens (a target).
     *
     * @throws NodeException naming the node and the address when the channel cannot start (e.g. the address is
     *                       in use, or on no RDMA device).
     */
    @Override
    public void start()
    {
        try
        {
            if (warmUpPeer != null && isSource())
            {
                warmUpPeer.start();
            }
            channel.start();
            if (warmUpPeer != null && !isSource())
            {
                warmUpPeer.start();
            }
        }
        catch (final RuntimeException ex)
        {
            throw new NodeException(name(), "cannot start on in.address " + text(config.in().address()) + " (" +
                config.location("in.address") + "): " + withoutName(ex.getMessage()), ex);
        }
    }

    /**
     * Waits until the channel is connected to its peer.
     *
     * @param deadlineNanos until when to wait, on {@link System#nanoTime()}.
     * @param timeout       the time the caller allowed, for the message.
     * @throws NodeException naming the node and the peer's address when no connection came in time or the
     *                       channel failed.
     */
    public void awaitConnected(final long deadlineNanos, final Duration timeout)
    {
        final boolean connected;
        try
        {
            connected = channel.awaitConnected(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new NodeException(name(), "interrupted while connecting to " + peer(), ex);
        }
        catch (final RuntimeException ex)
        {
            throw new NodeException(name(), "cannot connect to " + peer() + ": " + withoutName(ex.getMessage()), ex);
        }
        if (!connected)
        {
            throw new NodeException(name(), "no connection to " + peer() + " within " + timeout.toMillis() + " ms" +
                (channel.isListening() ? "; it fell back to listening on " + text(config.in().address()) +
                " (out.use_fallback)" : ""), null);
        }
    }

    @Override
    public int read(final SampleBlock block)
    {
        try
        {
            if (warmUpPeer != null)
            {
                sendFromWarmUpPeer();
            }
            if (nextReceived == received.size())
            {
                nextReceived = 0;
                if (channel.read(received) == 0)
                {
                    block.size(0);
                    return 0;
                }
            }
            final int count = Math.min(block.slots(), received.size() - nextReceived);
            for (int i = 0; i < count; i++)
            {
                block.get(i).copyFrom(received.get(nextReceived + i));
            }
            nextReceived += count;
            if (nextReceived == received.size())
            {
                channel.release(received); // its receives are posted again the sooner
                nextReceived = 0;
            }
            block.size(count);
            return count;
        }
        catch (final RuntimeException ex)
        {
            throw failed(ex);
        }
    }

    @Override
    public int write(final SampleBlock block, final int from, final int count)
    {
        try
        {
            final int claimedCount = channel.claim(claimed, Math.min(count, claimed.capacity()));
            for (int i = 0; i < claimedCount; i++)
            {
                claimed.get(i).copyFrom(block.get(from + i));
            }
            final int taken = claimedCount == 0 ? 0 : channel.write(claimed);
            channel.release(claimed); // what it did not take the path offers again, and it is copied again
            if (warmUpPeer != null)
            {
                drainWarmUpPeer();
            }
            return taken;
        }
        catch (final RuntimeException ex)
        {
            throw failed(ex);
        }
    }

    private void sendFromWarmUpPeer()
    {
        if (warmUpPeer.claim(warmUpBatch, 1) == 1)
        {
            final Sample sample = warmUpBatch.get(0);
            sample.flags(Sample.HAS_SEQUENCE | Sample.HAS_DATA).sequence(warmUpSequence++)
                .length(config.signals().size());
            for (int i = 0; i < sample.length(); i++)
            {
                sample.floatValue(i, i);
            }
            warmUpPeer.write(warmUpBatch);
        }
        warmUpPeer.release(warmUpBatch);
    }

    private void drainWarmUpPeer()
    {
        while (warmUpPeer.read(warmUpBatch) > 0)
        {
            warmUpPeer.release(warmUpBatch);
        }
    }

    @Override
    public void stop()
    {
        channel.release(received);
        nextReceived = 0;
        channel.stop();
        if (warmUpPeer != null)
        {
            warmUpPeer.stop();
        }
    }

    @Override
    public String summary()
    {
        final StatsSnapshot stats = channel.stats().snapshot();
        final StringBuilder text = new StringBuilder()
            .append(config.isSource() ? "source to " + text(config.out().address()) : "target on " +
                text(config.in().address()))
            .append(" over ").append(config.mode())
            .append(": sent ").append(stats.counter(Counter.SENT))
            .append(", dropped ").append(stats.counter(Counter.DROPPED))
            .append(", received ").append(stats.counter(Counter.RECEIVED))
            .append(", lost ").append(stats.metric(Metric.SKIPPED).sum())
            .append(", reordered ").append(stats.metric(Metric.REORDERED).count())
            .append(", invalid ").append(stats.counter(Counter.INVALID));
        final MetricSnapshot owd = stats.metric(Metric.OWD);
        if (owd.count() > 0)
        {
            text.append(String.format("; owd µs p50 %.1f, p90 %.1f, p99 %.1f, p99.9 %.1f, max %.1f",
                owd.p50() / 1e3, owd.p90() / 1e3, owd.p99() / 1e3, owd.p999() / 1e3, owd.max() / 1e3));
        }
        return text.toString();
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(channel, warmUpPeer);
    }

    private String peer()
    {
        return text(config.out().address());
    }

    /** A failure of the channel (it failed, or its peer's data was refused), as one naming this node. */
    private NodeException failed(final RuntimeException ex)
    {
        return new NodeException(name(), withoutName(ex.getMessage()), ex);
    }

    /** Channel messages start with the node's name, which NodeException puts in front already. */
    private String withoutName(final String message)
    {
        final String prefix = name() + ": ";
        return message != null && message.startsWith(prefix) ? message.substring(prefix.length()) : message;
    }

    private static String text(final InetSocketAddress address)
    {
        return address.getHostString() + ":" + address.getPort();
    }
}
