package io.ibex.rdma.provider.soft.cm;

import io.ibex.rdma.cm.CmEvent;
import io.ibex.rdma.cm.CmEventType;
import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.cm.ConnParam;
import io.ibex.rdma.cm.EventChannel;
import io.ibex.rdma.cm.PortSpace;
import io.ibex.rdma.cm.UdParams;
import io.ibex.rdma.provider.soft.wire.SoftGidDescriptor;
import io.ibex.rdma.provider.soft.wire.SoftLinkToken;
import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.AhAttr;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.Gid;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpInitAttr;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.VerbsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.BindException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

import static io.ibex.rdma.provider.soft.cm.CmMessageDescriptor.*;

/**
 * A connection id of the soft connection manager. User calls check the state and do the QP transitions in
 * the caller's thread, as librdmacm does; everything on the wire happens on the channel's
 * {@link SoftCmAgent}, which calls the {@code on*} methods. Both sides lock the id.
 */
final class SoftCmId implements CmId
{
    /** The Q_Key librdmacm gives UD QPs of the UDP port space (RDMA_UDP_QKEY). */
    static final int RDMA_UDP_QKEY = 0x01234567;

    private static final Logger LOG = LoggerFactory.getLogger(SoftCmId.class);
    private static final int PORT_NUM = 1;
    /** The GID-table index rdma_cm uses on RoCE v2 (the IPv4-mapped GID). */
    private static final int GID_INDEX = 1;
    private static final int LISTEN_BACKLOG = 128;
    /**
     * The RNR NAK timer the kernel's IB CM gives an RC QP at RTR (cm_init_qp_rtr_attr): 0, which encodes 655.36 ms.
     * A user who wants less changes it in RTS, as real rdma_cm leaves them no other way.
     */
    private static final int MIN_RNR_TIMER = 0;
    /** The ACK timeout of the transitions rdma_cm does (about 67 ms). */
    private static final int ACK_TIMEOUT = 14;
    private static final int ENODEV = 19;
    private static final int EADDRNOTAVAIL = 99;

    /**
     * Where an id is in the rdma_cm life cycle.
     */
    enum State
    {
        /** Created, nothing done. */
        IDLE,
        /** Bound to a local address. */
        BOUND,
        /** Listening for requests. */
        LISTENING,
        /** Destination resolved. */
        ADDR_RESOLVED,
        /** Route resolved; may connect. */
        ROUTE_RESOLVED,
        /** REQ sent, waiting for REP or REJ. */
        CONNECTING,
        /** Passive side: REQ received, waiting for accept or reject. */
        REQUEST_RECEIVED,
        /** Passive side: REP sent, waiting for RTU. */
        ACCEPTED,
        /** Connected (for UD: the SIDR exchange is done). */
        ESTABLISHED,
        /** DREQ sent, waiting for DREP. */
        DISCONNECTING,
        /** Disconnected. */
        DISCONNECTED,
        /** The connection attempt ended without a connection (rejected, unreachable, error). */
        FAILED,
        /** Closed by the user. */
        CLOSED
    }

    private final SoftEventChannel channel;
    private final PortSpace portSpace;
    private final SoftCmId listenId;
    /** Volatile so the agent can turn away requests to an id that does not listen without waiting for it. */
    private volatile State state = State.IDLE;
    private Context context;
    private QueuePair qp;
    private InetSocketAddress localAddress;
    /** bindAddr asked for any port: the kernel's choice, which resolveAddr may trade for another. */
    private boolean anyPort;
    private InetSocketAddress remoteAddress;
    private ServerSocketChannel listenSocket;
    private SocketChannel clientSocket;
    private CmConnection connection;
    private ConnParam localParam;
    /** Passive side of a connected port space: the link token it drew, which its REP carries. */
    private byte[] linkToken;
    private int localPsn;
    private int peerQpNum;
    private int peerPsn;
    private int peerQkey;
    private Gid peerGid;
    private int peerRetryCount;
    private int peerRnrRetryCount;

    /**
     * @param channel   the channel events go to.
     * @param portSpace the port space.
     * @param listenId  for an id made by a connection request: the listening id; otherwise null.
     */
    SoftCmId(final SoftEventChannel channel, final PortSpace portSpace, final SoftCmId listenId)
    {
        this.channel = channel;
        this.portSpace = Objects.requireNonNull(portSpace, "portSpace");
        this.listenId = listenId;
    }

    @Override
    public EventChannel channel()
    {
        return channel;
    }

    @Override
    public PortSpace portSpace()
    {
        return portSpace;
    }

    @Override
    public synchronized Context context()
    {
        return context;
    }

