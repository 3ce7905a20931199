package io.ibex.rdma.provider.soft;

import io.ibex.rdma.provider.soft.qp.SoftQueuePair;
import io.ibex.rdma.provider.soft.wire.SoftFaults;
import io.ibex.rdma.provider.soft.wire.SoftFaultyDatagrams;
import io.ibex.rdma.provider.soft.wire.SoftFrameDescriptor;
import io.ibex.rdma.provider.soft.wire.SoftGidDescriptor;
import io.ibex.rdma.provider.soft.wire.SoftSharedMemoryWire;
import io.ibex.rdma.provider.soft.wire.SoftSocketWire;
import io.ibex.rdma.spi.ProviderResource;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.Device;
import io.ibex.rdma.verbs.DeviceAttributes;
import io.ibex.rdma.verbs.Gid;
import io.ibex.rdma.verbs.LinkLayer;
import io.ibex.rdma.verbs.Mtu;
import io.ibex.rdma.verbs.PortAttributes;
import io.ibex.rdma.verbs.PortState;
import io.ibex.rdma.verbs.TransportType;
import io.ibex.rdma.verbs.VerbsException;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.AgentRunner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.nio.channels.ServerSocketChannel;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The soft device {@code soft0}: one per JVM. It owns the wire endpoint (a TCP server socket for connected
 * QPs' links and a UDP socket on the same port number for UD), the QP and memory-region key tables, and
 * the daemon progress thread. Its GIDs name the endpoint (see {@link SoftGidDescriptor}). Thread-safe: registration
 * is synchronized, lookups on the data path read volatile tables without a lock, the UD socket is read under its
 * own lock.
 * <p>
 * One class, though over 500 lines: the endpoint's configuration read at start (address, port, MTU, how its own QPs
 * are linked), the key tables and the UD socket's reading are what the device is; how it shares memory with other
 * processes is {@link SoftSharedMemory}'s, the wires and the fault injection are in {@code provider.soft.wire}.
 */
public final class SoftDevice implements Device
{
    /** System property: IPv4 address the endpoint binds to. */
    static final String ADDRESS_PROPERTY = "ibex.soft.address";
    /** System property: port the endpoint binds to (0 = ephemeral). */
    static final String PORT_PROPERTY = "ibex.soft.port";
    /** System property: active MTU of the port in bytes. */
    static final String MTU_PROPERTY = "ibex.soft.mtu";
    /**
     * System property: how two QPs of this device are linked, "memory" (the default), "tcp" (as between devices on
     * two hosts) or "shm" (as between devices on one host, through a shared-memory file).
     */
    static final String LOCAL_LINKS_PROPERTY = "ibex.soft.localLinks";
    /**
     * System property: whether links to devices of other processes go through shared memory: "auto" (the default:
     * offered to peers at a loopback or this device's address, taken when the offer comes from this host), "on"
     * (offered to every peer; taken from this host) or "off" (neither offered nor taken: TCP).
     */
    static final String SHARED_MEMORY_PROPERTY = "ibex.soft.sharedMemory";
    public static final String NAME = "soft0";
    static final int MAX_QP = 16384;
    public static final int MAX_QP_WR = 16384;
    public static final int MAX_SGE = 32;
    static final int MAX_CQE = 65536;
    public static final int MAX_INLINE_DATA = 256;
    static final long MAX_MR_SIZE = 1L << 40;
    /** A memory key is its region's index in the key table above {@link #KEY_RANDOM_BITS} random bits. */
    static final int KEY_RANDOM_BITS = 12;
    /** Regions the key table holds: indexes 1 to 2^20-1, so that a key fits in 32 bits. */
    static final int MAX_MR = (1 << (Integer.SIZE - KEY_RANDOM_BITS)) - 1;
    public static final long MAX_MSG_SIZE = 1L << 31;
    static final int FIRST_QPN = 0x11;

    private static final Logger LOG = LoggerFactory.getLogger(SoftDevice.class);
    private static final long GUID = 0x02ba5eff_fe000000L;

    private final Inet4Address address;
    private final ServerSocketChannel server;
    private final DatagramChannel udp;
    private final int port;
    private final Gid[] gids = new Gid[SoftGidDescriptor.GID_TABLE_LENGTH];
    private final long endpointKey;
    private final Mtu activeMtu;
    private final boolean memoryLocalLinks;
    private final boolean sharedMemoryLocalLinks;
    private final SoftSharedMemory sharedMemory;
    private final Int2ObjectHashMap<SoftQueuePair> qpsByNum = new Int2ObjectHashMap<>();
    private volatile SoftQueuePair[] qps = new SoftQueuePair[0];
    private volatile SoftMemoryRegion[] regions = new SoftMemoryRegion[64];
    private int nextQpn = FIRST_QPN;
    private int nextRegionIndex = 1;
    private final SecureRandom keyRandom = new SecureRandom();
    private final ReentrantLock udpLock = new ReentrantLock();
    private final ByteBuffer udpRxBuffer;
    private volatile long lastAppUdpDrive;
    private final SoftProgressAgent progress;
    private final SoftFaultyDatagrams faultyDatagrams; // guarded by the UDP lock
    private volatile SoftFaults faults = SoftFaults.fromSystemProperty();

