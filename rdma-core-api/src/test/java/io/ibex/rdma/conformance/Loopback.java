package io.ibex.rdma.conformance;

import io.ibex.rdma.Provider;
import io.ibex.rdma.Providers;
import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.AddressHandle;
import io.ibex.rdma.verbs.AhAttr;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.Device;
import io.ibex.rdma.verbs.Gid;
import io.ibex.rdma.verbs.Mtu;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpCapabilities;
import io.ibex.rdma.verbs.QpInitAttr;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.RdmaResource;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * The fixture of the provider-agnostic conformance suite: one device of the selected provider, one PD, and
 * queue pairs of the same process connected to each other out of band exactly as {@code ibv_rc_pingpong}
 * does (RESET, INIT, RTR with the other QP's number, GID and PSN, RTS). Everything it creates is closed, newest
 * first, by {@link #close()}.
 * <h2>Running the suite against a provider</h2>
 * The suite ships in the {@code rdma-core-api} test-jar and uses only the public API
 * ({@code io.ibex.rdma.verbs}, {@code io.ibex.rdma.cm}, {@link Providers}). A provider module runs it by
 * <ol>
 * <li>depending on {@code io.ibex:rdma-core-api} with {@code <type>test-jar</type>} and
 * {@code <scope>test</scope>} (plus junit-jupiter);</li>
 * <li>configuring maven-surefire-plugin with
 * {@code <dependenciesToScan><dependency>io.ibex:rdma-core-api</dependency></dependenciesToScan>} and
 * an {@code <include>} of {@code io/ibex/rdma/conformance/*Test.java}, so that only the conformance classes of
 * the test-jar run (it also holds the soft provider's own unit tests);</li>
 * <li>running with {@code -Dibex.provider=NAME} (for example {@code disni}).</li>
 * </ol>
 * Settings (system properties): {@code ibex.provider} (which provider, see {@link Providers#select()});
 * {@code ibex.test.device} (device name, default the first device); {@code ibex.test.gid-index} (GID index,
 * default 1: rxe's IPv4-mapped GID); {@code ibex.test.address} (the local IP address rdma_cm binds and
 * connects to, default 127.0.0.1; on Soft-RoCE the address of the rxe netdev); {@code ibex.test.wait-ms}
 * (how long any single wait may take, default 10000). Port 1 is always used.
 */
public final class Loopback implements AutoCloseable
{
    /** The port every test uses. */
    public static final int PORT = 1;
    /** The GID index every test uses. */
    public static final int GID_INDEX = Integer.getInteger("ibex.test.gid-index", 1);
    /** The device name asked for, or null for the first device. */
    public static final String DEVICE = System.getProperty("ibex.test.device");
    /** The local IP address rdma_cm tests bind and connect to. */
    public static final String ADDRESS = System.getProperty("ibex.test.address", "127.0.0.1");
    /** The longest any single wait may take. */
    public static final long WAIT_MILLIS = Long.getLong("ibex.test.wait-ms", 10_000L);
    /** The Q_Key of the UD queue pairs the fixture creates (high bit clear: a real Q_Key, not "use the QP's"). */
    public static final int QKEY = 0x11111111;
    /** Work requests per queue and CQ headroom of the default queue pairs. */
    public static final int DEPTH = 16;
    /** Default capabilities: {@link #DEPTH} requests each way, 4 SGEs each way, 64 bytes inline. */
    public static final QpCapabilities CAPS = new QpCapabilities(DEPTH, DEPTH, 4, 4, 64);
    /** The remote access connected QPs allow (the MR flags decide what is actually permitted). */
    public static final int QP_ACCESS =
        AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC;

    private final Deque<RdmaResource> resources = new ArrayDeque<>();
    private final Provider provider;
    private final Device device;
    private final Context context;
    private final ProtectionDomain pd;
    private final Gid gid;
    private final Mtu mtu;

    private Loopback(final Provider provider, final Device device)
    {
        this.provider = provider;
        this.device = device;
        this.context = device.open();
        this.pd = track(context.allocPd());
        this.gid = context.queryGid(PORT, GID_INDEX);
        this.mtu = context.queryPort(PORT).activeMtu();
    }

    /**
     * Opens the device named by {@code ibex.test.device}, or the first one, of the selected provider.
     *
     * @return the fixture.
     */
    public static Loopback open()
    {
        final Provider provider = Providers.select();
        return new Loopback(provider, findDevice(provider));
    }

    /**
     * @param provider the provider.
     * @return the device the suite tests.
     */
    public static Device findDevice(final Provider provider)
    {
        final List<Device> devices = provider.devices();
        if (devices.isEmpty())
        {
            throw new IllegalStateException("provider '" + provider.name() + "' lists no device");
        }
        if (DEVICE == null)
        {
            return devices.get(0);
        }
        return devices.stream().filter((d) -> d.name().equals(DEVICE)).findFirst().orElseThrow(
            () -> new IllegalStateException("no device '" + DEVICE + "' (ibex.test.device) in " +
                devices.stream().map(Device::name).toList()));
    }

    /** @return the provider under test. */
    public Provider provider()
    {
        return provider;
    }

    /** @return the device under test. */
    public Device device()
    {
        return device;
    }

    /** @return the open context. */
    public Context context()
    {
        return context;
    }

    /** @return the protection domain every default object lives in. */
    public ProtectionDomain pd()
    {
        return pd;
    }

    /** @return the GID at {@link #GID_INDEX}. */
    public Gid gid()
    {
        return gid;
    }

    /** @return the active MTU of the port, used as the path MTU. */
    public Mtu mtu()
    {
        return mtu;
    }

    /** @return this port's address, as the peer of a loopback connection sees it. */
    public AhAttr address()
    {
        return AhAttr.global(PORT, gid, GID_INDEX);
    }

    /**
     * Has a resource closed by {@link #close()}.
     *
     * @param resource the resource.
     * @param <T>      its type.
     * @return the resource.
     */
    public <T extends RdmaResource> T track(final T resource)
    {
        resources.push(resource);
        return resource;
    }

    /**
     * @param cqe minimum entries.
     * @return a new CQ without completion channel.
     */
    public CompletionQueue cq(final int cqe)
    {
        return track(context.createCq(cqe, null, 0));
    }

    /**
     * @param capacity bytes.
     * @param access   {@link AccessFlags}.
     * @return a direct buffer registered in the fixture's PD.
     */
    public RegisteredBuffer register(final int capacity, final int access)
    {
        return register(pd, capacity, access);
    }

    /**
     * @param pd       the protection domain.
     * @param capacity bytes.
     * @param access   {@link AccessFlags}.
     * @return a direct buffer registered in {@code pd}.
     */
    public RegisteredBuffer register(final ProtectionDomain pd, final int capacity, final int access)
    {
        final RegisteredBuffer buffer = RegisteredBuffer.allocate(pd, capacity, access);
        track(buffer.mr());
        return buffer;
    }

    /**
     * @param type the QP type.
     * @return a QP in RESET with {@link #CAPS}, its own send and receive CQs, and selective signalling.
     */
    public QueuePair qp(final QpType type)
    {
        return qp(type, CAPS, false);
    }

    /**
     * @param type     the QP type.
     * @param cap      requested capabilities.
     * @param sqSigAll signal every send.
     * @return a QP in RESET with its own send and receive CQs, deep enough for every request it can hold.
     */
    public QueuePair qp(final QpType type, final QpCapabilities cap, final boolean sqSigAll)
    {
        final CompletionQueue sendCq = cq(Math.max(1, cap.maxSendWr() * 2));
        final CompletionQueue recvCq = cq(Math.max(1, cap.maxRecvWr() * 2));
        return qp(new QpInitAttr(type, sendCq, recvCq, cap, sqSigAll));
    }

    /**
     * @param initAttr creation attributes.
     * @return a QP in RESET in the fixture's PD.
     */
    public QueuePair qp(final QpInitAttr initAttr)
    {
        return track(pd.createQp(initAttr));
    }

    /**
     * @param type RC, UC or UD.
     * @return two QPs with default capabilities, both in RTS; connected QPs are connected to each other.
     */
    public QpPair pair(final QpType type)
    {
        return pair(type, CAPS, false);
    }

    /**
     * @param type     RC, UC or UD.
     * @param cap      requested capabilities of both.
     * @param sqSigAll signal every send on both.
     * @return two QPs in RTS; connected QPs are connected to each other.
     */
    public QpPair pair(final QpType type, final QpCapabilities cap, final boolean sqSigAll)
    {
        final QueuePair a = qp(type, cap, sqSigAll);
        final QueuePair b = qp(type, cap, sqSigAll);
        connect(a, b);
        connect(b, a);
        return new QpPair(a, b);
    }

    /**
     * Moves a QP from RESET to RTS towards its peer (UD ignores the peer).
     *
     * @param qp   the QP.
     * @param peer the QP it sends to (RC, UC).
     */
    public void connect(final QueuePair qp, final QueuePair peer)
    {
        qp.modify(init(qp.type()));
        qp.modify(rtr(qp.type(), peer));
        qp.modify(rts(qp.type(), qp));
    }

    /**
     * @param type the QP type.
     * @return the RESET to INIT attributes ibv_rc_pingpong / ibv_ud_pingpong use.
     */
    public static QpAttr init(final QpType type)
    {
        return switch (type)
        {
            case RC -> QpAttr.init(PORT, QP_ACCESS);
            case UC -> QpAttr.init(PORT, AccessFlags.REMOTE_WRITE);
            case UD -> QpAttr.initUd(PORT, QKEY);
        };
    }

    /**
     * INIT to RTR. UC gets only the attributes ibv_modify_qp allows for UC (no max_dest_rd_atomic, no
     * min_rnr_timer: real verbs reject them with EINVAL).
     *
     * @param type the QP type.
     * @param peer the peer QP (RC, UC).
     * @return the attributes.
     */
    public QpAttr rtr(final QpType type, final QueuePair peer)
    {
        return switch (type)
        {
            case RC, UC -> QpAttr.rtr(address(), peer.qpNum(), psn(peer), mtu).forType(type);
            case UD -> QpAttr.to(QpState.RTR);
        };
    }

    /**
     * RTR to RTS. UC and UD get only sq_psn, as ibv_modify_qp requires.
     *
     * @param type the QP type.
     * @param qp   the QP whose send PSN to use.
     * @return the attributes.
     */
    public static QpAttr rts(final QpType type, final QueuePair qp)
    {
        return QpAttr.rts(psn(qp)).forType(type);
    }

    /**
     * @param qp a QP.
     * @return the 24-bit first PSN of its send queue: derived from the QP number, so each side knows the
     *         other's without an exchange, and not zero, so PSN handling is exercised.
     */
    public static int psn(final QueuePair qp)
    {
        return (qp.qpNum() * 0x9E3779B1 + 0x1234) & 0xffffff;
    }

    /**
     * @return an address handle for this port (UD sends to QPs of this process).
     */
    public AddressHandle ah()
    {
        return track(pd.createAh(address()));
    }

    /**
     * Closes everything created through the fixture, newest first, then the context.
     */
    @Override
    public void close()
    {
        RuntimeException failure = null;
        while (!resources.isEmpty())
        {
            try
            {
                resources.pop().close();
            }
            catch (final RuntimeException ex)
            {
                failure = failure == null ? ex : failure;
            }
        }
        context.close();
        if (failure != null)
        {
            throw failure;
        }
    }

    /**
     * Two QPs of the fixture.
     *
     * @param a the first (usually the requester).
     * @param b the second (usually the responder).
     */
    public record QpPair(QueuePair a, QueuePair b)
    {
    }
}
