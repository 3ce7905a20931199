package io.ibex.rdma.provider.disni;

import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.cm.ConnParam;
import io.ibex.rdma.cm.EventChannel;
import io.ibex.rdma.cm.PortSpace;
import io.ibex.rdma.spi.ProviderResource;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.QpInitAttr;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.VerbsException;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Objects;

/**
 * An rdma_cm id: bind, listen, address and route resolution, the QP on the id, connect and accept with every
 * connection parameter and private data, reject, disconnect and destroy, through IbexNative. Calls that librdmacm would make with a NULL device
 * (route, connect, accept, disconnect before an address is bound or resolved) are refused here with EINVAL.
 */
final class DisniCmId extends ProviderResource implements CmId
{
    private static final int EAFNOSUPPORT = 97;
    private static final int AF_INET = 2;

    private final DisniEventChannel channel;
    private final PortSpace portSpace;
    private final long handle;
    private DisniQueuePair qp;

    DisniCmId(final DisniEventChannel channel, final PortSpace portSpace, final long handle)
    {
        super(channel);
        this.channel = channel;
        this.portSpace = portSpace;
        this.handle = handle;
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
        final long device = isClosed() ? 0 : deviceHandle();
        return device == 0 ? null : channel.provider().device(device).sharedContext();
    }

    @Override
    public synchronized QueuePair qp()
    {
        return qp;
    }

    @Override
    public synchronized InetSocketAddress localAddress()
    {
        return address(false);
    }

    @Override
    public synchronized InetSocketAddress remoteAddress()
    {
        return address(true);
    }

    @Override
    public synchronized void bindAddr(final InetSocketAddress address)
    {
        ensureOpen();
        Objects.requireNonNull(address, "bindAddr: address");
        requireIpv4("bindAddr", address);
        IbexNative.cmBindAddr(handle, address.getAddress().getAddress(), address.getPort());
    }

    @Override
    public synchronized void listen(final int backlog)
    {
        ensureOpen();
        if (backlog < 0)
        {
            throw new VerbsException(VerbsException.EINVAL, "listen: backlog=" + backlog + " must be >= 0");
        }
        IbexNative.cmListen(handle, backlog);
    }

    /**
     * A source address is bound first (rdma_bind_addr), as rdma_resolve_addr would bind it.
     */
    @Override
    public synchronized void resolveAddr(final InetSocketAddress src, final InetSocketAddress dst,
        final int timeoutMillis)
    {
        ensureOpen();
        Objects.requireNonNull(dst, "resolveAddr: dst");
        requireIpv4("resolveAddr", dst);
        if (src != null)
        {
            bindAddr(src);
        }
        IbexNative.cmResolveAddr(handle, dst.getAddress().getAddress(), dst.getPort(), timeoutMillis);
    }

    @Override
    public synchronized void resolveRoute(final int timeoutMillis)
    {
        ensureOpen();
        requireDevice("resolveRoute");
        IbexNative.cmResolveRoute(handle, timeoutMillis);
    }

    /**
     * UC cannot be connected through rdma_cm with librdmacm's public API: rdma_create_id types the kernel's id
     * by the port space alone (RC for RDMA_PS_IB), and the kernel's CM then moves the QP with RC-only
     * attributes, which a UC QP refuses at rdma_accept (EINVAL). So the QP type must be the port space's.
     */
    @Override
    public synchronized QueuePair createQp(final ProtectionDomain pd, final QpInitAttr initAttr)
    {
        ensureOpen();
        Objects.requireNonNull(pd, "createQp: pd");
        Objects.requireNonNull(initAttr, "createQp: initAttr");
        if (qp != null)
        {
            throw new VerbsException(VerbsException.EINVAL, "createQp: " + this + " already has " + qp);
        }
        final long device = requireDevice("createQp");
        if (!(pd instanceof DisniProtectionDomain) || ((DisniProtectionDomain)pd).disniContext().disniDevice()
            .handle() != device)
        {
            throw new VerbsException(VerbsException.EINVAL, "createQp: " + pd + " is not on the device of " + this);
        }
        if (initAttr.type() != portSpace.qpType())
        {
            throw new VerbsException(VerbsException.EINVAL, "createQp: QP type " + initAttr.type() +
                " does not match port space " + portSpace + " (needs " + portSpace.qpType() + ")");
        }
        qp = ((DisniProtectionDomain)pd).createCmQp(handle, initAttr);
        return qp;
    }

