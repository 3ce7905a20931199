package io.ibex.rdma.provider.soft.cm;

import io.ibex.rdma.cm.PortSpace;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

import static io.ibex.rdma.provider.soft.cm.CmMessageDescriptor.HEADER_LENGTH;
import static io.ibex.rdma.provider.soft.cm.CmMessageDescriptor.MAX_FRAME_LENGTH;
import static io.ibex.rdma.provider.soft.cm.CmMessageDescriptor.rejectionType;

/**
 * The TCP connection that carries one connection id's CM messages: frames in, frames out. Used by the agent
 * thread only. It owns the socket and its two direct buffers, allocated once; frames are read and written in
 * place through one {@link CmMessage} flyweight each way.
 */
final class CmConnection
{
    private static final Logger LOG = LoggerFactory.getLogger(CmConnection.class);
    /** Frames a connection may have unsent at once (a handshake step sends at most two). */
    private static final int OUTSTANDING_FRAMES = 4;

    /**
     * Receives complete, validated frames.
     */
    @FunctionalInterface
    interface MessageHandler
    {
        /**
         * @param connection the connection the frame arrived on.
         * @param message    the frame, valid only during the call.
         * @throws CmProtocolException if the frame is not allowed now.
         */
        void onMessage(CmConnection connection, CmMessage message) throws CmProtocolException;
    }

    private final SocketChannel socket;
    private final CmListener listener;
    private final ByteBuffer inBuffer = ByteBuffer.allocateDirect(MAX_FRAME_LENGTH);
    private final UnsafeBuffer inView = new UnsafeBuffer(inBuffer);
    private final ByteBuffer outBuffer = ByteBuffer.allocateDirect(OUTSTANDING_FRAMES * MAX_FRAME_LENGTH);
    private final UnsafeBuffer outView = new UnsafeBuffer(outBuffer);
    private final CmMessage inMessage = new CmMessage();
    private final CmMessage outMessage = new CmMessage();
    private SelectionKey key;
    private CmHandshake handshake;
    private long deadlineNs = Long.MAX_VALUE;
    private boolean closeWhenFlushed;
    private boolean closed;
    private boolean ended;

    /**
     * @param socket    the TCP socket, non-blocking.
     * @param handshake the handshake that owns the connection, or null for an accepted socket until its REQ.
     * @param listener  for an accepted socket: the listener that accepted it; otherwise null.
     */
    CmConnection(final SocketChannel socket, final CmHandshake handshake, final CmListener listener)
    {
        this.socket = socket;
        this.handshake = handshake;
        this.listener = listener;
    }

    /** @return the socket. */
    SocketChannel socket()
    {
        return socket;
    }

    /** @return the selection key, once registered. */
    SelectionKey key()
    {
        return key;
    }

    /** @param key the selection key. */
    void key(final SelectionKey key)
    {
        this.key = key;
    }

    /** @return the owning handshake, or null. */
    CmHandshake handshake()
    {
        return handshake;
    }

    /** @param handshake the handshake that owns the connection from now on. */
    void handshake(final CmHandshake handshake)
    {
        this.handshake = handshake;
    }

    /** @return the listener that accepted the socket, else null. */
    CmListener listener()
    {
        return listener;
    }

    /** @return when the awaited message is overdue ({@link System#nanoTime()}), or Long.MAX_VALUE. */
    long deadlineNs()
    {
        return deadlineNs;
    }

    /** @param deadlineNs when the awaited message is overdue, or Long.MAX_VALUE for never. */
    void deadlineNs(final long deadlineNs)
    {
        this.deadlineNs = deadlineNs;
    }

    /** @return true once closed. */
    boolean isClosed()
    {
        return closed;
    }

    /**
     * @return whether the peer closed its end: while {@link #receive} hands up frames, that they are its last.
     */
    boolean ended()
    {
        return ended;
    }

