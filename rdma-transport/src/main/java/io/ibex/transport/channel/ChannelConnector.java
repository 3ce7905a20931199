package io.ibex.transport.channel;

import io.ibex.rdma.cm.CmEvent;
import io.ibex.rdma.cm.CmEventType;
import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.cm.EventChannel;
import io.ibex.rdma.cm.PortSpace;
import io.ibex.rdma.verbs.AsyncEvent;
import io.ibex.rdma.verbs.AsyncEventType;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.VerbsException;
import io.ibex.transport.config.ChannelConfig;
import io.ibex.transport.config.TransportMode;
import io.ibex.transport.stats.ChannelStats;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The connection manager's thread of a channel, as the C node-type's CM event thread: it takes the rdma_cm events
 * and hands them to the {@link SourceConnector source side} (resolve out.address, connect, reconnect) and the
 * {@link TargetAcceptor target side} (listen on in.address, admit, accept); it attaches established connections to
 * the send and receive paths, and detaches and tears down the ones lost: to a disconnect, to a fatal completion or
 * asynchronous event, or to the device's port going down ({@link PortWatch}).
 * <p>
 * Every CM object and connection is touched by this thread only ({@link #run()}); other threads call only
 * {@link #isListening()}, {@link #lastConnectFailure()} and {@link #stop()}. The data paths see connections through
 * attach and detach. It owns the connections and the ids it binds; the channel owns the queues and the paths.
 */
final class ChannelConnector implements Runnable
{
    private static final Logger LOG = LoggerFactory.getLogger(ChannelConnector.class);

    /** What the channel hears from its connector. */
    interface Listener
    {
        /** @param connected whether some connection is attached now. */
        void connectionChanged(boolean connected);

        /**
         * @param reason why the channel cannot go on (a source with neither fallback nor reconnect).
         * @param cause  the error underneath, or null.
         */
        void failed(String reason, Throwable cause);
    }

    private final ChannelConfig config;
    private final EventChannel events;
    private final ProtectionDomain pd;
    private final CompletionQueue sendCq;
    private final CompletionQueue receiveCq;
    private final Listener listener;
    private final QpType qpType;
    /** The id bindFirst bound: a source connects with it, a target listens on it. */
    private final CmId first;
    /** The device's asynchronous events about this channel's CQs and QPs ({@link AsyncEvents}). */
    private final Queue<AsyncEvent> asyncEvents = new ConcurrentLinkedQueue<>();
    private final PortWatch port;
    private final TargetAcceptor target;
    private final SourceConnector source;
    private final PathLinks links;
    private volatile boolean running = true;

    ChannelConnector(final ChannelConfig config, final EventChannel events, final CmId first,
        final ProtectionDomain pd, final CompletionQueue sendCq, final CompletionQueue receiveCq,
        final SendPath sendPath, final ReceivePath receivePath, final ChannelStats stats, final Listener listener)
    {
        this.config = config;
        this.events = events;
        this.pd = pd;
        this.sendCq = sendCq;
        this.receiveCq = receiveCq;
        this.listener = listener;
        this.qpType = qpType(config.mode());
        this.links = new PathLinks(config.name(), sendPath, receivePath, stats, listener);
        final ConnectionFactory connections =
            new ConnectionFactory(config, qpType, pd, sendCq, receiveCq, asyncEvents, listener);
        final ConnectAuth auth = new ConnectAuth(config, qpType == QpType.UC);
        this.port = new PortWatch(config.name(), pd.context());
        this.target = new TargetAcceptor(config, this, events, links, connections, auth);
        this.source = new SourceConnector(config, this, target, links, connections, auth);
        this.first = first;
        AsyncEvents.own(sendCq, asyncEvents);
        AsyncEvents.own(receiveCq, asyncEvents);
        if (!config.isSource())
        {
            // before start returns: a source opened next finds the target listening, not a refusal
            target.listen(first);
        }
    }

    /**
     * Binds the first id, so the channel learns its device before it allocates anything: a source's
     * connecting id on in.address's IP (any port), a target's listening id on in.address.
     *
     * @param config the channel's config.
     * @param events where the id's events go.
     * @return the bound id, whose context the channel allocates its resources from.
     */
    static CmId bindFirst(final ChannelConfig config, final EventChannel events)
    {
        return bind(config, events, config.isSource() ? anyPort(config) : config.in().address());
    }

    /** @return whether a listening id is up (any thread). */
    boolean isListening()
    {
        return target.isListening();
    }

    /** @return why the last connect failed, or null (any thread). */
    String lastConnectFailure()
    {
        return source.lastConnectFailure();
    }

    /** Asks the thread to end; it disconnects and frees every connection first (any thread). */
    void stop()
    {
        running = false;
    }

    /** Takes events until {@link #stop()}, then disconnects and frees every connection and id it holds. */
    @Override
    public void run()
    {
        try
        {
            begin();
            while (running)
            {
                source.retryIfDue();
                final CmEvent event = target.nextEvent();
                if (event != null)
                {
                    handleOrRecover(event);
                }
                target.admit();
                checkDataPaths(); // after the events: a peer's disconnect puts the QP in ERR, and is no failure
                checkAsyncEvents();
                if (qpType == QpType.RC && (anyConnection() != null || port.hasParked()))
                {
                    port.watch(this);
                }
            }
        }
        catch (final RuntimeException ex)
        {
            if (running)
            {
                LOG.error("{}: the connection manager failed", config.name(), ex);
                listener.failed("the connection manager failed: " + ex.getMessage(), ex);
            }
        }
        finally
        {
            closeAll();
            AsyncEvents.disown(sendCq);
            AsyncEvents.disown(receiveCq);
        }
    }

    /** @return whether the thread is to go on (any thread). */
    boolean isRunning()
    {
        return running;
    }

    /** @return what the channel hears from the connector. */
    Listener listener()
    {
        return listener;
    }

    /** @return an id bound to {@code address}, in the channel's port space. */
    CmId bound(final InetSocketAddress address)
    {
        return bind(config, events, address);
    }

    /** @return in.address's IP with any port: where a source binds the ids it connects with. */
    static InetSocketAddress anyPort(final ChannelConfig config)
    {
        return new InetSocketAddress(config.in().address().getAddress(), 0);
    }

    /** Drops a connection that broke (its data path, the device or its port said so); a source tries again. */
    void drop(final Connection broken, final String why)
    {
        LOG.warn("{}: dropping {}: {}", config.name(), broken, why);
        if (qpType == QpType.RC && !port.isActive())
        {
            tearDown(broken, true);
            port.park(broken); // it disconnects once the port is back
        }
        else
        {
            PathLinks.disconnectQuietly(broken);
            tearDown(broken);
        }
        source.lost(broken, "the connection broke");
    }

    /** @return any connection still open, or null. */
    Connection anyConnection()
    {
        final Connection requested = source.requested();
        return links.sending() != null ? links.sending() : links.receiving() != null ? links.receiving() :
            requested != null ? requested : target.admission().oldest();
    }

    /** Detaches a connection from the paths, destroys it, then gives back what its queues held. */
    void tearDown(final Connection connection)
    {
        tearDown(connection, false);
    }

    private void begin()
    {
        if (config.isSource())
        {
            source.start(first);
            if (qpType == QpType.UD)
            {
                target.listen(bound(config.in().address()));
            }
        }
    }

    private static CmId bind(final ChannelConfig config, final EventChannel events, final InetSocketAddress address)
    {
        final CmId id = events.createId(portSpace(config.mode()));
        try
        {
            id.bindAddr(address);
            return id;
        }
        catch (final RuntimeException ex)
        {
            id.close();
            throw new ChannelException(config.name() + ": cannot bind to " + address + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * Handles an event; a step that throws (a QP the device refuses, a connect the provider rejects) ends that
     * connection attempt as a failed connect would, rather than the connection manager.
     */
    private void handleOrRecover(final CmEvent event)
    {
        try
        {
            handle(event);
        }
        catch (final RuntimeException ex)
        {
            final Connection broken = event.id() != null ? find(event.id()) : null;
            final boolean ours = source.isConnecting(event.id()) || broken != null && broken.outgoing();
            if (sourceGaveUp(event, ex))
            {
                LOG.info("{}: the source gave up on its request from {}: {}", config.name(),
                    event.id().remoteAddress(), ex.getMessage());
            }
            else
            {
                LOG.warn("{}: handling {} failed: {}", config.name(), event, ex.getMessage());
            }
            if (broken != null)
            {
                tearDown(broken);
            }
            if (ours)
            {
                source.closeConnecting();
                source.connectFailed(ex.getMessage());
            }
            else if (broken == null && event.id() != null && !target.isListeningId(event.id()))
            {
                event.id().close();
            }
        }
    }

    /**
     * @return whether accepting or rejecting a request failed as it does once its source gave up on it (EINVAL: the
     *     id holds no request any more; its REJECTED event, reason REJ_TIMEOUT, follows).
     */
    private static boolean sourceGaveUp(final CmEvent event, final RuntimeException ex)
    {
        return event.type() == CmEventType.CONNECT_REQUEST && ex instanceof VerbsException verbs &&
            verbs.errno() == VerbsException.EINVAL;
    }

    private void handle(final CmEvent event)
    {
        final CmId id = event.id();
        switch (event.type())
        {
            case ADDR_RESOLVED -> source.onAddressResolved(id);
            case ROUTE_RESOLVED -> source.onRouteResolved(id);
            case ESTABLISHED ->
            {
                if (!source.onEstablished(event))
                {
                    target.onEstablished(event);
                }
            }
            case CONNECT_REQUEST -> target.onConnectRequest(event);
            case ADDR_ERROR, ROUTE_ERROR, UNREACHABLE, CONNECT_ERROR, REJECTED ->
            {
                if (!target.onConnectFailed(event))
                {
                    source.onConnectFailed(event);
                }
            }
            case DISCONNECTED -> onDisconnected(id);
            case DEVICE_REMOVAL -> listener.failed("the device of " + config.in().address() + " was removed", null);
            default -> LOG.debug("{}: ignoring {}", config.name(), event);
        }
    }

    private void onDisconnected(final CmId id)
    {
        final Connection lost = find(id);
        if (lost == null)
        {
            port.closeParked(id);
            return;
        }
        LOG.info("{}: disconnected: {}", config.name(), lost);
        tearDown(lost);
        source.lost(lost, "the peer at " + config.out().address() + " disconnected");
    }

    /**
     * Tears down connections whose data path saw a fatal completion (the peer broke the protocol, or died) or
     * whose queue pair is in ERR.
     */
    private void checkDataPaths()
    {
        final Connection sending = links.sending();
        final Connection receivesOf = links.receivesOf();
        final String receiveFailure = receivesOf != null ? links.receivePath().failure() : null;
        final String sendFailure = sending != null ? links.sendPath().failure() : null;
        final Connection broken = receiveFailure != null ? receivesOf : sendFailure != null ? sending : null;
        if (broken != null)
        {
            drop(broken, receiveFailure != null ? receiveFailure : sendFailure);
            return;
        }
        // A QP that went to ERR with nothing in flight (moved there, a fatal error) completes nothing that says so.
        final Connection inError = inError(sending) ? sending : inError(links.receiving()) ? links.receiving() : null;
        if (inError != null)
        {
            drop(inError, "its queue pair is in the error state");
        }
    }

    /**
     * Handles the device's asynchronous events about this channel: a completion queue that overran has lost
     * completions and cannot be trusted, which fails the channel; a queue pair's fatal error drops its connection.
     */
    private void checkAsyncEvents()
    {
        AsyncEvents.poll(pd.context());
        for (AsyncEvent event = asyncEvents.poll(); event != null; event = asyncEvents.poll())
        {
            if (event.type() == AsyncEventType.CQ_ERR && event.cq() != null)
            {
                final String reason = overran(event.cq() == receiveCq);
                listener.failed(reason, null);
                running = false; // every connection is torn down on the way out; the channel waits to be stopped
                return;
            }
            final Connection broken = event.qp() != null ? find(event.qp()) : null;
            if (broken != null && (event.type() == AsyncEventType.QP_FATAL ||
                event.type() == AsyncEventType.QP_REQ_ERR || event.type() == AsyncEventType.QP_ACCESS_ERR))
            {
                drop(broken, "the device reported " + event.type() + " for its queue pair");
            }
        }
    }

    private String overran(final boolean receive)
    {
        final CompletionQueue cq = receive ? receiveCq : sendCq;
        return (receive ? "the receive" : "the send") + " completion queue overran: more completions than its " +
            cq.cqe() + " entries (" + (receive ? "in.cq_size = " + config.in().cqSize() : "out.cq_size = " +
            config.out().cqSize()) + "), so completions were lost; the channel keeps no more " + (receive ?
            "receives posted" : "sends in flight") + " than it holds, so work requests it did not post completed " +
            "into it";
    }

    private static boolean inError(final Connection connection)
    {
        return connection != null && connection.qp().state() == QpState.ERR;
    }

    /** @return the connection of an id or a queue pair, or null. */
    private Connection find(final Object idOrQp)
    {
        for (final Connection connection : new Connection[] {links.sending(), links.receiving(), source.requested()})
        {
            if (connection != null && (connection.id() == idOrQp || connection.qp() == idOrQp))
            {
                return connection;
            }
        }
        return target.admission().find(idOrQp);
    }

    /** As {@link #tearDown(Connection)}, and if {@code keepId}, the rdma_cm id is left open for the caller. */
    private void tearDown(final Connection connection, final boolean keepId)
    {
        links.tearDown(connection, keepId);
        target.admission().remove(connection);
        source.forget(connection);
        listener.connectionChanged(links.connected());
    }

    private void closeAll()
    {
        port.closeAll();
        for (Connection open = anyConnection(); open != null; open = anyConnection())
        {
            PathLinks.disconnectQuietly(open);
            tearDown(open);
        }
        source.closeConnecting();
        target.close();
    }

    private static QpType qpType(final TransportMode mode)
    {
        return switch (mode)
        {
            case RC -> QpType.RC;
            case UC -> QpType.UC;
            case UD -> QpType.UD;
        };
    }

    private static PortSpace portSpace(final TransportMode mode)
    {
        return mode == TransportMode.UD ? PortSpace.UDP : PortSpace.TCP;
    }
}
