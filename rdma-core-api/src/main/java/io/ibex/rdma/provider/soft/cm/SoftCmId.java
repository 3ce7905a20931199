package io.ibex.rdma.provider.soft.cm;

import io.ibex.rdma.cm.CmEvent;
import io.ibex.rdma.cm.CmEventType;
import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.cm.ConnParam;
import io.ibex.rdma.cm.EventChannel;
import io.ibex.rdma.cm.PortSpace;
import io.ibex.rdma.cm.UdParams;
import io.ibex.rdma.verbs.Context;
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
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.Objects;

import static io.ibex.rdma.provider.soft.cm.CmMessageDescriptor.*;

/**
 * A connection id of the soft connection manager, as the user sees it: the rdma_cm calls check the state and do
 * the QP transitions in the caller's thread, as librdmacm does, and leave what goes on the wire to the id's
 * {@link CmHandshake}, which runs on the channel's {@link SoftCmAgent} and reports its outcomes back here.
 * <p>
 * User threads and the agent both lock the id. It owns its state, its listening or outgoing socket (opened by
 * {@link CmSockets}), its QP, which it closes with itself, and its handshake.
 */
final class SoftCmId implements CmId
{
    /** The Q_Key librdmacm gives UD QPs of the UDP port space (RDMA_UDP_QKEY). */
    static final int RDMA_UDP_QKEY = 0x01234567;
    /** The port of the device every id uses. */
    static final int PORT_NUM = 1;

    private static final Logger LOG = LoggerFactory.getLogger(SoftCmId.class);
    private static final int ENODEV = 19;

    private final SoftEventChannel channel;
    private final CmSockets sockets;
    private final PortSpace portSpace;
    private final CmHandshake handshake;
    /** Volatile so the agent can turn away requests to an id that does not listen without waiting for it. */
    private volatile CmState state = CmState.IDLE;
    private Context context;
    private QueuePair qp;
    private InetSocketAddress localAddress;
    /** bindAddr asked for any port: the kernel's choice, which resolveAddr may trade for another. */
    private boolean anyPort;
    private InetSocketAddress remoteAddress;
    private ServerSocketChannel listenSocket;
    private SocketChannel clientSocket;

    /**
     * @param channel   the channel events go to.
     * @param portSpace the port space.
     */
    SoftCmId(final SoftEventChannel channel, final PortSpace portSpace)
    {
        this.channel = channel;
        this.sockets = channel.sockets();
        this.portSpace = Objects.requireNonNull(portSpace, "portSpace");
        this.handshake = new CmHandshake(this, channel, portSpace);
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

    @Override
    public synchronized void bindAddr(final InetSocketAddress address)
    {
        ensureOpen();
        requireState("bindAddr", CmState.IDLE);
        final InetAddress ip = sockets.requireDeviceAddress("bindAddr", address);
        final InetSocketAddress bindTo = ip.isAnyLocalAddress() ?
            new InetSocketAddress(sockets.localOf(ip), address.getPort()) : address;
        final ServerSocketChannel socket = CmSockets.openListenSocket(address, bindTo);
        try
        {
            localAddress = (InetSocketAddress)socket.getLocalAddress();
        }
        catch (final IOException ex)
        {
            CmSockets.closeQuietly(socket);
            throw new VerbsException(VerbsException.EIO, "bindAddr " + address + ": " + ex, ex);
        }
        if (!ip.isAnyLocalAddress())
        {
            context = channel.sharedContext();
        }
        listenSocket = socket;
        anyPort = address.getPort() == 0;
        state = CmState.BOUND;
        final CmListener listener = new CmListener(this, channel, portSpace);
        channel.agent().execute(() -> channel.agent().registerListener(socket, listener));
    }

    @Override
    public synchronized void listen(final int backlog)
    {
        ensureOpen();
        if (backlog < 0)
        {
            throw new VerbsException(VerbsException.EINVAL, "listen: backlog=" + backlog + " must be >= 0");
        }
        if (state == CmState.IDLE)
        {
            bindAddr(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)); // as rdma_listen binds any
        }
        requireState("listen", CmState.BOUND);
        state = CmState.LISTENING;
    }

    @Override
    public synchronized void resolveAddr(final InetSocketAddress src, final InetSocketAddress dst,
        final int timeoutMillis)
    {
        ensureOpen();
        requireState("resolveAddr", CmState.IDLE, CmState.BOUND);
        Objects.requireNonNull(dst, "resolveAddr: dst");
        remoteAddress = dst;
        if (!sockets.isReachable(dst) || (src != null && !sockets.isDeviceAddress(src)))
        {
            LOG.debug("resolveAddr {} -> {}: no soft RDMA device or route (device endpoint {})", src, dst,
                sockets.endpointAddress());
            deliver(CmEventType.ADDR_ERROR, -ENODEV, null, 0, null);
            return;
        }
        final InetSocketAddress bindTo;
        if (state == CmState.BOUND)
        {
            bindTo = localAddress; // the client's TCP socket takes over the bound address
            releaseListenSocket();
        }
        else
        {
            final InetAddress ip = src != null && !src.getAddress().isAnyLocalAddress() ? src.getAddress() :
                sockets.localOf(dst.getAddress());
            bindTo = new InetSocketAddress(ip, src != null ? src.getPort() : 0);
        }
        clientSocket = CmSockets.openClientSocket(bindTo, anyPort);
        localAddress = CmSockets.boundAddress(clientSocket, bindTo);
        context = channel.sharedContext();
        state = CmState.ADDR_RESOLVED;
        deliver(CmEventType.ADDR_RESOLVED, 0, null, 0, null);
    }

