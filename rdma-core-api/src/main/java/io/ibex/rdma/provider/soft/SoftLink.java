package io.ibex.rdma.provider.soft;

import org.agrona.BufferUtil;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;

/**
 * The TCP connection of a connected QP, with its reusable direct receive and transmit buffers. Both buffers
 * stay in write mode: bytes received are in {@code [rxStart, rx.position())}, bytes to send in
 * {@code [0, tx.position())}. Not thread-safe: the owning QP's lock guards it.
 */
final class SoftLink
{
    private static final int BUFFER_LENGTH = 4 * SoftFrameDescriptor.MAX_FRAME_LENGTH;

    private final SocketChannel channel;
    private final String peer;
    private final ByteBuffer rx = ByteBuffer.allocateDirect(BUFFER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    private final ByteBuffer tx = ByteBuffer.allocateDirect(BUFFER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    private final long rxAddress = BufferUtil.address(rx);
    private final long txAddress = BufferUtil.address(tx);
    private int rxStart;
    private boolean connecting;
    private boolean closed;

    private SoftLink(final SocketChannel channel, final String peer, final boolean connecting) throws IOException
    {
        this.channel = channel;
        this.peer = peer;
        this.connecting = connecting;
        channel.configureBlocking(false);
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
    }

    /**
     * Starts a non-blocking connection whose first bytes will be the HELLO naming the two QPs.
     */
    static SoftLink connect(
        final InetSocketAddress remote, final int srcIpv4, final int srcPort, final int srcQpn, final int dstQpn)
        throws IOException
    {
        final SocketChannel channel = SocketChannel.open();
        try
        {
            final SoftLink link = new SoftLink(channel, remote.toString(), true);
            final ByteBuffer tx = link.tx;
            tx.putInt(SoftFrameDescriptor.HELLO_MAGIC_OFFSET, SoftFrameDescriptor.HELLO_MAGIC);
            tx.putInt(SoftFrameDescriptor.HELLO_VERSION_OFFSET, SoftFrameDescriptor.HELLO_VERSION);
            tx.putInt(SoftFrameDescriptor.HELLO_SRC_IPV4_OFFSET, srcIpv4);
            tx.putInt(SoftFrameDescriptor.HELLO_SRC_PORT_OFFSET, srcPort);
            tx.putInt(SoftFrameDescriptor.HELLO_SRC_QPN_OFFSET, srcQpn);
            tx.putInt(SoftFrameDescriptor.HELLO_DST_QPN_OFFSET, dstQpn);
            tx.position(SoftFrameDescriptor.HELLO_LENGTH);
            link.connecting = !channel.connect(remote);
            return link;
        }
        catch (final IOException | RuntimeException ex)
        {
            channel.close();
            throw ex;
        }
    }

    /**
     * Wraps an accepted connection whose HELLO has been read.
     */
    static SoftLink accepted(final SocketChannel channel) throws IOException
    {
        return new SoftLink(channel, String.valueOf(channel.getRemoteAddress()), false);
    }

    /**
     * @return true once connected; throws if the connection failed.
     */
    boolean established() throws IOException
    {
        if (connecting)
        {
            connecting = !channel.finishConnect();
        }
        return !connecting;
    }

    /**
     * Reads what the socket has.
     *
     * @return bytes read, or -1 at end of stream.
     */
    int read() throws IOException
    {
        if (rxStart > 0 && rx.remaining() < SoftFrameDescriptor.MAX_FRAME_LENGTH)
        {
            compactRx();
        }
        return channel.read(rx);
    }

    /**
     * Reads what the socket has, to tell whether the peer has closed (or reset) the connection already.
     */
    boolean closedByPeer()
    {
        try
        {
            return read() < 0;
        }
        catch (final IOException ex)
        {
            return true;
        }
    }

    boolean rxFull()
    {
        return !rx.hasRemaining();
    }

    ByteBuffer rx()
    {
        return rx;
    }

    long rxAddress()
    {
        return rxAddress;
    }

    int rxStart()
    {
        return rxStart;
    }

    int rxAvailable()
    {
        return rx.position() - rxStart;
    }

    void consume(final int length)
    {
        rxStart += length;
        if (rxStart == rx.position())
        {
            rx.clear();
            rxStart = 0;
        }
    }

    ByteBuffer tx()
    {
        return tx;
    }

    long txAddress()
    {
        return txAddress;
    }

    int txRoom()
    {
        return tx.remaining();
    }

    /**
     * Makes room for {@code length} more bytes to send, writing what is pending if needed.
     *
     * @return whether there is room now.
     */
    boolean ensureTxRoom(final int length) throws IOException
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
    boolean flush() throws IOException
    {
        if (tx.position() == 0 || connecting)
        {
            return tx.position() == 0;
        }
        tx.flip();
        channel.write(tx);
        tx.compact();
        return tx.position() == 0;
    }

    boolean hasPendingTx()
    {
        return tx.position() > 0;
    }

    /**
     * @return the link's key in the progress thread's selector (registered with no interest if new). Called
     *         only by the progress thread, which alone selects.
     */
    SelectionKey selectionKey(final Selector selector) throws IOException
    {
        final SelectionKey key = channel.keyFor(selector); // an accepted link was registered for its HELLO
        return key != null ? key : channel.register(selector, 0);
    }

    String peer()
    {
        return peer;
    }

    void close()
    {
        if (!closed)
        {
            closed = true;
            try
            {
                channel.close();
            }
            catch (final IOException ignore)
            {
                // closing is best effort: the peer sees EOF either way
            }
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
