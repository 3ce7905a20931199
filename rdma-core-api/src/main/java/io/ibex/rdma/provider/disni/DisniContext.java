package io.ibex.rdma.provider.disni;

import io.ibex.rdma.spi.ProviderChecks;
import io.ibex.rdma.spi.ProviderResource;
import io.ibex.rdma.verbs.AsyncEvent;
import io.ibex.rdma.verbs.AsyncEventType;
import io.ibex.rdma.verbs.CompletionChannel;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.Device;
import io.ibex.rdma.verbs.DeviceAttributes;
import io.ibex.rdma.verbs.Gid;
import io.ibex.rdma.verbs.LinkLayer;
import io.ibex.rdma.verbs.Mtu;
import io.ibex.rdma.verbs.PortAttributes;
import io.ibex.rdma.verbs.PortState;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.VerbsException;

import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A context over a device's process-wide {@code ibv_context}. librdmacm opened that ibv_context for the
 * process ({@code rdma_get_devices}) and hands the same pointer to every rdma_cm id on the device, so closing
 * this context closes everything created from it (PDs with their QPs, AHs and MRs, then CQs, then
 * completion channels) but never the ibv_context itself: librdmacm owns it, and ids may still use it.
 * <p>
 * Contexts of one device share the kernel's async event queue: {@link #getAsyncEvent(long)} returns the next
 * event of the device, naming the CQ or QP it concerns whichever context created it.
 */
final class DisniContext extends ProviderResource implements Context
{
    private static final AtomicInteger IDS = new AtomicInteger();
    private static final AsyncEventType[] ASYNC_EVENT_TYPES = AsyncEventType.values();
    private static final PortState[] PORT_STATES = PortState.values();
    private static final Mtu[] MTUS = Mtu.values();
    private static final LinkLayer[] LINK_LAYERS = LinkLayer.values();
    private static final int ENODATA = 61;

    private final DisniDevice device;
    private final int id = IDS.incrementAndGet();

    /**
     * @param device the device.
     */
    DisniContext(final DisniDevice device)
    {
        super(DisniProvider.LIVE);
        this.device = device;
    }

    /**
     * @param raw a GUID as ibv_device_attr holds it (network byte order) read as a native long.
     * @return the GUID as a number, whose hex digits ibv_devinfo prints.
     */
    static long hostOrder(final long raw)
    {
        return ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? Long.reverseBytes(raw) : raw;
    }

    @Override
    public Device device()
    {
        return device;
    }

    @Override
    public DeviceAttributes queryDevice()
    {
        ensureOpen();
        final long[] a = IbexNative.queryDevice(device.handle());
        return new DeviceAttributes(IbexNative.firmwareVersion(device.handle()),
            hostOrder(a[IbexNative.DEV_NODE_GUID]), hostOrder(a[IbexNative.DEV_SYS_IMAGE_GUID]),
            unsigned(a[IbexNative.DEV_MAX_MR_SIZE]), a[IbexNative.DEV_PAGE_SIZE_CAP], (int)a[IbexNative.DEV_VENDOR_ID],
            (int)a[IbexNative.DEV_VENDOR_PART_ID], (int)a[IbexNative.DEV_HW_VER], (int)a[IbexNative.DEV_MAX_QP],
            (int)a[IbexNative.DEV_MAX_QP_WR], (int)a[IbexNative.DEV_MAX_SGE], (int)a[IbexNative.DEV_MAX_CQ],
            (int)a[IbexNative.DEV_MAX_CQE], (int)a[IbexNative.DEV_MAX_MR], (int)a[IbexNative.DEV_MAX_PD],
            (int)a[IbexNative.DEV_MAX_QP_RD_ATOM], (int)a[IbexNative.DEV_MAX_QP_INIT_RD_ATOM],
            (int)a[IbexNative.DEV_ATOMIC_CAP], (int)a[IbexNative.DEV_MAX_AH], (int)a[IbexNative.DEV_PHYS_PORT_CNT]);
    }