    SoftDevice()
    {
        try
        {
            final InetAddress bindAddress = InetAddress.getByName(System.getProperty(ADDRESS_PROPERTY, "127.0.0.1"));
            if (!(bindAddress instanceof Inet4Address))
            {
                throw new IllegalArgumentException(ADDRESS_PROPERTY + "=" + bindAddress + " must be an IPv4 address");
            }
            address = (Inet4Address)bindAddress;
            activeMtu = Mtu.ofBytes(Integer.getInteger(MTU_PROPERTY, 4096));
            final String localLinks = System.getProperty(LOCAL_LINKS_PROPERTY, "memory");
            if (!"memory".equals(localLinks) && !"tcp".equals(localLinks) && !"shm".equals(localLinks))
            {
                throw new IllegalArgumentException(LOCAL_LINKS_PROPERTY + "=" + localLinks +
                    " must be memory, tcp or shm");
            }
            memoryLocalLinks = "memory".equals(localLinks);
            sharedMemoryLocalLinks = "shm".equals(localLinks);
            sharedMemory = new SoftSharedMemory(address, sharedMemoryLocalLinks);
            server = ServerSocketChannel.open();
            server.bind(new InetSocketAddress(address, Integer.getInteger(PORT_PROPERTY, 0)));
            server.configureBlocking(false);
            port = ((InetSocketAddress)server.getLocalAddress()).getPort();
            udp = DatagramChannel.open();
            udp.bind(new InetSocketAddress(address, port));
            udp.configureBlocking(false);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("soft device " + NAME + ": cannot bind its endpoint (" + ADDRESS_PROPERTY +
                "=" + System.getProperty(ADDRESS_PROPERTY, "127.0.0.1") + ", " + PORT_PROPERTY + "=" +
                System.getProperty(PORT_PROPERTY, "0") + ")", ex);
        }
        for (int i = 0; i < gids.length; i++)
        {
            gids[i] = SoftGidDescriptor.encode(i, address, port);
        }
        endpointKey = SoftGidDescriptor.endpointKey(SoftGidDescriptor.ipv4(gids[0]), port);
        udpRxBuffer = ByteBuffer.allocateDirect(SoftFrameDescriptor.UD_HEADER_LENGTH + Mtu.MTU_4096.bytes() + 1)
            .order(ByteOrder.LITTLE_ENDIAN);
        faultyDatagrams = new SoftFaultyDatagrams(this::deliverDatagram, udpRxBuffer.capacity());
        if (sharedMemory.regionDirectory() != null)
        {
            SoftSharedMemory.removeStaleFiles(sharedMemory.directory());
        }
        try
        {
            progress = new SoftProgressAgent(this, server, udp);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("soft device " + NAME + ": cannot open the progress selector", ex);
        }
        final AgentRunner runner = new AgentRunner(progress.idleStrategy(),
            (throwable) -> LOG.error("soft device {}: progress thread error", NAME, throwable), null, progress);
        AgentRunner.startOnThread(runner, (r) ->
        {
            final Thread thread = new Thread(r, "ibex-soft-progress");
            thread.setDaemon(true);
            return thread;
        });
        LOG.info("soft device {} listening on {}:{} (TCP for RC/UC, UDP for UD), GID[0]={} GID[1]={}, MTU {}, " +
            "links between its own QPs in {}, shared memory with other processes {} (in {})", NAME,
            address.getHostAddress(), port, gids[0], gids[1], activeMtu.bytes(),
            memoryLocalLinks ? "memory" : sharedMemoryLocalLinks ? "shared memory" : "TCP", sharedMemory.mode(),
            sharedMemory.directory());
    }

    /**
     * @return how this device shares memory with processes of this host.
     */
    SoftSharedMemory sharedMemory()
    {
        return sharedMemory;
    }

    /**
     * @param sameDevice whether the peer QP is one of this device's.
     * @return whether a link to the peer at {@code remote} is offered through shared memory.
     */
    public boolean offersSharedMemoryTo(final InetSocketAddress remote, final boolean sameDevice)
    {
        return sharedMemory.offeredTo(remote, sameDevice);
    }

    /**
     * Creates a shared-memory file for a new link and completes its HELLO to offer it; the progress thread keeps
     * the wire's heartbeat.
     *
     * @return the wire, or null (with a warning) if the file cannot be made: the link uses the connection alone.
     */
    public SoftSharedMemoryWire offerSharedMemory(final SoftSocketWire socket, final ByteBuffer hello)
    {
        return tended(sharedMemory.offer(socket, hello));
    }