    @Override
    public synchronized void resolveRoute(final int timeoutMillis)
    {
        ensureOpen();
        requireState("resolveRoute", CmState.ADDR_RESOLVED);
        state = CmState.ROUTE_RESOLVED;
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
        requireState("connect", CmState.ROUTE_RESOLVED);
        requirePrivateData("connect", param.privateData(), maxPrivateData(TYPE_REQ, portSpace));
        requireQp("connect");
        state = CmState.CONNECTING;
        handshake.connect(param);
    }

    @Override
    public synchronized void accept(final ConnParam param)
    {
        ensureOpen();
        Objects.requireNonNull(param, "accept: param");
        requireState("accept", CmState.REQUEST_RECEIVED);
        requirePrivateData("accept", param.privateData(), maxPrivateData(TYPE_REP, portSpace));
        requireQp("accept");
        handshake.accept(param);
        state = portSpace.qpType() == QpType.UD ? CmState.ESTABLISHED : CmState.ACCEPTED;
    }

    @Override
    public synchronized void reject(final byte[] privateData)
    {
        ensureOpen();
        requireState("reject", CmState.REQUEST_RECEIVED);
        final byte[] data = privateData == null ? new byte[0] : privateData.clone();
        requirePrivateData("reject", data, maxPrivateData(rejectionType(portSpace), portSpace));
        state = CmState.FAILED;
        handshake.reject(data);
    }

    @Override
    public synchronized void disconnect()
    {
        ensureOpen();
        requireState("disconnect",
            CmState.ACCEPTED, CmState.ESTABLISHED, CmState.DISCONNECTING, CmState.DISCONNECTED);
        moveQpToError(); // as rdma_disconnect: outstanding work requests flush first
        if (portSpace.qpType() == QpType.UD)
        {
            state = CmState.DISCONNECTED; // no CM connection after SIDR: nothing to tell the peer, no event
        }
        else if (state == CmState.ACCEPTED || state == CmState.ESTABLISHED)
        {
            state = CmState.DISCONNECTING;
            handshake.disconnect();
        }
        else if (state == CmState.DISCONNECTED)
        {
            handshake.disconnect(); // answers the peer's DREQ, if not yet answered
        }
    }

    @Override
    public synchronized boolean isClosed()
    {
        return state == CmState.CLOSED;
    }

    @Override
    public void close()
    {
        final CmState previous;
        synchronized (this)
        {
            if (state == CmState.CLOSED)
            {
                return;
            }
            previous = state;
            state = CmState.CLOSED;
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

    /** @return the id's state; a volatile read, so the agent may look without the lock. */
    CmState state()
    {
        return state;
    }

    /**
     * Makes this new id the passive side of a request that arrived on a listener. Agent thread, before the id
     * is known to anyone.
     *
     * @param request the connection the REQ came on.
     * @param req     the REQ.
     * @return for the UDP port space: where the requester's QP is; otherwise null.
     * @throws IOException if the socket cannot tell its addresses.
     */
    UdParams takeRequest(final CmConnection request, final CmMessage req) throws IOException
    {
        context = channel.sharedContext();
        localAddress = (InetSocketAddress)request.socket().getLocalAddress();
        remoteAddress = (InetSocketAddress)request.socket().getRemoteAddress();
        state = CmState.REQUEST_RECEIVED;
        return handshake.takeRequest(request, req);
    }

    /** @return the socket {@link #resolveAddr} bound, which the connection takes over. Agent thread, id locked. */
    SocketChannel takeClientSocket()
    {
        final SocketChannel socket = clientSocket;
        clientSocket = null;
        return socket;
    }

    /**
     * The handshake is done: ESTABLISHED. Agent thread, id locked.
     *
     * @param privateData the peer's private data, or null.
     * @param remoteQpNum the peer's QP number.
     * @param ud          for UDP: the peer's QP; otherwise null.
     */
    void established(final byte[] privateData, final int remoteQpNum, final UdParams ud)
    {
        state = CmState.ESTABLISHED;
        deliver(CmEventType.ESTABLISHED, 0, privateData, remoteQpNum, ud);
    }

    /**
     * The connection attempt ended without a connection. Agent thread, id locked.
     *
     * @param type        the event: REJECTED, UNREACHABLE or CONNECT_ERROR.
     * @param status      the event's status.
     * @param privateData the peer's private data, or null.
     */
    void fail(final CmEventType type, final int status, final byte[] privateData)
    {
        state = CmState.FAILED;
        deliver(type, status, privateData, 0, null);
    }

    /**
     * The connection ended: DISCONNECTED. Agent thread, id locked.
     *
     * @param status the event's status.
     */
    void disconnected(final int status)
    {
        state = CmState.DISCONNECTED;
        deliver(CmEventType.DISCONNECTED, status, null, 0, null);
    }

    /** Moves a connected QP to ERR, so its outstanding work requests flush; id locked. */
    void moveQpToError()
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

    private void releaseSockets(final CmState previous)
    {
        synchronized (this)
        {
            if (listenSocket != null)
            {
                releaseListenSocket();
            }
            if (clientSocket != null)
            {
                CmSockets.closeQuietly(clientSocket);
                clientSocket = null;
            }
            handshake.release(previous);
        }
    }

    private void releaseListenSocket()
    {
        final ServerSocketChannel socket = listenSocket;
        listenSocket = null;
        channel.agent().executeAndWait(() -> channel.agent().closeListener(socket));
    }

    private void deliver(final CmEventType type, final int status, final byte[] privateData, final int remoteQpNum,
        final UdParams ud)
    {
        channel.deliver(new CmEvent(type, this, null, status, privateData, remoteQpNum, ud));
    }

    private void ensureOpen()
    {
        if (state == CmState.CLOSED)
        {
            throw new IllegalStateException(this + " is closed");
        }
    }

    private void requireState(final String operation, final CmState... allowed)
    {
        for (final CmState s : allowed)
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
}
