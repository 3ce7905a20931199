package io.ibex.rdma.provider.soft.wire;

import org.agrona.BufferUtil;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * The link of a connected QP: its {@link SoftWire} (a TCP connection, or memory to a QP of the same device), with
 * reusable direct receive and transmit buffers. Both buffers stay in write mode: bytes received are in
 * {@code [rxStart, rx.position())}, bytes to send in {@code [0, tx.position())}. While the device injects faults,
 * what it receives goes through {@link SoftFaultyFrames}. Not thread-safe: the owning QP's lock guards it.
 */
public final class SoftLink
{
    private static final int BUFFER_LENGTH = 4 * SoftFrameDescriptor.MAX_FRAME_LENGTH;

    private final SoftWire wire;
    private final Supplier<SoftFaults> faults;
    private final ByteBuffer rx = ByteBuffer.allocateDirect(BUFFER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    private final ByteBuffer tx = ByteBuffer.allocateDirect(BUFFER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    private final long rxAddress = BufferUtil.address(rx);
    private final long txAddress = BufferUtil.address(tx);
    private int rxStart;
    private boolean closed;
    private SoftFaultyFrames faultyFrames;

    private SoftLink(final SoftWire wire, final Supplier<SoftFaults> faults)
    {
        this.wire = wire;
        this.faults = faults;
    }

    /**
     * Starts a non-blocking connection to another device whose first bytes will be the HELLO naming the two QPs.
     *
     * @param token  the connecting QP's link token, which the HELLO carries.
     * @param offer  makes the shared-memory wire to offer in the HELLO over the socket (null if it cannot), or null
     *               to offer none.
     * @param faults gives the faults the device injects into what it receives, or null for none; asked at every
     *               read.
     */
    public static SoftLink connect(
        final InetSocketAddress remote, final int srcIpv4, final int srcPort, final int srcQpn, final int dstQpn,
        final SoftLinkToken token, final BiFunction<SoftSocketWire, ByteBuffer, SoftSharedMemoryWire> offer,
        final Supplier<SoftFaults> faults) throws IOException
    {
        final SoftSocketWire socket = SoftSocketWire.connect(remote);
        if (offer != null)
        {
            final ByteBuffer hello =
                ByteBuffer.allocate(SoftFrameDescriptor.HELLO_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
            putHello(hello, srcIpv4, srcPort, srcQpn, dstQpn, token);
            final SoftSharedMemoryWire wire = offer.apply(socket, hello);
            if (wire != null)
            {
                return new SoftLink(wire, faults);
            }
        }
        final SoftLink link = new SoftLink(socket, faults);
        putHello(link.tx, srcIpv4, srcPort, srcQpn, dstQpn, token);
        link.tx.position(SoftFrameDescriptor.HELLO_LENGTH);
        return link;
    }

    private static void putHello(
        final ByteBuffer hello, final int srcIpv4, final int srcPort, final int srcQpn, final int dstQpn,
        final SoftLinkToken token)
    {
        hello.putInt(SoftFrameDescriptor.HELLO_MAGIC_OFFSET, SoftFrameDescriptor.HELLO_MAGIC);
        hello.putInt(SoftFrameDescriptor.HELLO_VERSION_OFFSET, SoftFrameDescriptor.HELLO_VERSION);
        hello.putInt(SoftFrameDescriptor.HELLO_SRC_IPV4_OFFSET, srcIpv4);
        hello.putInt(SoftFrameDescriptor.HELLO_SRC_PORT_OFFSET, srcPort);
        hello.putInt(SoftFrameDescriptor.HELLO_SRC_QPN_OFFSET, srcQpn);
        hello.putInt(SoftFrameDescriptor.HELLO_DST_QPN_OFFSET, dstQpn);
        token.putInto(hello);
    }

    /**
     * Wraps an accepted link whose HELLO has been read (and any shared-memory offer answered).
     *
     * @param faults gives the faults the device injects into what it receives, or null for none; asked at every
     *               read.
     */
    public static SoftLink accepted(final SoftWire wire, final Supplier<SoftFaults> faults)
    {
        return new SoftLink(wire, faults);
    }

    /**
     * @return the two ends of a link in memory between QPs {@code first} (index 0) and {@code second} of this
     *         device: no HELLO, as nothing else can reach either end.
     * @param faults gives the faults the device injects into what it receives, or null for none; asked at every
     *               read.
     */
    public static SoftLink[] inMemory(final int first, final int second, final Supplier<SoftFaults> faults)
    {
        final SoftMemoryWire[] wires = SoftMemoryWire.pair(first, second);
        return new SoftLink[]{ new SoftLink(wires[0], faults), new SoftLink(wires[1], faults) };
    }

    /**
     * @return true once connected; throws if the connection failed.
     */
    public boolean established() throws IOException
    {
        return wire.finishConnect();
    }

    /**
     * Reads what the wire has.
     *
     * @return bytes read, or -1 at end of stream.
     */
    public int read() throws IOException
    {
        if (rxStart > 0 && rx.remaining() < SoftFrameDescriptor.MAX_FRAME_LENGTH)
        {
            compactRx();
        }
        final SoftFaults injected = faults.get();
        if (injected == null && (faultyFrames == null || faultyFrames.idle()))
        {
            return wire.read(rx);
        }
        if (faultyFrames == null)
        {
            faultyFrames = new SoftFaultyFrames();
        }
        return faultyFrames.read(wire, injected, rx, rxAddress, rxStart);
    }

    /**
     * Reads what the wire has, to tell whether the peer's QP has left the link already: closed the connection, or
     * said goodbye first (its frame is then next).
     */
    public boolean closedByPeer()
    {
        try
        {
            return read() < 0 || (rxAvailable() >= SoftFrameDescriptor.HEADER_LENGTH &&
                rx.get(rxStart + SoftFrameDescriptor.OPCODE_OFFSET) == SoftFrameDescriptor.OP_GOODBYE);
        }
        catch (final IOException ex)
        {
            return true;
        }
    }

    public boolean rxFull()
    {
        return !rx.hasRemaining();
    }

    public ByteBuffer rx()
    {
        return rx;
    }

    public long rxAddress()
    {
        return rxAddress;
    }

    public int rxStart()
    {
        return rxStart;
    }

    public int rxAvailable()
    {
        return rx.position() - rxStart;
    }

    public void consume(final int length)
    {
        rxStart += length;
        if (rxStart == rx.position())
        {
            rx.clear();
            rxStart = 0;
        }
    }

    public ByteBuffer tx()
    {
        return tx;
    }

    public long txAddress()
    {
        return txAddress;
    }

    public int txRoom()
    {
        return tx.remaining();
    }

    /**
     * Makes room for {@code length} more bytes to send, writing what is pending if needed.
     *
     * @return whether there is room now.
     */
    public boolean ensureTxRoom(final int length) throws IOException
    {
        if (tx.remaining() >= length)
        {
            return true;
        }
        flush();
        return tx.remaining() >= length;
    }

    /**
     * Writes what is pending, without blocking.
     *
     * @return whether nothing is left pending.
     */
    public boolean flush() throws IOException
    {
        if (tx.position() == 0)
        {
            return true;
        }
        tx.flip();
        wire.write(tx);
        if (tx.hasRemaining())
        {
            tx.compact();
            return false;
        }
        tx.clear(); // all written, as nearly always: nothing to move
        return true;
    }

    /**
     * Has the progress thread woken when the link has something to read. Called only by the progress thread, for
     * the QPs it drives.
     */
    public void watch(final SoftWireWatcher progress) throws IOException
    {
        wire.watch(progress);
    }

    /**
     * Undoes {@link #watch}. Progress thread only.
     */
    public void unwatch()
    {
        wire.unwatch();
    }

    public String peer()
    {
        return wire.peer();
    }

    /**
     * @return the wire, while the link runs through shared memory with a process of this host; else null.
     */
    public SoftSharedMemoryWire sharedMemory()
    {
        return !closed && wire instanceof SoftSharedMemoryWire shared && shared.shared() ? shared : null;
    }

    public void close()
    {
        if (!closed)
        {
            closed = true;
            wire.close();
        }
    }

    private void compactRx()
    {
        final int end = rx.position();
        rx.limit(end).position(rxStart);
        rx.compact();
        rxStart = 0;
    }
}
