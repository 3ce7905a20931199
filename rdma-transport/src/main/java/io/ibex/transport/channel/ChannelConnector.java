package io.ibex.transport.channel;

import io.ibex.rdma.cm.CmEvent;
import io.ibex.rdma.cm.CmEventType;
import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.cm.ConnParam;
import io.ibex.rdma.cm.EventChannel;
import io.ibex.rdma.cm.PortSpace;
import io.ibex.rdma.verbs.AsyncEvent;
import io.ibex.rdma.verbs.AsyncEventType;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.PortState;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpCapabilities;
import io.ibex.rdma.verbs.QpInitAttr;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.VerbsException;
import io.ibex.transport.config.ChannelConfig;
import io.ibex.transport.config.TransportMode;
import io.ibex.transport.stats.ChannelStats;
import io.ibex.transport.stats.Counter;
import org.agrona.concurrent.SystemEpochClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * The connection manager's thread of a channel, as the C node-type's CM event thread: a source resolves
 * out.address and connects, a target listens on in.address and accepts; established connections are attached
 * to the send and receive paths, lost ones detached and torn down. Beyond the C code: receives are posted
 * before a connection is accepted or requested, a target admits a connection only once it is set up completely
 * ({@link Admission}), with a secret_file both ends prove they know the secret ({@link ConnectProof}), a source that loses its peer (or cannot reach it, without fallback) tries again with
 * exponential back-off, and a UD source also listens so datagrams flow both ways.
 * <p>
 * Every CM object is touched by this thread only; the data paths see connections through attach and detach.
 */
final class ChannelConnector implements Runnable
{
    /** How the failure of a channel whose queue pair the device refused starts. */
    static final String QP_REFUSED = "the device refused the connection's queue pair: ";
    private static final Logger LOG = LoggerFactory.getLogger(ChannelConnector.class);
    private static final int LISTEN_BACKLOG = 10;
    /** The device port a channel's connections use, as {@link SampleChannel} assumes. */
    private static final int PORT = 1;
    private static final long EVENT_WAIT_MILLIS = 20;
    /** Connection requests held back while other events are taken first ({@link #nextEvent}). */
    private static final int MAX_HELD_REQUESTS = 64;
    /** How long a torn-down connection's sends may take to complete in ERR (rxe flushes asynchronously). */
    private static final long FLUSH_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    /** How the rejection of a source that did not prove the secret starts, before the reason. */
    static final String NOT_AUTHENTICATED = "not authenticated: ";
    private static final byte[] BUSY = (ConnectFailure.IBEX_TEXT + "this target is connected to another source").getBytes(
        StandardCharsets.US_ASCII);


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
    private final SendPath sendPath;
    private final ReceivePath receivePath;
    private final ChannelStats stats;
    private final Listener listener;
    private final QpType qpType;
    private final RnrTuning rnrTuning;
    /** The id bindFirst bound: a source connects with it, a target listens on it. */
    private final CmId first;
    /** The device's asynchronous events about this channel's CQs and QPs ({@link AsyncEvents}). */
    private final Queue<AsyncEvent> asyncEvents = new ConcurrentLinkedQueue<>();
    private volatile boolean running = true;
    private volatile String lastConnectFailure;
    private CmId connecting;
    private volatile CmId listening;
    private final Admission admission;
    private final ArrayDeque<CmEvent> heldRequests = new ArrayDeque<>();
    private final ThrottledWarning refused;
    private final ThrottledWarning unproven;
    /** Proves the shared secret both ways in rdma_cm's private data; null without secret_file. */
    private final ConnectProof proof;
    /** Where the proof goes in a request's private data: after the UC endpoint on UC. */
    private final int requestProofOffset;
    /** Where the proof goes in a reply's private data: after the UC endpoint and its link token on UC. */
    private final int replyProofOffset;
    /** The private data of the connect in flight, whose proof the target's reply must answer. */
    private byte[] requestData;
    private final ThrottledWarning pushedOut;
    private Connection requested;
    private Connection sending;
    private Connection receiving;
    /** The connection the receive path posts to: the one receiving, or one being set up. */
    private Connection receivesOf;
    /** RC connections dropped while the device's port was down, their rdma_cm ids kept ({@link #watchPort}). */
    private final List<Connection> parked = new ArrayList<>();
    private boolean everConnected;
    private final Backoff backoff;

