package io.ibex.rdma.provider.soft;

import io.ibex.rdma.provider.soft.wire.SoftFrameDescriptor;
import io.ibex.rdma.provider.soft.wire.SoftGidDescriptor;
import io.ibex.rdma.verbs.AhAttr;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * A hand-made soft peer on a raw socket, to see and make the wire itself: it plays a device at a fake endpoint
 * below the real one (so a soft QP connected to it waits for it to connect), sends the HELLO, writes frames and
 * reads the frames the QP sends.
 */
final class SoftWirePeer implements AutoCloseable
{
    /** The fake endpoint's port: below any real one, so the soft QP is the side that waits for the link. */
    static final int PORT = 1;
    /** The fake peer's QPN. */
    static final int QPN = 0x77;

    private final SocketChannel channel;
    private final ByteBuffer rx = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN).limit(0); // read mode
    private final ByteBuffer frame = ByteBuffer.allocate(SoftFrameDescriptor.HEADER_LENGTH)
        .order(ByteOrder.LITTLE_ENDIAN);

    /**
     * Connects to the device and sends the HELLO that attaches the link to QP {@code dstQpn}.
     */
    SoftWirePeer(final SoftDevice device, final int dstQpn) throws IOException
    {
        this(device);
        write(hello(dstQpn));
    }

    /**
     * Connects to the device and sends nothing: the caller writes its own HELLO.
     */
    SoftWirePeer(final SoftDevice device) throws IOException
    {
        channel = SocketChannel.open(new InetSocketAddress(loopback(), device.port()));
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        channel.configureBlocking(false);
    }

    /**
     * @return the HELLO of QP {@link #QPN} at the fake endpoint, naming QP {@code dstQpn} (little-endian, to change
     *         a field before sending it).
     */
    static ByteBuffer hello(final int dstQpn) throws UnknownHostException
    {
        final ByteBuffer hello = ByteBuffer.allocate(SoftFrameDescriptor.HELLO_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        hello.putInt(SoftFrameDescriptor.HELLO_MAGIC_OFFSET, SoftFrameDescriptor.HELLO_MAGIC);
        hello.putInt(SoftFrameDescriptor.HELLO_VERSION_OFFSET, SoftFrameDescriptor.HELLO_VERSION);
        hello.putInt(SoftFrameDescriptor.HELLO_SRC_IPV4_OFFSET, SoftGidDescriptor.ipv4(address().dgid()));
        hello.putInt(SoftFrameDescriptor.HELLO_SRC_PORT_OFFSET, PORT);
        hello.putInt(SoftFrameDescriptor.HELLO_SRC_QPN_OFFSET, QPN);
        hello.putInt(SoftFrameDescriptor.HELLO_DST_QPN_OFFSET, dstQpn);
        return hello;
    }

    /**
     * @return the address vector of the fake endpoint, to connect a soft QP to QP {@link #QPN} there.
     */
    static AhAttr address() throws UnknownHostException
    {
        return AhAttr.global(1, SoftGidDescriptor.encode(1, loopback(), PORT), 1);
    }

    /**
     * Writes the header of a frame without payload (the rest of the header zero).
     */
    void writeHeader(
        final byte opcode, final int flags, final int psn, final int ackPsn, final int segmentLength, final int length)
        throws IOException
    {
        frame.clear();
        frame.put(new byte[SoftFrameDescriptor.HEADER_LENGTH]).clear();
        frame.put(SoftFrameDescriptor.OPCODE_OFFSET, opcode);
        frame.put(SoftFrameDescriptor.FLAGS_OFFSET, (byte)flags);
        frame.putInt(SoftFrameDescriptor.PSN_OFFSET, psn);
        frame.putInt(SoftFrameDescriptor.ACK_PSN_OFFSET, ackPsn);
        frame.putInt(SoftFrameDescriptor.SEGMENT_LENGTH_OFFSET, segmentLength);
        frame.putInt(SoftFrameDescriptor.MESSAGE_LENGTH_OFFSET, length);
        write(frame);
    }

    /**
     * Reads the next frame the QP sent, waiting up to 10 s.
     *
     * @return the frame's header (the payload skipped), valid until the next call.
     */
    ByteBuffer readFrame() throws IOException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true)
        {
            final ByteBuffer next = pollFrame();
            if (next != null)
            {
                return next;
            }
            if (System.nanoTime() - deadline > 0)
            {
                return fail("the soft QP sent no frame within 10 s");
            }
            Thread.onSpinWait();
        }
    }

    /**
     * @return the next frame the QP sent if one is complete, else null (the header, valid until the next call).
     */
    ByteBuffer pollFrame() throws IOException
    {
        rx.compact();
        final int read = channel.read(rx);
        rx.flip();
        if (read < 0 && !rx.hasRemaining())
        {
            return fail("the soft device closed the link");
        }
        if (rx.remaining() < SoftFrameDescriptor.HEADER_LENGTH)
        {
            return null;
        }
        final int start = rx.position();
        final int length = SoftFrameDescriptor.HEADER_LENGTH + rx.getInt(start + SoftFrameDescriptor.SEGMENT_LENGTH_OFFSET);
        if (rx.remaining() < length)
        {
            return null;
        }
        frame.clear();
        frame.put(rx.slice(start, SoftFrameDescriptor.HEADER_LENGTH)).flip();
        rx.position(start + length);
        return frame;
    }

    /**
     * @return what the link gives at end of stream: -1 once the soft device closed it (waits up to 10 s).
     */
    int readUntilClosed() throws IOException
    {
        final ByteBuffer sink = ByteBuffer.allocate(4096);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        int read;
        do
        {
            sink.clear();
            read = channel.read(sink);
        }
        while (read >= 0 && System.nanoTime() - deadline < 0);
        return read;
    }

    @Override
    public void close() throws IOException
    {
        channel.close();
    }

    /**
     * Writes all of {@code buffer} (from its position to its limit).
     */
    void write(final ByteBuffer buffer) throws IOException
    {
        while (buffer.hasRemaining())
        {
            channel.write(buffer);
        }
    }

    private static Inet4Address loopback() throws UnknownHostException
    {
        return (Inet4Address)InetAddress.getByName("127.0.0.1");
    }
}
