package io.ibex.transport.channel;

import io.ibex.rdma.Provider;
import io.ibex.rdma.Providers;
import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.cm.EventChannel;
import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.CompletionChannel;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.transport.config.ChannelConfig;
import io.ibex.transport.config.PollMode;
import io.ibex.transport.config.TransportMode;
import io.ibex.transport.sample.Sample;
import io.ibex.transport.stats.ChannelStats;
import org.agrona.concurrent.EpochNanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Everything a started {@link SampleChannel} holds: the event channel and the first bound id, the protection
 * domain, completion queues (and the completion channel with poll_mode event), the send and receive pools and
 * paths, and the connector with its thread. Allocated on the device of in.address by the constructor, which frees
 * what it allocated if a step fails; {@link #close()} stops the connector's thread, then frees every resource in
 * reverse order. Made and closed by the thread that starts and stops the channel; the paths it hands out are used
 * by the writer and reader threads.
 */
final class ChannelResources implements AutoCloseable
{
    /** Logs as the channel. */
    private static final Logger LOG = LoggerFactory.getLogger(SampleChannel.class);

    private final Deque<AutoCloseable> resources = new ArrayDeque<>();
    private SendPath send;
    private ReceivePath receive;
    private CompletionChannel completionChannel;
    private ChannelConnector connector;
    private Thread thread;

    ChannelResources(final ChannelConfig config, final ChannelStats stats, final EpochNanoClock clock,
        final ChannelConnector.Listener listener)
    {
        try
        {
            final Provider provider = Providers.AUTO.equals(config.provider()) ? Providers.select() :
                Providers.select(config.provider());
            final EventChannel events = push(provider.createEventChannel());
            final CmId first = push(ChannelConnector.bindFirst(config, events));
            final Context context = first.context();
            requireDevice(config, context);
            requireDatagramsFit(config, context);
            final ProtectionDomain pd = push(context.allocPd());
            completionChannel = config.pollMode() == PollMode.EVENT ? push(context.createCompChannel()) : null;
            final CompletionQueue sendCq = push(context.createCq(config.out().cqSize(), null, 0));
            final CompletionQueue receiveCq = push(context.createCq(config.in().cqSize(), completionChannel, 0));
            final int capacity = config.signals().size();
            final SamplePool sendPool =
                push(new SamplePool(pd, config.out().maxWrs() + 2 * config.out().vectorize(), capacity, 0));
            final SamplePool receivePool = push(new SamplePool(pd,
                config.in().maxWrs() + 2 * config.in().vectorize(), capacity, AccessFlags.LOCAL_WRITE));
            send = new SendPath(sendPool, sendCq, stats, config.signals(), config.out().vectorize(),
                config.out().maxInFlight(), config.out().periodicSignaling(), config.out().sendInline());
            receive = new ReceivePath(receivePool, receiveCq, stats, clock, config.mode() == TransportMode.UD,
                config.in().vectorize(), config.in().maxPosted());
            LOG.info("{}: up to {} sends in flight (out.max_wrs = {}, out.cq_size = {}), one in {} signaled; " +
                "{} receives kept posted (in.max_wrs - in.buffer_subtraction = {}, in.cq_size = {})",
                config.name(), config.out().maxInFlight(), config.out().maxWrs(), config.out().cqSize(),
                config.out().periodicSignaling(), config.in().maxPosted(),
                config.in().maxWrs() - config.in().bufferSubtraction(), config.in().cqSize());
            connector = new ChannelConnector(config, events, first, pd, sendCq, receiveCq, send, receive, stats,
                listener);
            thread = new Thread(connector, "ibex-cm-" + config.name());
            thread.setDaemon(true);
        }
        catch (final RuntimeException ex)
        {
            close();
            throw ex instanceof ChannelException ? ex : new ChannelException(config.name() +
                ": cannot start: " + ex.getMessage(), ex);
        }
    }

    /** @return the send path, for the writer thread. */
    SendPath send()
    {
        return send;
    }

    /** @return the receive path, for the reader thread. */
    ReceivePath receive()
    {
        return receive;
    }

    /** @return the completion channel receives signal with poll_mode event, or null. */
    CompletionChannel completionChannel()
    {
        return completionChannel;
    }

    /** @return the connector, whose state other threads may read. */
    ChannelConnector connector()
    {
        return connector;
    }

    /** Starts the connector's thread; once only. */
    void startConnector()
    {
        thread.start();
    }

    private static void requireDevice(final ChannelConfig config, final Context context)
    {
        final String device = context.device().name();
        if (config.device() != null && !config.device().equals(device))
        {
            throw new ChannelException(config.name() + ": in.address " + config.in().address() + " is on device " +
                device + ", not on the configured device " + config.device());
        }
    }

    /** A UD message cannot exceed the path MTU: refuse signal lists whose samples would not fit. */
    private static void requireDatagramsFit(final ChannelConfig config, final Context context)
    {
        final int mtu = context.queryPort(PortWatch.PORT).activeMtu().bytes();
        final int wire = Sample.wireLength(config.signals().size());
        if (config.mode() == TransportMode.UD && wire > mtu)
        {
            throw new ChannelException(config.name() + ": a sample of " + config.signals().size() +
                " values takes " + wire + " bytes, more than the UD MTU of " + mtu + " bytes on device " +
                context.device().name() + ": use fewer values or RC/UC");
        }
    }

    private <T extends AutoCloseable> T push(final T resource)
    {
        resources.push(resource);
        return resource;
    }

    /** Stops the connector's thread and waits for it, then frees every resource; the caller's interrupt is kept. */
    @Override
    public void close()
    {
        if (send != null)
        {
            send.shutDown();
            receive.shutDown();
        }
        if (connector != null)
        {
            connector.stop();
            boolean interrupted = false;
            while (thread.isAlive())
            {
                try
                {
                    thread.join();
                }
                catch (final InterruptedException ex)
                {
                    interrupted = true;
                }
            }
            if (interrupted)
            {
                Thread.currentThread().interrupt();
            }
        }
        while (!resources.isEmpty())
        {
            try
            {
                resources.pop().close();
            }
            catch (final Exception ex)
            {
                LOG.warn("freeing a channel resource failed: {}", ex.getMessage());
            }
        }
    }
}