    ChannelConnector(final ChannelConfig config, final EventChannel events, final CmId first,
        final ProtectionDomain pd,
        final CompletionQueue sendCq, final CompletionQueue receiveCq, final SendPath sendPath,
        final ReceivePath receivePath, final ChannelStats stats, final Listener listener)
    {
        this.config = config;
        this.events = events;
        this.pd = pd;
        this.sendCq = sendCq;
        this.receiveCq = receiveCq;
        this.sendPath = sendPath;
        this.receivePath = receivePath;
        this.stats = stats;
        this.listener = listener;
        this.qpType = qpType(config.mode());
        this.rnrTuning = new RnrTuning(config.name());
        this.admission = new Admission(config.in().admissionTimeout().toNanos());
        this.refused = new ThrottledWarning(LOG, config.name(), "rejecting a connection request ({}): this " +
            "target is connected to another source");
        this.unproven = new ThrottledWarning(LOG, config.name(), "rejecting a connection request ({}): it did " +
            "not prove it knows the secret of secret_file");
        final SharedSecret secret = SharedSecret.of(config);
        this.proof = secret != null ? new ConnectProof(secret, SystemEpochClock.INSTANCE) : null;
        this.requestProofOffset = qpType == QpType.UC ? UcEndpoint.LENGTH : 0;
        this.replyProofOffset = qpType == QpType.UC ? UcEndpoint.REPLY_LENGTH : 0;
        this.pushedOut = new ThrottledWarning(LOG, config.name(), "more than " + Admission.SLOTS + " connections " +
            "were being set up at once, so the oldest made room for a newer request (the latest: {}); a flood of " +
            "half-open connections looks like this");
        this.backoff = new Backoff(config.out().reconnectMinDelay(), config.out().reconnectMaxDelay());
        this.first = first;
        AsyncEvents.own(sendCq, asyncEvents);
        AsyncEvents.own(receiveCq, asyncEvents);
        if (!config.isSource())
        {
            listen(first); // before start returns: a source opened next finds the target listening, not a refusal
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
        final CmId id = listening;
        return id != null && !id.isClosed() && running;
    }

    /** @return why the last connect failed, or null (any thread). */
    String lastConnectFailure()
    {
        return lastConnectFailure;
    }

    /** Asks the thread to end; it disconnects and frees every connection first. */
    void stop()
    {
        running = false;
    }

    @Override
    public void run()
    {
        try
        {
            begin();
            while (running)
            {
                if (backoff.takeDue(System.nanoTime()))
                {
                    retry();
                }
                final CmEvent event = nextEvent();
                if (event != null)
                {
                    handleOrRecover(event);
                }
                admit();
                checkDataPaths(); // after the events: a peer's disconnect puts the QP in ERR, and is no failure
                checkAsyncEvents();
                watchPort();
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

    /**
     * @return the next event, or null after waiting a while for one. Every other event comes before a connection
     *     request, so a connection being set up (its ESTABLISHED, its peer's REJECT) is not held up behind a flood
     *     of requests; at most {@link #MAX_HELD_REQUESTS} wait, and the oldest is refused to make room.
     */
    private CmEvent nextEvent()
    {
        CmEvent event = events.getEvent(heldRequests.isEmpty() ? EVENT_WAIT_MILLIS : 0);
        while (event != null && event.type() == CmEventType.CONNECT_REQUEST)
        {
            if (heldRequests.size() >= MAX_HELD_REQUESTS)
            {
                final CmEvent oldest = heldRequests.removeFirst();
                pushedOut.warn(oldest.id().remoteAddress());
                reject(oldest.id(), BUSY);
            }
            heldRequests.addLast(event);
            event = events.getEvent(0);
        }
        return event != null ? event : heldRequests.pollFirst();
    }

    private void begin()
    {
        if (config.isSource())
        {
            connect(first);
            if (qpType == QpType.UD)
            {
                listen(bound(config.in().address()));
            }
        }
    }

    private CmId bound(final InetSocketAddress address)
    {
        return bind(config, events, address);
    }

    private static InetSocketAddress anyPort(final ChannelConfig config)
    {
        return new InetSocketAddress(config.in().address().getAddress(), 0);
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

    private void connect(final CmId id)
    {
        connecting = id;
        LOG.info("{}: connecting to {} ({})", config.name(), config.out().address(), config.mode());
        id.resolveAddr(null, config.out().address(), config.out().resolutionTimeoutMillis());
    }

    private void listen(final CmId id)
    {
        id.listen(LISTEN_BACKLOG);
        listening = id;
        LOG.info("{}: listening on {} ({})", config.name(), id.localAddress(), config.mode());
    }

    private void retry()
    {
        try
        {
            connect(bound(anyPort(config)));
        }
        catch (final RuntimeException ex)
        {
            connectFailed(ex.getMessage());
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
            final boolean ours = event.id() == connecting || broken != null && broken.outgoing();
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
                closeConnecting();
                connectFailed(ex.getMessage());
            }
            else if (broken == null && event.id() != null && event.id() != listening)
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
            case ADDR_RESOLVED -> onAddressResolved(id);
            case ROUTE_RESOLVED -> onRouteResolved(id);
            case ESTABLISHED -> onEstablished(event);
            case CONNECT_REQUEST -> onConnectRequest(event);
            case ADDR_ERROR, ROUTE_ERROR, UNREACHABLE, CONNECT_ERROR, REJECTED -> onConnectFailed(event);
            case DISCONNECTED -> onDisconnected(id);
            case DEVICE_REMOVAL -> listener.failed("the device of " + config.in().address() + " was removed", null);
            default -> LOG.debug("{}: ignoring {}", config.name(), event);
        }
    }

    private void onAddressResolved(final CmId id)
    {
        if (id == connecting)
        {
            id.resolveRoute(config.out().resolutionTimeoutMillis());
        }
    }

    private void onRouteResolved(final CmId id)
    {
        if (id != connecting)
        {
            return;
        }
        requested = newConnectionOrFail(id, true);
        if (requested == null)
        {
            closeConnecting();
            return;
        }
        if (qpType != QpType.UD)
        {
            attachReceives(requested);
        }
        requestData = withProof(requested.ucLocal() != null ? requested.ucLocal().encode() : null,
            ConnectProofDescriptor.REQUEST_LENGTH);
        if (proof != null)
        {
            proof.writeRequest(config.out().address(), requestData, requestProofOffset);
        }
        id.connect(ConnParam.of(requestData));
    }

    /**
     * @param endpoint the UC endpoint's private data (UC), or null.
     * @return the private data of a connect or an accept: the UC endpoint (UC), then room for a proof of this
     *     length when there is a secret; null if that is nothing.
     */
    private byte[] withProof(final byte[] endpoint, final int proofLength)
    {
        if (proof == null)
        {
            return endpoint;
        }
        final byte[] head = endpoint != null ? endpoint : new byte[0];
        return Arrays.copyOf(head, head.length + proofLength);
    }

    private void onEstablished(final CmEvent event)
    {
        if (requested != null && event.id() == requested.id())
        {
            final Connection connection = requested;
            requested = null;
            connecting = null;
            final String unprovenTarget = proof != null ?
                proof.checkReply(requestData, requestProofOffset, event.privateData(), replyProofOffset) : null;
            if (unprovenTarget != null)
            {
                LOG.warn("{}: dropping {}: {}", config.name(), connection, unprovenTarget);
                disconnectQuietly(connection);
                tearDown(connection);
                connectFailed(unprovenTarget);
                return;
            }
            if (qpType == QpType.UD)
            {
                connection.datagramPeer(pd.createAh(event.ud().ahAttr()), event.ud().qpNum(), event.ud().qkey());
            }
            else
            {
                receiving = connection;
            }
            if (qpType == QpType.UC && !connectUc(connection, event.privateData()))
            {
                return;
            }
            tuneRnr(connection);
            startSending(connection);
            backoff.reset();
        }
        else if (admission.find(event.id()) != null)
        {
            final Connection connection = admission.find(event.id());
            final String failure = admission.established(connection);
            if (failure != null)
            {
                drop(connection, failure);
            }
        }
    }

    /**
     * A target's connections being set up: drops those that failed or ran out of time, and lets the first proven
     * one hold the target, closing the others; drops the holder once its probe shows that its source is gone.
     */
    private void admit()
    {
        if (admission.isEmpty() && !admission.isProbingHolder())
        {
            return;
        }
        sendPath.reapProbes(admission);
        final Connection gone = admission.goneHolder();
        if (gone != null)
        {
            drop(gone, admission.whyGone());
        }
        for (Connection failed = admission.failed(System.nanoTime()); failed != null;
            failed = admission.failed(System.nanoTime()))
        {
            drop(failed, admission.whyFailed(failed));
        }
        final Connection proven = receivesOf != null && receivePath.peerSent() && admission.contains(receivesOf) ?
            receivesOf : admission.proven();
        if (proven == null)
        {
            return;
        }
        admission.remove(proven);
        for (Connection other = admission.oldest(); other != null; other = admission.oldest())
        {
            LOG.info("{}: closing {}: another connection was set up first", config.name(), other);
            disconnectQuietly(other);
            tearDown(other);
        }
        if (receivesOf != proven)
        {
            attachReceives(proven);
        }
        receiving = proven;
        startSending(proven);
    }

    private void attachReceives(final Connection connection)
    {
        receivePath.attach(connection);
        receivesOf = connection;
    }

    private void startSending(final Connection connection)
    {
        sending = connection;
        sendPath.attach(connection, connection.qp().capabilities().maxInlineData());
        if (everConnected)
        {
            stats.add(Counter.RECONNECTS, 1);
        }
        everConnected = true;
        LOG.info("{}: connected: {}", config.name(), connection);
        listener.connectionChanged(true);
    }

    private void onConnectRequest(final CmEvent event)
    {
        final CmId child = event.id();
        final String unprovenSource = proof != null ?
            proof.checkRequest(child.localAddress(), event.privateData(), requestProofOffset) : null;
        if (unprovenSource != null)
        {
            unproven.warn("from " + child.remoteAddress() + ": " + unprovenSource);
            reject(child, (ConnectFailure.IBEX_TEXT + NOT_AUTHENTICATED + unprovenSource).getBytes(
                StandardCharsets.US_ASCII));
            return;
        }
        if (qpType == QpType.UD && receiving != null)
        {
            LOG.info("{}: a new UD source replaces {}", config.name(), receiving);
            tearDown(receiving);
        }
        else if (receiving != null)
        {
            refused.warn("from " + child.remoteAddress() + " while connected to " + receiving);
            reject(child, BUSY);
            admission.probeHolder(receiving);
            return;
        }
        else if (admission.isFull())
        {
            pushOut(admission.oldest());
        }
        final Connection connection;
        final byte[] linkToken = qpType == QpType.UC ? UcEndpoint.newLinkToken() : null;
        try
        {
            final UcEndpoint peer = qpType == QpType.UC ? UcEndpoint.decode(event.privateData()) : null;
            connection = newConnectionOrFail(child, false);
            if (connection != null && peer != null)
            {
                connectOrClose(peer, connection, linkToken);
            }
        }
        catch (final RuntimeException ex)
        {
            LOG.warn("{}: cannot accept {}: {}", config.name(), child.remoteAddress(), ex.getMessage());
            reject(child, null);
            return;
        }
        if (connection == null)
        {
            reject(child, null);
            return;
        }
        if (receivesOf == null)
        {
            attachReceives(connection);
        }
        if (qpType == QpType.UD)
        {
            receiving = connection;
        }
        else
        {
            admission.add(connection, System.nanoTime());
        }
        final byte[] reply = withProof(linkToken != null ? connection.ucLocal().encodeReply(linkToken) : null,
            ConnectProofDescriptor.REPLY_LENGTH);
        if (proof != null)
        {
            proof.writeReply(event.privateData(), requestProofOffset, reply, replyProofOffset);
        }
        connection.id().accept(ConnParam.of(reply));
        tuneRnr(connection);
        if (qpType == QpType.UD)
        {
            LOG.info("{}: receiving datagrams from {}", config.name(), child.remoteAddress());
            listener.connectionChanged(true);
        }
    }

    /** Makes room for a new request: drops the oldest connection being set up. */
    private void pushOut(final Connection oldest)
    {
        pushedOut.warn(oldest);
        disconnectQuietly(oldest);
        tearDown(oldest);
    }

    /** RC, once rdma_cm moved the QP to RTS: see {@link RnrTuning}. */
    private void tuneRnr(final Connection connection)
    {
        if (qpType == QpType.RC)
        {
            rnrTuning.apply(connection.qp(), connection);
        }
    }

    private void onConnectFailed(final CmEvent event)
    {
        final CmId id = event.id();
        final Connection accepted = admission.find(id);
        if (accepted != null)
        {
            if (event.type() == CmEventType.REJECTED && event.status() == CmEvent.REJ_TIMEOUT)
            {
                LOG.info("{}: the source of {} gave up on its request", config.name(), accepted);
            }
            else
            {
                LOG.warn("{}: accepting {} failed: {}", config.name(), accepted, event);
            }
            tearDown(accepted);
            return;
        }
        if (id != connecting)
        {
            return;
        }
        if (requested != null)
        {
            tearDown(requested);
        }
        closeConnecting();
        connectFailed(ConnectFailure.describe(event));
    }

    private void closeConnecting()
    {
        if (connecting != null)
        {
            connecting.close();
            connecting = null;
        }
    }

    /** After a failed connect: fall back to listening, try again later, or give up, as the config says. */
    private void connectFailed(final String reason)
    {
        final String what = "connecting to " + config.out().address() + " failed: " + reason;
        lastConnectFailure = what;
        if (!everConnected && config.out().useFallback() && listening == null)
        {
            LOG.warn("{}: {}: falling back to listening on {} as a target (out.use_fallback)", config.name(), what,
                config.in().address());
            listen(bound(config.in().address()));
        }
        else if (config.out().reconnect())
        {
            retryLater(what);
        }
        else
        {
            listener.failed(what, null);
        }
    }

    private void onDisconnected(final CmId id)
    {
        final Connection lost = find(id);
        if (lost == null)
        {
            closeParked(id);
            return;
        }
        LOG.info("{}: disconnected: {}", config.name(), lost);
        tearDown(lost);
        if (lost.outgoing() && config.out().reconnect())
        {
            retryLater("the peer at " + config.out().address() + " disconnected");
        }
    }

    /**
     * Tears down connections whose data path saw a fatal completion (the peer broke the protocol, or died) or
     * whose queue pair is in ERR.
     */
    private void checkDataPaths()
    {
        final String receiveFailure = receivesOf != null ? receivePath.failure() : null;
        final String sendFailure = sending != null ? sendPath.failure() : null;
        final Connection broken = receiveFailure != null ? receivesOf : sendFailure != null ? sending : null;
        if (broken != null)
        {
            drop(broken, receiveFailure != null ? receiveFailure : sendFailure);
            return;
        }
        // A QP that went to ERR with nothing in flight (moved there, a fatal error) completes nothing that says so.
        final Connection inError = inError(sending) ? sending : inError(receiving) ? receiving : null;
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

    /** Drops a connection that broke (its data path, the device or its port said so); a source tries again. */
    private void drop(final Connection broken, final String why)
    {
        LOG.warn("{}: dropping {}: {}", config.name(), broken, why);
        if (qpType == QpType.RC && portState() != PortState.ACTIVE)
        {
            tearDown(broken, true);
            parked.add(broken); // watchPort disconnects it once the port is back
        }
        else
        {
            disconnectQuietly(broken);
            tearDown(broken);
        }
        if (broken.outgoing() && config.out().reconnect())
        {
            retryLater("the connection broke");
        }
    }

    private void retryLater(final String why)
    {
        final long delayNanos = backoff.schedule(System.nanoTime());
        LOG.info("{}: {}; trying again in {} ms", config.name(), why, TimeUnit.NANOSECONDS.toMillis(delayNanos));
    }

    /** @return the connection of an id or a queue pair, or null. */
    private Connection find(final Object idOrQp)
    {
        for (final Connection connection : new Connection[] {sending, receiving, requested})
        {
            if (connection != null && (connection.id() == idOrQp || connection.qp() == idOrQp))
            {
                return connection;
            }
        }
        return admission.find(idOrQp);
    }

    /** @return any connection still open, or null. */
    private Connection anyConnection()
    {
        return sending != null ? sending : receiving != null ? receiving : requested != null ? requested :
            admission.oldest();
    }

    private static void reject(final CmId child, final byte[] reason)
    {
        child.reject(reason);
        child.close();
    }

    /**
     * A connection's QP, or null after failing the channel: the device refusing the QP the config asks for (an
     * out.max_inline_data above its maximum, say) would refuse it at every attempt, so neither falling back to
     * listening nor trying again could help, and the user must hear the reason rather than wait.
     */
    private Connection newConnectionOrFail(final CmId id, final boolean outgoing)
    {
        try
        {
            final Connection connection = newConnection(id, outgoing);
            AsyncEvents.own(connection.qp(), asyncEvents);
            return connection;
        }
        catch (final RuntimeException ex)
        {
            listener.failed(QP_REFUSED + ex.getMessage(), ex);
            return null;
        }
    }

    private Connection newConnection(final CmId id, final boolean outgoing)
    {
        final QpCapabilities cap = new QpCapabilities(config.out().maxWrs(), config.in().maxWrs(), 1, 1,
            config.out().maxInlineData());
        if (qpType == QpType.UC)
        {
            id.createQp(pd, new QpInitAttr(QpType.RC, sendCq, receiveCq, new QpCapabilities(1, 1, 1, 1, 0), false));
            final QueuePair uc = pd.createQp(new QpInitAttr(QpType.UC, sendCq, receiveCq, cap, false));
            try
            {
                UcEndpoint.init(uc);
                return new Connection(id, logInline(uc), outgoing, UcEndpoint.local(uc, pd.context(),
                    config.in().address().getAddress()));
            }
            catch (final RuntimeException ex)
            {
                uc.close();
                throw ex;
            }
        }
        return new Connection(id, logInline(id.createQp(pd, new QpInitAttr(qpType, sendCq, receiveCq, cap, false))),
            outgoing, null);
    }

    private QueuePair logInline(final QueuePair qp)
    {
        if (config.out().maxInlineData() > 0 && qp.capabilities().maxInlineData() != config.out().maxInlineData())
        {
            LOG.info("{}: the QP takes {} inline bytes (out.max_inline_data = {})", config.name(),
                qp.capabilities().maxInlineData(), config.out().maxInlineData());
        }
        return qp;
    }

    private void connectOrClose(final UcEndpoint peer, final Connection connection, final byte[] linkToken)
    {
        try
        {
            peer.connect(connection.qp(), connection.ucLocal(), linkToken, pd.context());
        }
        catch (final RuntimeException ex)
        {
            connection.close();
            throw ex;
        }
    }

    /** Source side of the UC handshake: connects the UC QP to what the target accepted with. */
    private boolean connectUc(final Connection connection, final byte[] privateData)
    {
        try
        {
            UcEndpoint.decode(privateData).connect(connection.qp(), connection.ucLocal(),
                UcEndpoint.linkToken(privateData), pd.context());
            return true;
        }
        catch (final RuntimeException ex)
        {
            LOG.warn("{}: dropping {}: {}", config.name(), connection, ex.getMessage());
            disconnectQuietly(connection);
            tearDown(connection);
            retryLater("the UC handshake failed");
            return false;
        }
    }

    /**
     * Watches the port of the channel's device while it has RC connections: when the port goes down, drops them at
     * once (RC would lose them anyway, and rxe can leave a queue pair neither completing nor failing its sends across
     * a link that went down and came back), and a source tries again. A connection dropped while the port is down
     * is parked: its rdma_cm id waits for the port to be back before it disconnects, since a DREQ sent on a link
     * that is down is lost (and the peer would hold its end) and rxe's failure to send it breaks the device's CM.
     */
    private void watchPort()
    {
        if (qpType != QpType.RC || (anyConnection() == null && parked.isEmpty()))
        {
            return;
        }
        final PortState state = portState();
        if (state != PortState.ACTIVE)
        {
            for (Connection open = anyConnection(); open != null; open = anyConnection())
            {
                drop(open, "port " + PORT + " of " + pd.context().device().name() + " is " + state);
            }
        }
        else if (!parked.isEmpty())
        {
            LOG.info("{}: port {} is back: disconnecting {} connection(s) dropped while it was down", config.name(),
                PORT, parked.size());
            for (final Connection connection : parked)
            {
                disconnectQuietly(connection);
                connection.close();
            }
            parked.clear();
        }
    }

    private PortState portState()
    {
        return pd.context().queryPort(PORT).state();
    }

    /** The peer of a connection dropped while the port was down disconnected first: nothing is left to say. */
    private void closeParked(final CmId id)
    {
        for (final Connection connection : parked)
        {
            if (connection.id() == id)
            {
                connection.close();
                parked.remove(connection);
                return;
            }
        }
    }

    /** Detaches a connection from the paths, destroys it, then gives back what its queues held. */
    private void tearDown(final Connection connection)
    {
        tearDown(connection, false);
    }

    /** As {@link #tearDown(Connection)}, and if {@code keepId}, the rdma_cm id is left open for the caller. */
    private void tearDown(final Connection connection, final boolean keepId)
    {
        final boolean wasSending = connection == sending;
        final boolean wasReceiving = connection == receivesOf;
        if (wasSending)
        {
            sendPath.detach();
        }
        if (wasReceiving)
        {
            receivePath.detach();
        }
        if (wasSending)
        {
            toError(connection);
            sendPath.awaitFlushed(connection, FLUSH_WAIT_NANOS);
        }
        AsyncEvents.disown(connection.qp());
        if (keepId)
        {
            connection.closeQueuePair();
        }
        else
        {
            connection.close();
        }
        if (wasSending)
        {
            sendPath.drainAfterClose();
            sending = null;
        }
        if (wasReceiving)
        {
            receivePath.drainAfterClose();
            receivesOf = null;
        }
        admission.remove(connection);
        receiving = receiving == connection ? null : receiving;
        requested = requested == connection ? null : requested;
        listener.connectionChanged(sending != null || receiving != null);
    }

    private void closeAll()
    {
        for (final Connection connection : parked)
        {
            connection.close();
        }
        parked.clear();
        for (Connection open = anyConnection(); open != null; open = anyConnection())
        {
            disconnectQuietly(open);
            tearDown(open);
        }
        if (connecting != null)
        {
            connecting.close();
            connecting = null;
        }
        for (CmEvent held = heldRequests.pollFirst(); held != null; held = heldRequests.pollFirst())
        {
            reject(held.id(), null);
        }
        if (listening != null)
        {
            listening.close();
            listening = null;
        }
    }

    /** Moves the data QP to ERR, so every send in flight completes (flushed if it did not go out). */
    private static void toError(final Connection connection)
    {
        try
        {
            connection.qp().modify(QpAttr.to(QpState.ERR));
        }
        catch (final VerbsException ex)
        {
            LOG.debug("moving {} to ERR before closing it: {}", connection, ex.getMessage());
        }
    }

    private static void disconnectQuietly(final Connection connection)
    {
        try
        {
            if (connection.qp().type() != QpType.UD)
            {
                connection.id().disconnect();
            }
        }
        catch (final VerbsException ex)
        {
            LOG.debug("disconnecting {} before closing it: {}", connection, ex.getMessage());
        }
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
