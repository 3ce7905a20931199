package io.ibex.benchmarks;

import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;

/**
 * The peer to measure RDMA against: a TCP ping-pong over loopback ({@link LoopbackSockets}) with direct
 * buffers, both sides busy-polling.
 */
final class NioPingPong implements PingPong
{
    private final LoopbackSockets sockets;
    private final SocketChannel client;
    private final ByteBuffer request;
    private final ByteBuffer response;
    private final PeerThread echo;

    /**
     * Connects a client and a server socket over loopback and starts the echo thread.
     *
     * @param messageLength bytes of the message each way.
     * @throws IOException if the sockets cannot be set up.
     */
    NioPingPong(final int messageLength) throws IOException
    {
        request = ByteBuffer.allocateDirect(messageLength);
        response = ByteBuffer.allocateDirect(messageLength);
        sockets = new LoopbackSockets();
        client = sockets.client();
        echo = new PeerThread(new Echo(sockets.server(), messageLength));
    }

    @Override
    public void roundTrip()
    {
        try
        {
            request.clear();
            do
            {
                client.write(request);
            }
            while (request.hasRemaining());

            response.clear();
            while (response.hasRemaining())
            {
                if (client.read(response) < 0)
                {
                    throw new ClosedChannelException();
                }
                echo.checkAlive();
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("nio ping-pong client on " + client, ex);
        }
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(echo, sockets);
    }

    /**
     * Reads a whole message, then writes it back.
     */
    private static final class Echo implements Agent
    {
        private final SocketChannel channel;
        private final ByteBuffer message;

        Echo(final SocketChannel channel, final int messageLength)
        {
            this.channel = channel;
            this.message = ByteBuffer.allocateDirect(messageLength);
        }

        @Override
        public int doWork() throws IOException
        {
            final int read = channel.read(message);
            if (read < 0)
            {
                throw new ClosedChannelException();
            }
            if (message.hasRemaining())
            {
                return read;
            }
            message.flip();
            do
            {
                channel.write(message);
            }
            while (message.hasRemaining());
            message.clear();
            return read + 1;
        }

        @Override
        public String roleName()
        {
            return "nio-echo";
        }
    }
}