    /**
     * Reads what arrived and hands every complete frame to the handler.
     *
     * @param handler receives the frames.
     * @return false at end of stream.
     * @throws IOException         if the socket failed.
     * @throws CmProtocolException if a frame is malformed or not expected.
     */
    boolean receive(final MessageHandler handler) throws IOException
    {
        int read;
        do
        {
            read = socket.read(inBuffer); // to the end of what arrived, so that a stale REQ is known by ended()
        }
        while (read > 0 && inBuffer.hasRemaining());
        ended = read < 0;
        int start = 0;
        while (inBuffer.position() - start >= HEADER_LENGTH)
        {
            inMessage.wrap(inView, start);
            final String problem = inMessage.validateHeader();
            if (problem != null)
            {
                throw new CmProtocolException("malformed CM frame: " + problem);
            }
            final int frameLength = inMessage.frameLength();
            if (inBuffer.position() - start < frameLength)
            {
                break;
            }
            handler.onMessage(this, inMessage);
            start += frameLength;
            if (closed)
            {
                return true;
            }
        }
        inBuffer.flip().position(start);
        inBuffer.compact();
        return read >= 0;
    }

    /**
     * Starts a frame in the send buffer; {@link #send()} sends it.
     *
     * @param type      a message type.
     * @param portSpace the connection's port space.
     * @return the frame to fill.
     */
    CmMessage begin(final int type, final PortSpace portSpace)
    {
        if (outBuffer.remaining() < MAX_FRAME_LENGTH)
        {
            throw new IllegalStateException("CM send buffer of " + this + " is full: the peer reads nothing");
        }
        return outMessage.wrap(outView, outBuffer.position()).header(type, portSpace);
    }

    /**
     * Sends the frame started with {@link #begin}.
     *
     * @throws IOException if the socket failed.
     */
    void send() throws IOException
    {
        outBuffer.position(outBuffer.position() + outMessage.frameLength());
        flush();
    }

    /**
     * Writes what is pending; asks the selector for writability if the socket is full, closes the connection
     * if it was asked to close once flushed.
     *
     * @throws IOException if the socket failed.
     */
    void flush() throws IOException
    {
        outBuffer.flip();
        socket.write(outBuffer);
        final boolean pending = outBuffer.hasRemaining();
        outBuffer.compact();
        if (pending)
        {
            key.interestOps(key.interestOps() | SelectionKey.OP_WRITE);
        }
        else
        {
            if (key != null && key.isValid())
            {
                key.interestOps(key.interestOps() & ~SelectionKey.OP_WRITE);
            }
            if (closeWhenFlushed)
            {
                close();
            }
        }
    }

    /**
     * Sends a rejection (a REJ, or for SIDR a REP with a failure status) and closes once it is out, or at once if
     * the socket failed.
     *
     * @param portSpace   the port space of the rejected request.
     * @param status      the reject reason or SIDR status.
     * @param privateData the private data, checked against the limit.
     */
    void reject(final PortSpace portSpace, final int status, final byte[] privateData)
    {
        try
        {
            begin(rejectionType(portSpace), portSpace).status(status).privateData(privateData);
            send();
            closeWhenFlushed();
        }
        catch (final IOException ex)
        {
            LOG.debug("{}: rejection not delivered: {}", this, ex.toString());
            close();
        }
    }

    /**
     * Closes the connection once everything pending is written (at once if nothing is).
     *
     * @throws IOException if the socket failed.
     */
    void closeWhenFlushed() throws IOException
    {
        closeWhenFlushed = true;
        deadlineNs = Long.MAX_VALUE;
        flush();
    }

    /**
     * Closes the socket; idempotent.
     */
    void close()
    {
        if (!closed)
        {
            closed = true;
            if (key != null)
            {
                key.cancel();
            }
            try
            {
                socket.close();
            }
            catch (final IOException ignore)
            {
                // closing a socket that already failed: nothing left to release
            }
        }
    }

    @Override
    public String toString()
    {
        return "CM connection " + describe(socket);
    }

    private static String describe(final SocketChannel socket)
    {
        try
        {
            final SocketAddress local = socket.getLocalAddress();
            final SocketAddress remote = socket.getRemoteAddress();
            return local + (remote != null ? " <-> " + remote : "");
        }
        catch (final IOException ex)
        {
            return socket.toString();
        }
    }
}