    @Override
    public synchronized void connect(final ConnParam param)
    {
        ensureOpen();
        Objects.requireNonNull(param, "connect: param");
        requireDevice("connect");
        requireQp("connect");
        IbexNative.cmConnect(handle, values(param), param.privateData());
        qp.forgetState();
    }

    @Override
    public synchronized void accept(final ConnParam param)
    {
        ensureOpen();
        Objects.requireNonNull(param, "accept: param");
        requireDevice("accept");
        requireQp("accept");
        IbexNative.cmAccept(handle, values(param), param.privateData());
        qp.forgetState();
    }

    @Override
    public synchronized void reject(final byte[] privateData)
    {
        ensureOpen();
        requireDevice("reject");
        IbexNative.cmReject(handle, privateData);
    }

    @Override
    public synchronized void disconnect()
    {
        ensureOpen();
        requireDevice("disconnect");
        IbexNative.cmDisconnect(handle);
        if (qp != null)
        {
            qp.forgetState();
        }
    }

    long handle()
    {
        return handle;
    }

    /**
     * An event for this id arrived: librdmacm may have moved its QP.
     */
    synchronized void onEvent()
    {
        if (qp != null)
        {
            qp.forgetState();
        }
    }

    @Override
    protected String describe()
    {
        return "rdma_cm id 0x" + Long.toHexString(handle) + " [" + portSpace + "]";
    }

    @Override
    protected int closeRank()
    {
        return 0;
    }

    /**
     * Destroys the id's QP first (rdma_destroy_qp), then the id.
     */
    @Override
    protected void release()
    {
        synchronized (this)
        {
            if (qp != null)
            {
                qp.close();
                qp = null;
            }
        }
        IbexNative.cmDestroyId(handle);
        channel.forget(this);
    }

    /**
     * @return the id's ibv_context*, or 0 while it has no device.
     */
    private long deviceHandle()
    {
        return IbexNative.cmContext(handle);
    }

    private long requireDevice(final String call)
    {
        final long device = deviceHandle();
        if (device == 0)
        {
            throw new VerbsException(VerbsException.EINVAL, call + ": " + this + " has no device yet (bind it to an " +
                "RDMA device's address, resolve an address, or use the id of a CONNECT_REQUEST)");
        }
        return device;
    }

    private void requireQp(final String call)
    {
        if (qp == null)
        {
            throw new VerbsException(VerbsException.EINVAL, call + ": " + this + " has no QP (call createQp first)");
        }
    }

    private static void requireIpv4(final String call, final InetSocketAddress address)
    {
        if (!(address.getAddress() instanceof Inet4Address))
        {
            throw new VerbsException(EAFNOSUPPORT, call + ": " + address + " is not an IPv4 address (the disni " +
                "provider passes IPv4 socket addresses only)");
        }
    }

    private InetSocketAddress address(final boolean remote)
    {
        if (isClosed())
        {
            return null;
        }
        final byte[] bytes = IbexNative.cmAddress(handle, remote);
        if (bytes.length < 4)
        {
            return null;
        }
        final int family = (bytes[0] & 0xff) | (bytes[1] & 0xff) << 8;
        final int port = (bytes[2] & 0xff) << 8 | (bytes[3] & 0xff);
        final byte[] ip = Arrays.copyOfRange(bytes, 4, bytes.length);
        if (family == AF_INET && ip.length == 4 && port == 0 && Arrays.equals(ip, new byte[4]))
        {
            return null; // AF_INET but unset: librdmacm zeroes the address of an id that was never bound
        }
        try
        {
            return new InetSocketAddress(InetAddress.getByAddress(ip), port);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalStateException("rdma_cm reported an address of " + ip.length + " bytes", ex);
        }
    }

    private static long[] values(final ConnParam param)
    {
        final long[] values = new long[IbexNative.CONN_LENGTH];
        values[IbexNative.CONN_RESPONDER_RESOURCES] = param.responderResources();
        values[IbexNative.CONN_INITIATOR_DEPTH] = param.initiatorDepth();
        values[IbexNative.CONN_RETRY_COUNT] = param.retryCount();
        values[IbexNative.CONN_RNR_RETRY_COUNT] = param.rnrRetryCount();
        return values;
    }
}
