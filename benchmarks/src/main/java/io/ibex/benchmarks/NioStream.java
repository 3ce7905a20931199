package io.ibex.benchmarks;

import org.agrona.CloseHelper;
import org.agrona.concurrent.BusySpinIdleStrategy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;

/**
 * A stream of messages over a TCP connection on loopback ({@link LoopbackSockets}): the sender writes one message
 * per write call, and TCP's window holds it back when the receiver falls behind (the write returns 0); the receiver
 * reads whatever has arrived, up to {@value #READ_LENGTH} bytes a call, and counts whole messages. Both sides
 * busy-poll.
 */
final class NioStream extends MessageStream
{
    /** Bytes the receiver reads at most per call. */
    static final int READ_LENGTH = 64 * 1024;

    private final LoopbackSockets sockets;
    private final SocketChannel server;
    private final ByteBuffer received = ByteBuffer.allocateDirect(READ_LENGTH);
    private final int messageLength;
    private long bytes;
    private long messages;

    /**
     * Connects the sockets and starts the sender.
     *
     * @param messageLength bytes of each message.
     * @throws IOException if the sockets cannot be set up.
     */
    NioStream(final int messageLength) throws IOException
    {
        super(new BusySpinIdleStrategy());
        this.messageLength = messageLength;
        sockets = new LoopbackSockets();
        server = sockets.server();
        startSender(new Sender(sockets.client(), messageLength), new BusySpinIdleStrategy());
    }

    @Override
    int poll()
    {
        try
        {
            received.clear();
            final int read = server.read(received);
            if (read < 0)
            {
                throw new ClosedChannelException();
            }
            bytes += read;
            final long whole = bytes / messageLength;
            final int arrived = (int)(whole - messages);
            messages = whole;
            return arrived;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("nio stream receiver on " + server, ex);
        }
    }

    @Override
    void closeTransport()
    {
        CloseHelper.close(sockets);
    }

    /**
     * Writes one message, or what the socket takes of it, per duty cycle.
     */
    private static final class Sender extends MessageStream.Sender
    {
        private final SocketChannel channel;
        private final ByteBuffer message;

        Sender(final SocketChannel channel, final int messageLength)
        {
            this.channel = channel;
            this.message = ByteBuffer.allocateDirect(messageLength);
        }

        @Override
        int send() throws IOException
        {
            channel.write(message);
            if (message.hasRemaining())
            {
                return 0;
            }
            message.clear();
            return 1;
        }

        @Override
        public String roleName()
        {
            return "nio-stream-sender";
        }
    }
}