    /**
     * Answers a HELLO's shared-memory offer (see {@link SoftSharedMemory#accept}); the progress thread keeps the
     * wire's heartbeat.
     *
     * @return the wire, or null if declined (with the reason logged).
     */
    SoftSharedMemoryWire acceptSharedMemory(final SoftSocketWire socket, final ByteBuffer hello)
    {
        return tended(sharedMemory.accept(socket, hello));
    }

    private SoftSharedMemoryWire tended(final SoftSharedMemoryWire wire)
    {
        if (wire != null)
        {
            progress.tend(wire);
        }
        return wire;
    }

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public long guid()
    {
        return GUID;
    }

    /**
     * The soft device implements the InfiniBand transport over TCP and UDP, as rxe does over UDP.
     */
    @Override
    public TransportType transportType()
    {
        return TransportType.INFINIBAND;
    }

    /**
     * The soft device is no board.
     */
    @Override
    public String boardId()
    {
        return "";
    }

    @Override
    public String providerName()
    {
        return SoftProvider.NAME;
    }

    @Override
    public Context open()
    {
        return ProviderResource.opened(new SoftContext(this));
    }

    @Override
    public String toString()
    {
        return NAME + "@" + address.getHostAddress() + ":" + port;
    }

    DeviceAttributes attributes()
    {
        return new DeviceAttributes("ibex-soft-1", GUID, GUID, MAX_MR_SIZE, 4096, 0x1eaf, 0x0001, 1, MAX_QP,
            MAX_QP_WR, MAX_SGE, 16384, MAX_CQE, MAX_MR, 1 << 16, 128, 128, 1, 1 << 16, 1);
    }

    PortAttributes portAttributes()
    {
        return new PortAttributes(PortState.ACTIVE, Mtu.MTU_4096, activeMtu, gids.length, 0, 0, 0,
            LinkLayer.ETHERNET, MAX_MSG_SIZE, 1, 1);
    }

    public Gid gid(final int index)
    {
        return index >= 0 && index < gids.length ? gids[index] : Gid.ZERO;
    }

    public long endpointKey()
    {
        return endpointKey;
    }

    /**
     * @return whether two QPs of this device are linked in memory rather than over TCP ({@link #LOCAL_LINKS_PROPERTY}).
     */
    public boolean memoryLocalLinks()
    {
        return memoryLocalLinks;
    }

    public int ipv4()
    {
        return SoftGidDescriptor.ipv4(gids[0]);
    }

    public int port()
    {
        return port;
    }

    public Mtu activeMtu()
    {
        return activeMtu;
    }

    public DatagramChannel udp()
    {
        return udp;
    }

    SoftProgressAgent progress()
    {
        return progress;
    }

    public int register(final SoftQueuePair qp)
    {
        synchronized (qpsByNum)
        {
            if (qpsByNum.size() >= MAX_QP)
            {
                throw new VerbsException(VerbsException.ENOMEM, "soft device " + NAME + " has its maximum of " +
                    MAX_QP + " QPs");
            }
            while (qpsByNum.containsKey(nextQpn))
            {
                nextQpn = nextQpn >= 0xffffff ? FIRST_QPN : nextQpn + 1;
            }
            final int qpn = nextQpn;
            nextQpn = nextQpn >= 0xffffff ? FIRST_QPN : nextQpn + 1;
            qpsByNum.put(qpn, qp);
            final SoftQueuePair[] grown = Arrays.copyOf(qps, qps.length + 1);
            grown[grown.length - 1] = qp;
            qps = grown;
            return qpn;
        }
    }

    public void unregister(final SoftQueuePair qp)
    {
        synchronized (qpsByNum)
        {
            qpsByNum.remove(qp.qpNum());
            final SoftQueuePair[] current = qps;
            final SoftQueuePair[] shrunk = new SoftQueuePair[current.length - 1];
            int j = 0;
            for (final SoftQueuePair other : current)
            {
                if (other != qp && j < shrunk.length)
                {
                    shrunk[j++] = other;
                }
            }
            qps = shrunk;
        }
    }

    public SoftQueuePair queuePair(final int qpn)
    {
        synchronized (qpsByNum)
        {
            return qpsByNum.get(qpn);
        }
    }

    SoftQueuePair[] queuePairs()
    {
        return qps;
    }