    @Override
    public synchronized QueuePair qp()
    {
        return qp;
    }

    @Override
    public synchronized InetSocketAddress localAddress()
    {
        return localAddress;
    }

    @Override
    public synchronized InetSocketAddress remoteAddress()
    {
        return remoteAddress;
    }

    /** @return the channel, with its agent and settings. */
    SoftEventChannel softChannel()
    {
        return channel;
    }

    @Override
    public synchronized void bindAddr(final InetSocketAddress address)
    {
        ensureOpen();
        requireState("bindAddr", State.IDLE);
        final InetAddress ip = requireDeviceAddress("bindAddr", address);
        final InetSocketAddress bindTo = ip.isAnyLocalAddress() ?
            new InetSocketAddress(localOf(ip), address.getPort()) : address;
        final ServerSocketChannel socket = openListenSocket(address, bindTo);
        try
        {
            localAddress = (InetSocketAddress)socket.getLocalAddress();
        }
        catch (final IOException ex)
        {
            closeQuietly(socket);
            throw new VerbsException(VerbsException.EIO, "bindAddr " + address + ": " + ex, ex);
        }
        if (!ip.isAnyLocalAddress())
        {
            context = channel.sharedContext();
        }
        listenSocket = socket;
        anyPort = address.getPort() == 0;
        state = State.BOUND;
        channel.agent().execute(() -> channel.agent().registerListener(socket, this));
    }