    @Override
    public PortAttributes queryPort(final int portNum)
    {
        ensureOpen();
        final long[] a = IbexNative.queryPort(device.handle(), portNum);
        return new PortAttributes(PORT_STATES[(int)a[IbexNative.PORT_STATE]], mtu(a[IbexNative.PORT_MAX_MTU]),
            mtu(a[IbexNative.PORT_ACTIVE_MTU]), (int)a[IbexNative.PORT_GID_TBL_LEN], (int)a[IbexNative.PORT_LID],
            (int)a[IbexNative.PORT_SM_LID], (int)a[IbexNative.PORT_LMC],
            LINK_LAYERS[(int)a[IbexNative.PORT_LINK_LAYER]], a[IbexNative.PORT_MAX_MSG_SZ],
            (int)a[IbexNative.PORT_ACTIVE_SPEED], (int)a[IbexNative.PORT_ACTIVE_WIDTH]);
    }

    /**
     * An entry the kernel has no GID for (ENODATA) is {@link Gid#ZERO}, as the API documents.
     */
    @Override
    public Gid queryGid(final int portNum, final int index)
    {
        ensureOpen();
        try
        {
            return Gid.of(IbexNative.queryGid(device.handle(), portNum, index));
        }
        catch (final VerbsException ex)
        {
            if (ex.errno() == ENODATA)
            {
                return Gid.ZERO;
            }
            throw ex;
        }
    }

    @Override
    public ProtectionDomain allocPd()
    {
        ensureOpen();
        return adopt(new DisniProtectionDomain(this));
    }

    @Override
    public CompletionChannel createCompChannel()
    {
        ensureOpen();
        return adopt(new DisniCompletionChannel(this));
    }

    @Override
    public CompletionQueue createCq(final int cqe, final CompletionChannel channel, final int compVector)
    {
        ensureOpen();
        return adopt(new DisniCompletionQueue(this, cqe,
            ProviderChecks.channelOf(this, channel, DisniCompletionChannel.class), compVector));
    }

    @Override
    public AsyncEvent getAsyncEvent(final long timeoutMillis)
    {
        ensureOpen();
        final long[] element = new long[1];
        final long deadline = System.nanoTime() + Math.max(0, timeoutMillis) * 1_000_000L;
        do
        {
            final int type = IbexNative.getAsyncEvent(device.handle(), DisniCompletionChannel.sliceMillis(deadline),
                element);
            if (type >= 0 && type < ASYNC_EVENT_TYPES.length)
            {
                return event(ASYNC_EVENT_TYPES[type], element[0]);
            }
        }
        while (!isClosed() && System.nanoTime() - deadline < 0);
        return null;
    }

    /**
     * @param port a port number.
     * @param what what needs the port, for the message.
     * @throws VerbsException ENETDOWN naming the device, port, state and fix when the port is not ACTIVE.
     */
    void requireActivePort(final int port, final String what)
    {
        final String problem = device.portProblem(port);
        if (problem != null)
        {
            throw new VerbsException(VerbsException.ENETDOWN, what + ": " + problem);
        }
    }

    DisniDevice disniDevice()
    {
        return device;
    }

    @Override
    protected String describe()
    {
        return "context #" + id + " of " + device.name();
    }

    @Override
    protected int closeRank()
    {
        return 0;
    }

    @Override
    protected void release()
    {
        closeChildren(); // the ibv_context stays open: librdmacm owns it
    }

    private AsyncEvent event(final AsyncEventType type, final long element)
    {
        return switch (type)
        {
            case CQ_ERR -> new AsyncEvent(type, null, device.completionQueue(element), 0);
            case QP_FATAL, QP_REQ_ERR, QP_ACCESS_ERR, COMM_EST, SQ_DRAINED, PATH_MIG, PATH_MIG_ERR,
                QP_LAST_WQE_REACHED -> new AsyncEvent(type, device.queuePair((int)element), null, 0);
            case PORT_ACTIVE, PORT_ERR, LID_CHANGE, PKEY_CHANGE, SM_CHANGE, CLIENT_REREGISTER, GID_CHANGE ->
                new AsyncEvent(type, null, null, (int)element);
            default -> new AsyncEvent(type, null, null, 0);
        };
    }

    /**
     * @return a uint64_t limit as a long, the largest long for values above it (rxe's max_mr_size is
     *         UINT64_MAX).
     */
    private static long unsigned(final long value)
    {
        return value < 0 ? Long.MAX_VALUE : value;
    }

    private static Mtu mtu(final long value)
    {
        return MTUS[(int)value - 1];
    }
}