    /**
     * Enters a memory region in the key table. Its key is the index above {@link #KEY_RANDOM_BITS} random bits, so
     * that a peer cannot guess a key from another (one try in 4096, and a wrong rkey sends the QP to ERR), and a
     * stale key of a closed region finds its successor at the same index only by the same odds.
     */
    int register(final SoftMemoryRegion region)
    {
        synchronized (this)
        {
            SoftMemoryRegion[] table = regions;
            int index = nextRegionIndex;
            while (index < table.length && table[index] != null)
            {
                index++;
            }
            if (index >= table.length)
            {
                index = 1;
                while (index < table.length && table[index] != null)
                {
                    index++;
                }
                if (index >= table.length)
                {
                    table = Arrays.copyOf(table, table.length * 2);
                }
            }
            if (index > MAX_MR)
            {
                throw new VerbsException(VerbsException.ENOMEM, "soft device " + NAME + " has no memory keys left");
            }
            final int key = (index << KEY_RANDOM_BITS) | keyRandom.nextInt(1 << KEY_RANDOM_BITS);
            table[index] = region;
            regions = table;
            nextRegionIndex = index + 1;
            return key;
        }
    }

    void unregister(final SoftMemoryRegion region)
    {
        synchronized (this)
        {
            final int index = region.lkey() >>> KEY_RANDOM_BITS;
            if (regions[index] == region)
            {
                regions[index] = null;
            }
        }
    }

    /**
     * @param key an lkey or rkey.
     * @return the open region it names, or null.
     */
    public SoftMemoryRegion region(final int key)
    {
        final SoftMemoryRegion[] table = regions;
        final int index = key >>> KEY_RANDOM_BITS;
        if (index >= table.length)
        {
            return null;
        }
        final SoftMemoryRegion region = table[index];
        return region != null && region.lkey() == key && !region.isClosed() ? region : null;
    }

    /**
     * Reads datagrams from the UD socket and hands each to its QP; whoever gets the lock does it.
     *
     * @param byApp whether an application thread (not the progress thread) is driving.
     * @return how many datagrams were handled.
     */
    int driveUdp(final boolean byApp)
    {
        if (byApp)
        {
            lastAppUdpDrive = System.nanoTime();
        }
        if (!udpLock.tryLock())
        {
            return 0;
        }
        try
        {
            int count = 0;
            for (int i = 0; i < 64; i++)
            {
                udpRxBuffer.clear();
                if (udp.receive(udpRxBuffer) == null)
                {
                    break;
                }
                udpRxBuffer.flip();
                count++;
                faultyDatagrams.receive(faults, udpRxBuffer);
            }
            if (faultyDatagrams.releaseDue(faults))
            {
                count++;
            }
            return count;
        }
        catch (final IOException ex)
        {
            LOG.warn("soft device {}: UD socket receive failed", NAME, ex);
            return 0;
        }
        finally
        {
            udpLock.unlock();
        }
    }

    /** @param injected the faults to inject into arriving datagrams and frames from now on, or null for none. */
    void faults(final SoftFaults injected)
    {
        faults = injected;
    }

    /** @return the faults injected into arriving datagrams and frames, or null. */
    public SoftFaults faults()
    {
        return faults;
    }

    boolean udpIdleSince(final long now, final long idleNanos)
    {
        return now - lastAppUdpDrive > idleNanos;
    }

    void forgetAppUdpDrive()
    {
        lastAppUdpDrive = 0;
    }

    /**
     * Checks a datagram read from the UD socket (a direct little-endian buffer, position 0) and hands it to the QP it
     * names; drops it, with a warning, if its header is malformed. Package-private for the fuzz test.
     */
    void deliverDatagram(final ByteBuffer datagram)
    {
        final int length = datagram.remaining();
        if (length < SoftFrameDescriptor.UD_HEADER_LENGTH)
        {
            LOG.warn("soft device {}: dropped a UD datagram of {} bytes, shorter than the {}-byte header", NAME,
                length, SoftFrameDescriptor.UD_HEADER_LENGTH);
            return;
        }
        final int payload = datagram.getInt(SoftFrameDescriptor.UD_PAYLOAD_LENGTH_OFFSET);
        if (payload < 0 || payload != length - SoftFrameDescriptor.UD_HEADER_LENGTH)
        {
            LOG.warn("soft device {}: dropped a UD datagram whose payload length {} does not match its size {}",
                NAME, payload, length);
            return;
        }
        final byte opcode = datagram.get(SoftFrameDescriptor.UD_OPCODE_OFFSET);
        if (opcode != SoftFrameDescriptor.OP_SEND && opcode != SoftFrameDescriptor.OP_SEND_IMM)
        {
            LOG.warn("soft device {}: dropped a UD datagram with opcode {}: only SEND and SEND with immediate " +
                "exist on UD", NAME, opcode);
            return;
        }
        final SoftQueuePair qp = queuePair(datagram.getInt(SoftFrameDescriptor.UD_DST_QPN_OFFSET));
        if (qp != null)
        {
            qp.deliverDatagram(datagram);
        }
    }
}