    @Override
    public synchronized void listen(final int backlog)
    {
        ensureOpen();
        if (backlog < 0)
        {
            throw new VerbsException(VerbsException.EINVAL, "listen: backlog=" + backlog + " must be >= 0");
        }
        if (state == State.IDLE)
        {
            bindAddr(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)); // as rdma_listen binds any
        }
        requireState("listen", State.BOUND);
        state = State.LISTENING;
    }

    @Override
    public synchronized void resolveAddr(final InetSocketAddress src, final InetSocketAddress dst,
        final int timeoutMillis)
    {
        ensureOpen();
        requireState("resolveAddr", State.IDLE, State.BOUND);
        Objects.requireNonNull(dst, "resolveAddr: dst");
        remoteAddress = dst;
        if (!isReachable(dst) || (src != null && !isDeviceAddress(src)))
        {
            LOG.debug("resolveAddr {} -> {}: no soft RDMA device or route (device endpoint {})", src, dst,
                endpointAddress());
            deliver(CmEventType.ADDR_ERROR, -ENODEV, null, 0, null);
            return;
        }
        final InetSocketAddress bindTo;
        if (state == State.BOUND)
        {
            bindTo = localAddress; // the client's TCP socket takes over the bound address
            releaseListenSocket();
        }
        else
        {
            final InetAddress ip = src != null && !src.getAddress().isAnyLocalAddress() ? src.getAddress() :
                localOf(dst.getAddress());
            bindTo = new InetSocketAddress(ip, src != null ? src.getPort() : 0);
        }
        clientSocket = openClientSocket(bindTo, anyPort);
        localAddress = boundAddress(clientSocket, bindTo);
        context = channel.sharedContext();
        state = State.ADDR_RESOLVED;
        deliver(CmEventType.ADDR_RESOLVED, 0, null, 0, null);
    }

    @Override
    public synchronized void resolveRoute(final int timeoutMillis)
    {
        ensureOpen();
        requireState("resolveRoute", State.ADDR_RESOLVED);
        state = State.ROUTE_RESOLVED;
        deliver(CmEventType.ROUTE_RESOLVED, 0, null, 0, null);
    }

    @Override
    public synchronized QueuePair createQp(final ProtectionDomain pd, final QpInitAttr initAttr)
    {
        ensureOpen();
        Objects.requireNonNull(pd, "createQp: pd");
        Objects.requireNonNull(initAttr, "createQp: initAttr");
        if (qp != null)
        {
            throw new VerbsException(VerbsException.EINVAL, "createQp: " + this + " already has QP " + qp.qpNum());
        }
        if (context == null)
        {
            throw new VerbsException(VerbsException.EINVAL, "createQp: " + this + " in state " + state +
                " has no device yet (resolve an address, bind to a device address, or use a CONNECT_REQUEST id)");
        }
        if (pd.context() != context)
        {
            throw new VerbsException(VerbsException.EINVAL,
                "createQp: the protection domain belongs to another device context than " + this);
        }
        if (initAttr.type() != portSpace.qpType())
        {
            throw new VerbsException(VerbsException.EINVAL, "createQp: QP type " + initAttr.type() +
                " does not match port space " + portSpace + " (needs " + portSpace.qpType() + ")");
        }
        final QueuePair created = pd.createQp(initAttr);
        try
        {
            if (portSpace.qpType() == QpType.UD)
            {
                created.modify(QpAttr.initUd(PORT_NUM, RDMA_UDP_QKEY));
                created.modify(QpAttr.to(QpState.RTR));
                created.modify(QpAttr.to(QpState.RTS).sqPsn(0));
            }
            else
            {
                created.modify(QpAttr.init(PORT_NUM, 0)); // rdma_cm grants remote access at RTR
            }
        }
        catch (final RuntimeException ex)
        {
            created.close();
            throw ex;
        }
        qp = created;
        return created;
    }

    @Override
    public synchronized void connect(final ConnParam param)
    {
        ensureOpen();
        Objects.requireNonNull(param, "connect: param");
        requireState("connect", State.ROUTE_RESOLVED);
        requirePrivateData("connect", param.privateData(), maxPrivateData(TYPE_REQ, portSpace));
        requireQp("connect");
        localParam = param;
        localPsn = randomPsn();
        state = State.CONNECTING;
        channel.agent().execute(this::startConnect);
    }

    @Override
    public synchronized void accept(final ConnParam param)
    {
        ensureOpen();
        Objects.requireNonNull(param, "accept: param");
        requireState("accept", State.REQUEST_RECEIVED);
        requirePrivateData("accept", param.privateData(), maxPrivateData(TYPE_REP, portSpace));
        requireQp("accept");
        localParam = param;
        localPsn = randomPsn();
        if (portSpace.qpType() != QpType.UD)
        {
            linkToken = SoftLinkToken.generate();
            qp.bindLinkToken(linkToken);
            // as rdma_accept: the passive QP is ready before the REP leaves; counts come from the REQ
            moveToRts(peerRetryCount, peerRnrRetryCount);
        }
        state = portSpace.qpType() == QpType.UD ? State.ESTABLISHED : State.ACCEPTED;
        channel.agent().execute(this::sendReply);
    }

    @Override
    public synchronized void reject(final byte[] privateData)
    {
        ensureOpen();
        requireState("reject", State.REQUEST_RECEIVED);
        final byte[] data = privateData == null ? new byte[0] : privateData.clone();
        requirePrivateData("reject", data, maxPrivateData(rejectionType(portSpace), portSpace));
        state = State.FAILED;
        channel.agent().execute(() -> sendRejectAndClose(data));
    }

    @Override
    public synchronized void disconnect()
    {
        ensureOpen();
        requireState("disconnect", State.ACCEPTED, State.ESTABLISHED, State.DISCONNECTING, State.DISCONNECTED);
        moveQpToError(); // as rdma_disconnect: outstanding work requests flush first
        if (portSpace.qpType() == QpType.UD)
        {
            state = State.DISCONNECTED; // no CM connection after SIDR: nothing to tell the peer, no event
        }
        else if (state == State.ACCEPTED || state == State.ESTABLISHED)
        {
            state = State.DISCONNECTING;
            channel.agent().execute(this::sendDisconnectRequest);
        }
        else if (state == State.DISCONNECTED)
        {
            channel.agent().execute(this::sendDisconnectReply); // answers the peer's DREQ, if not yet answered
        }
    }

    @Override
    public synchronized boolean isClosed()
    {
        return state == State.CLOSED;
    }

    @Override
    public void close()
    {
        final State previous;
        synchronized (this)
        {
            if (state == State.CLOSED)
            {
                return;
            }
            previous = state;
            state = State.CLOSED;
        }
        channel.agent().executeAndWait(() -> releaseSockets(previous));
        final QueuePair ownQp;
        synchronized (this)
        {
            ownQp = qp;
            qp = null;
        }
        if (ownQp != null)
        {
            ownQp.close();
        }
        channel.remove(this);
    }

    @Override
    public String toString()
    {
        return "cm id [" + portSpace + ' ' + localAddress + " -> " + remoteAddress + ']';
    }

    /**
     * A REQ arrived on a socket this id accepted. Agent thread.
     *
     * @param request the socket.
     * @param message the REQ.
     */
    void onRequest(final CmConnection request, final CmMessage message)
    {
        // checked before locking: a user thread holding a bound id's lock may be waiting for this thread
        if (state != State.LISTENING || message.portSpace() != portSpace)
        {
            sendNoListener(request, message.portSpace());
            return;
        }
        synchronized (this)
        {
            if (state == State.LISTENING)
            {
                acceptRequest(request, message);
            }
            else
            {
                sendNoListener(request, message.portSpace());
            }
        }
    }

    private void acceptRequest(final CmConnection request, final CmMessage message)
    {
        final SoftCmId id = new SoftCmId(channel, portSpace, this);
        try
        {
            id.takeRequest(request, message, channel.sharedContext());
        }
        catch (final IOException | RuntimeException ex)
        {
            LOG.warn("{}: cannot take a connection request", request, ex);
            channel.agent().closeConnection(request);
            return;
        }
        channel.add(id);
        request.id(id);
        channel.deliver(new CmEvent(CmEventType.CONNECT_REQUEST, id, this, 0, message.deliveredPrivateData(),
            message.qpNum(), id.peerUdParams()));
    }

    /**
     * The TCP connection of {@link #connect} is up: send the REQ. Agent thread.
     *
     * @param connected the connection.
     * @throws IOException if the socket failed.
     */
    synchronized void onTransportConnected(final CmConnection connected) throws IOException
    {
        if (connection != connected || state != State.CONNECTING)
        {
            return;
        }
        final CmMessage req = connected.begin(TYPE_REQ, portSpace);
        fillEndpoint(req).privateData(localParam.privateData());
        connected.send();
    }

    /**
     * The TCP connection of {@link #connect} was refused: nothing listens there. Agent thread.
     *
     * @param refused the connection.
     * @param cause   the socket error.
     */
    synchronized void onConnectFailed(final CmConnection refused, final IOException cause)
    {
        if (connection != refused || state != State.CONNECTING)
        {
            return;
        }
        connection = null;
        LOG.debug("{}: connecting failed: {}", this, cause.toString());
        if (portSpace.qpType() == QpType.UD)
        {
            fail(CmEventType.UNREACHABLE, SIDR_UNSUPPORTED, new byte[SIDR_REP_PRIVATE_DATA]);
        }
        else
        {
            rejected(REJ_INVALID_SERVICE_ID, new byte[ConnParam.MAX_REJECT_PRIVATE_DATA]);
        }
    }

    /**
     * A message arrived on this id's connection. Agent thread.
     *
     * @param from    the connection.
     * @param message the message, valid during the call.
     * @throws CmProtocolException if the message is not allowed in the current state.
     */
    synchronized void onMessage(final CmConnection from, final CmMessage message) throws CmProtocolException
    {
        if (from != connection || state == State.CLOSED)
        {
            return; // a closed id's connection is being released: late messages mean nothing
        }
        if (message.portSpace() != portSpace)
        {
            throw new CmProtocolException(typeName(message.type()) + " of port space " + message.portSpace() +
                " on a " + portSpace + " connection");
        }
        try
        {
            handle(message);
        }
        catch (final CmProtocolException ex)
        {
            throw ex;
        }
        catch (final IOException ex)
        {
            dropConnection("I/O error: " + ex);
        }
    }

    /**
     * The connection ended without the CM's consent: peer death, reset, or a malformed message. Agent
     * thread.
     *
     * @param lost   the connection.
     * @param reason why, for the log.
     */
    synchronized void onTransportLost(final CmConnection lost, final String reason)
    {
        if (lost != connection)
        {
            return;
        }
        connection = null;
        LOG.debug("{} in state {}: {}", this, state, reason);
        switch (state)
        {
            case CONNECTING:
                fail(CmEventType.UNREACHABLE, -VerbsException.ETIMEDOUT, null);
                break;
            case REQUEST_RECEIVED:
            case ACCEPTED:
                // the requester gave up on its request (or died): an accept or reject from now on gets EINVAL
                rejected(CmEvent.REJ_TIMEOUT, null);
                break;
            case ESTABLISHED:
                if (portSpace.qpType() != QpType.UD)
                {
                    moveQpToError(); // the peer died: nothing will answer this QP any more
                    disconnected(0);
                }
                break;
            case DISCONNECTING:
                disconnected(0);
                break;
            default:
                break;
        }
    }

    /**
     * The awaited reply did not come in time. Agent thread.
     *
     * @param late the connection.
     */
    synchronized void onTimeout(final CmConnection late)
    {
        if (late != connection)
        {
            return;
        }
        LOG.debug("{}: no reply within {} ms in state {}", this, channel.replyTimeoutNs() / 1_000_000, state);
        closeConnection();
        if (state == State.DISCONNECTING)
        {
            disconnected(-VerbsException.ETIMEDOUT);
        }
        else if (state == State.CONNECTING || state == State.ACCEPTED)
        {
            fail(CmEventType.UNREACHABLE, -VerbsException.ETIMEDOUT, null);
        }
    }

    private void handle(final CmMessage message) throws IOException
    {
        final int type = message.type();
        if (state == State.CONNECTING && type == TYPE_REP)
        {
            onReply(message);
        }
        else if ((state == State.CONNECTING || state == State.ACCEPTED) && type == TYPE_REJ)
        {
            closeConnection();
            rejected(message.status(), message.deliveredPrivateData());
        }
        else if (state == State.ACCEPTED && type == TYPE_RTU)
        {
            connection.deadlineNs(Long.MAX_VALUE);
            state = State.ESTABLISHED;
            deliver(CmEventType.ESTABLISHED, 0, null, peerQpNum, null);
        }
        else if (state == State.ESTABLISHED && type == TYPE_DREQ)
        {
            // as the IB CM: the QP is left alone and the DREP waits for this side's disconnect (or close)
            connection.deadlineNs(Long.MAX_VALUE);
            disconnected(0);
        }
        else if (state == State.DISCONNECTING && type == TYPE_DREQ)
        {
            connection.begin(TYPE_DREP, portSpace); // both sides disconnected at once: each answers the other
            connection.send();
            finishConnection();
            disconnected(0);
        }
        else if (state == State.DISCONNECTING && type == TYPE_DREP)
        {
            closeConnection();
            disconnected(0);
        }
        else
        {
            throw new CmProtocolException("unexpected " + typeName(type) + " for " + this + " in state " + state);
        }
    }

    private void onReply(final CmMessage rep) throws IOException
    {
        final byte[] privateData = rep.deliveredPrivateData();
        if (portSpace.qpType() == QpType.UD)
        {
            closeConnection();
            if (rep.status() != SIDR_SUCCESS)
            {
                fail(CmEventType.UNREACHABLE, rep.status(), privateData);
                return;
            }
            state = State.ESTABLISHED;
            deliver(CmEventType.ESTABLISHED, 0, privateData, rep.qpNum(),
                new UdParams(rep.qpNum(), rep.qkey(), AhAttr.global(PORT_NUM, rep.gid(), GID_INDEX)));
            return;
        }
        takePeer(rep);
        try
        {
            qp.bindLinkToken(rep.linkToken());
            // the IB CM way: own retry count, the RNR retry count the passive side asked for
            moveToRts(localParam.retryCount(), rep.rnrRetryCount());
        }
        catch (final RuntimeException ex)
        {
            LOG.warn("{}: cannot move the QP to RTS after the REP", this, ex);
            connection.begin(TYPE_REJ, portSpace).status(REJ_CONSUMER_DEFINED).privateData(new byte[0]);
            connection.send();
            finishConnection();
            fail(CmEventType.CONNECT_ERROR, -errnoOf(ex), null);
            return;
        }
        connection.deadlineNs(Long.MAX_VALUE);
        connection.begin(TYPE_RTU, portSpace);
        connection.send();
        state = State.ESTABLISHED;
        deliver(CmEventType.ESTABLISHED, 0, privateData, peerQpNum, null);
    }

    private void takeRequest(final CmConnection request, final CmMessage req, final Context sharedContext)
        throws IOException
    {
        connection = request;
        context = sharedContext;
        localAddress = (InetSocketAddress)request.socket().getLocalAddress();
        remoteAddress = (InetSocketAddress)request.socket().getRemoteAddress();
        takePeer(req);
        state = State.REQUEST_RECEIVED;
    }

    private void takePeer(final CmMessage message)
    {
        peerQpNum = message.qpNum();
        peerPsn = message.startPsn();
        peerQkey = message.qkey();
        peerGid = message.gid();
        peerRetryCount = message.retryCount();
        peerRnrRetryCount = message.rnrRetryCount();
    }

    private UdParams peerUdParams()
    {
        return portSpace.qpType() == QpType.UD ?
            new UdParams(peerQpNum, peerQkey, AhAttr.global(PORT_NUM, peerGid, GID_INDEX)) : null;
    }

    private void startConnect()
    {
        synchronized (this)
        {
            if (state != State.CONNECTING)
            {
                return;
            }
            final CmConnection started = new CmConnection(clientSocket, this, null);
            clientSocket = null;
            connection = started;
            started.deadlineNs(System.nanoTime() + channel.replyTimeoutNs());
            try
            {
                final boolean connected = started.socket().connect(remoteAddress);
                channel.agent().registerConnection(started, connected ? SelectionKey.OP_READ :
                    SelectionKey.OP_CONNECT);
                if (connected)
                {
                    onTransportConnected(started);
                }
            }
            catch (final IOException ex)
            {
                channel.agent().closeConnection(started);
                onConnectFailed(started, ex);
            }
        }
    }

    private synchronized void sendReply()
    {
        if (connection == null)
        {
            if (state == State.ACCEPTED || state == State.ESTABLISHED)
            {
                fail(CmEventType.UNREACHABLE, -VerbsException.ETIMEDOUT, null);
            }
            return;
        }
        if (state == State.ACCEPTED || state == State.ESTABLISHED)
        {
            writeReply();
        }
    }

    private void writeReply()
    {
        try
        {
            final CmMessage rep = connection.begin(TYPE_REP, portSpace);
            fillEndpoint(rep).status(SIDR_SUCCESS).privateData(localParam.privateData());
            if (linkToken != null)
            {
                rep.linkToken(linkToken);
            }
            connection.send();
            if (portSpace.qpType() == QpType.UD)
            {
                finishConnection(); // SIDR is over: the passive side gets no ESTABLISHED, as with rdma_cm
            }
            else
            {
                connection.deadlineNs(System.nanoTime() + channel.replyTimeoutNs());
            }
        }
        catch (final IOException ex)
        {
            dropConnection("I/O error: " + ex);
        }
    }

    private synchronized void sendRejectAndClose(final byte[] privateData)
    {
        if (connection != null)
        {
            sendRejection(connection, portSpace,
                portSpace.qpType() == QpType.UD ? SIDR_REJECT : REJ_CONSUMER_DEFINED, privateData);
            connection = null;
        }
    }

    private synchronized void sendDisconnectRequest()
    {
        if (state != State.DISCONNECTING || connection == null)
        {
            return;
        }
        try
        {
            connection.begin(TYPE_DREQ, portSpace);
            connection.send();
            connection.deadlineNs(System.nanoTime() + channel.replyTimeoutNs());
        }
        catch (final IOException ex)
        {
            dropConnection("I/O error: " + ex);
        }
    }

    private synchronized void sendDisconnectReply()
    {
        if (state != State.DISCONNECTED || connection == null)
        {
            return;
        }
        try
        {
            connection.begin(TYPE_DREP, portSpace);
            connection.send();
            finishConnection();
        }
        catch (final IOException ex)
        {
            dropConnection("I/O error: " + ex);
        }
    }

    private void sendNoListener(final CmConnection request, final PortSpace requested)
    {
        LOG.debug("{}: no {} listener for a REQ of port space {}", request, portSpace, requested);
        final boolean sidr = requested.qpType() == QpType.UD;
        sendRejection(request, requested, sidr ? SIDR_UNSUPPORTED : REJ_INVALID_SERVICE_ID, new byte[0]);
    }

    /** A rejection is a REJ, or for SIDR a REP with a failure status; the connection closes after it. */
    private void sendRejection(final CmConnection to, final PortSpace space, final int status, final byte[] data)
    {
        try
        {
            to.begin(rejectionType(space), space).status(status).privateData(data);
            to.send();
            to.closeWhenFlushed();
        }
        catch (final IOException ex)
        {
            LOG.debug("{}: rejection not delivered: {}", to, ex.toString());
            channel.agent().closeConnection(to);
        }
    }

    private void releaseSockets(final State previous)
    {
        synchronized (this)
        {
            if (listenSocket != null)
            {
                releaseListenSocket();
            }
            if (clientSocket != null)
            {
                closeQuietly(clientSocket);
                clientSocket = null;
            }
            if (connection == null)
            {
                return;
            }
            if (previous == State.ESTABLISHED && portSpace.qpType() == QpType.UD)
            {
                // the SIDR REP of an accept this close overtook: rdma_accept's is out before it returns
                writeReply();
                return;
            }
            if (previous == State.REQUEST_RECEIVED)
            {
                sendRejectAndClose(new byte[0]); // as rdma_destroy_id on an unanswered request
                return;
            }
            // as rdma_destroy_id: a connected id sends a DREQ, one that was asked to disconnect its DREP
            final boolean connected = previous == State.ESTABLISHED || previous == State.ACCEPTED;
            if (connected || previous == State.DISCONNECTED)
            {
                try
                {
                    connection.begin(connected ? TYPE_DREQ : TYPE_DREP, portSpace);
                    connection.send();
                    finishConnection();
                    return;
                }
                catch (final IOException ex)
                {
                    LOG.debug("{}: farewell on close not delivered: {}", this, ex.toString());
                }
            }
            closeConnection();
        }
    }

    private void releaseListenSocket()
    {
        final ServerSocketChannel socket = listenSocket;
        listenSocket = null;
        channel.agent().executeAndWait(() -> channel.agent().closeListener(socket));
    }

    private void moveToRts(final int retryCount, final int rnrRetryCount)
    {
        final boolean rc = portSpace.qpType() == QpType.RC;
        final int access = AccessFlags.REMOTE_WRITE |
            (rc && localParam.responderResources() > 0 ? AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC : 0);
        final QpAttr rtr = new QpAttr().state(QpState.RTR)
            .ahAttr(AhAttr.global(PORT_NUM, peerGid, GID_INDEX))
            .pathMtu(context.queryPort(PORT_NUM).activeMtu())
            .destQpNum(peerQpNum)
            .rqPsn(peerPsn)
            .accessFlags(access);
        final QpAttr rts = new QpAttr().state(QpState.RTS).sqPsn(localPsn);
        if (rc)
        {
            rtr.maxDestRdAtomic(localParam.responderResources()).minRnrTimer(MIN_RNR_TIMER);
            rts.timeout(ACK_TIMEOUT).retryCnt(retryCount).rnrRetry(rnrRetryCount)
                .maxRdAtomic(localParam.initiatorDepth());
        }
        qp.modify(rtr);
        qp.modify(rts);
    }

    private CmMessage fillEndpoint(final CmMessage message)
    {
        return message
            .qpNum(qp.qpNum())
            .startPsn(localPsn)
            .qkey(portSpace.qpType() == QpType.UD ? RDMA_UDP_QKEY : 0)
            .gid(context.queryGid(PORT_NUM, GID_INDEX))
            .resources(localParam.responderResources(), localParam.initiatorDepth(), localParam.retryCount(),
                localParam.rnrRetryCount());
    }

    private void fail(final CmEventType type, final int status, final byte[] privateData)
    {
        state = State.FAILED;
        deliver(type, status, privateData, 0, null);
    }

    /** As rdma_cm on a REJ: the QP goes to ERR before the user hears of it. */
    private void rejected(final int reason, final byte[] privateData)
    {
        moveQpToError();
        fail(CmEventType.REJECTED, reason, privateData);
    }

    private void disconnected(final int status)
    {
        state = State.DISCONNECTED;
        deliver(CmEventType.DISCONNECTED, status, null, 0, null);
    }

    private void closeConnection()
    {
        if (connection != null)
        {
            channel.agent().closeConnection(connection);
            connection = null;
        }
    }

    /** Closes the connection once the last message sent on it is out; the peer's EOF then means nothing. */
    private void finishConnection() throws IOException
    {
        final CmConnection finished = connection;
        connection = null;
        finished.closeWhenFlushed();
    }

    /** Drops the connection as if the peer went away, so the state machine reports what it would then. */
    private void dropConnection(final String reason)
    {
        final CmConnection lost = connection;
        channel.agent().closeConnection(lost);
        onTransportLost(lost, reason);
    }

    private void moveQpToError()
    {
        if (qp != null && qp.state() != QpState.ERR && portSpace.qpType() != QpType.UD)
        {
            try
            {
                qp.modify(QpAttr.to(QpState.ERR));
            }
            catch (final RuntimeException ex)
            {
                LOG.warn("{}: cannot move QP {} to ERR", this, qp.qpNum(), ex);
            }
        }
    }

    private void deliver(final CmEventType type, final int status, final byte[] privateData, final int remoteQpNum,
        final UdParams ud)
    {
        channel.deliver(new CmEvent(type, this, null, status, privateData, remoteQpNum, ud));
    }

    private void ensureOpen()
    {
        if (state == State.CLOSED)
        {
            throw new IllegalStateException(this + " is closed");
        }
    }

    private void requireState(final String operation, final State... allowed)
    {
        for (final State s : allowed)
        {
            if (state == s)
            {
                return;
            }
        }
        throw new VerbsException(VerbsException.EINVAL, operation + " on " + this + " in state " + state +
            " (allowed in " + Arrays.toString(allowed) + ")");
    }

    private void requireQp(final String operation)
    {
        if (qp == null)
        {
            throw new VerbsException(VerbsException.EINVAL, operation + " on " + this +
                " needs a queue pair: call createQp first");
        }
    }

    private static void requirePrivateData(final String operation, final byte[] data, final int max)
    {
        if (data.length > max)
        {
            throw new VerbsException(VerbsException.EINVAL, operation + ": private data of " + data.length +
                " bytes exceeds the limit of " + max + " bytes");
        }
    }

    private InetAddress requireDeviceAddress(final String operation, final InetSocketAddress address)
    {
        Objects.requireNonNull(address, operation + ": address");
        final InetAddress ip = address.getAddress();
        if (ip == null)
        {
            throw new VerbsException(VerbsException.EINVAL, operation + ": address " + address + " is unresolved");
        }
        if (!isDeviceAddress(address))
        {
            throw new VerbsException(EADDRNOTAVAIL, operation + ": no soft RDMA device has address " + address +
                " (the soft device serves the loopback addresses and its endpoint address " + endpointAddress() +
                ", set by -Dibex.soft.address)");
        }
        return ip;
    }

    private boolean isDeviceAddress(final InetSocketAddress address)
    {
        final InetAddress ip = address.getAddress();
        return ip != null && (ip.isLoopbackAddress() || ip.isAnyLocalAddress() || ip.equals(endpointAddress()));
    }

    /**
     * A destination is reachable when it is one of the device's own addresses, or, once the device's endpoint
     * is on a real network (-Dibex.soft.address), any host: by default nothing leaves the machine.
     */
    private boolean isReachable(final InetSocketAddress address)
    {
        return isDeviceAddress(address) || (address.getAddress() != null && !endpointAddress().isLoopbackAddress());
    }

    /** The IPv4 address of the soft device's data endpoint, which its GIDs encode. */
    private InetAddress endpointAddress()
    {
        return SoftGidDescriptor.toSocketAddress(channel.sharedContext().queryGid(1, 1)).getAddress();
    }

    /** A wildcard stands for the endpoint address, or the loopback address of its family. */
    private InetAddress localOf(final InetAddress address)
    {
        final InetAddress endpoint = endpointAddress();
        return endpoint.isLoopbackAddress() || address instanceof Inet6Address ? loopbackOf(address) : endpoint;
    }

    private static ServerSocketChannel openListenSocket(final InetSocketAddress requested,
        final InetSocketAddress bindTo)
    {
        ServerSocketChannel socket = null;
        try
        {
            socket = ServerSocketChannel.open();
            socket.configureBlocking(false);
            socket.bind(bindTo, LISTEN_BACKLOG); // binds and listens: a second bind fails even with SO_REUSEADDR
            return socket;
        }
        catch (final BindException ex)
        {
            closeQuietly(socket);
            throw new VerbsException(VerbsException.EADDRINUSE, "bindAddr: address " + requested +
                " is already in use", ex);
        }
        catch (final IOException ex)
        {
            closeQuietly(socket);
            throw new VerbsException(VerbsException.EIO, "bindAddr " + requested + ": " + ex, ex);
        }
    }

    /**
     * Opens the TCP socket a connection goes out on. Between a listener's close and this bind another socket on the
     * host may take the port, so a port the kernel chose is traded for another rather than failing the resolve.
     */
    private static SocketChannel openClientSocket(final InetSocketAddress bindTo, final boolean anyPort)
    {
        SocketChannel socket = null;
        try
        {
            socket = SocketChannel.open();
            socket.configureBlocking(false);
            socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
            socket.bind(bindTo);
            return socket;
        }
        catch (final BindException ex)
        {
            closeQuietly(socket);
            if (anyPort && bindTo.getPort() != 0)
            {
                LOG.debug("resolveAddr: port {} was taken after the kernel gave it; binding another", bindTo);
                return openClientSocket(new InetSocketAddress(bindTo.getAddress(), 0), false);
            }
            throw new VerbsException(VerbsException.EADDRINUSE, "resolveAddr: source address " + bindTo +
                " is already in use", ex);
        }
        catch (final IOException ex)
        {
            closeQuietly(socket);
            throw new VerbsException(VerbsException.EIO, "resolveAddr from " + bindTo + ": " + ex, ex);
        }
    }

    private static InetAddress loopbackOf(final InetAddress address)
    {
        try
        {
            return address instanceof Inet6Address ? InetAddress.getByName("::1") : InetAddress.getByName("127.0.0.1");
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalStateException(ex); // literals never need a lookup
        }
    }

    private static InetSocketAddress boundAddress(final SocketChannel socket, final InetSocketAddress requested)
    {
        try
        {
            return (InetSocketAddress)socket.getLocalAddress();
        }
        catch (final IOException ex)
        {
            return requested;
        }
    }

    private static int randomPsn()
    {
        return ThreadLocalRandom.current().nextInt() & 0xffffff;
    }

    private static int errnoOf(final RuntimeException ex)
    {
        return ex instanceof VerbsException ? ((VerbsException)ex).errno() : VerbsException.EINVAL;
    }

    private static void closeQuietly(final AutoCloseable closeable)
    {
        if (closeable != null)
        {
            try
            {
                closeable.close();
            }
            catch (final Exception ignore)
            {
                // releasing after a failure: the first error is the one reported
            }
        }
    }
}
