package io.ibex.benchmarks;

import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * The peer to measure RDMA against: a TCP ping-pong over loopback with non-blocking {@link SocketChannel}s,
 * {@code TCP_NODELAY}, and direct buffers, both sides busy-polling.
 */
final class NioPingPong implements PingPong
{
    private final ServerSocketChannel listener;
    private final SocketChannel client;
    private final SocketChannel server;
    private final ByteBuffer request = ByteBuffer.allocateDirect(MESSAGE_LENGTH);
    private final ByteBuffer response = ByteBuffer.allocateDirect(MESSAGE_LENGTH);
    private final PeerThread echo;

    /**
     * Connects a client and a server socket over loopback and starts the echo thread.
     *
     * @throws IOException if the sockets cannot be set up.
     */
    NioPingPong() throws IOException
    {
        listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        client = SocketChannel.open(listener.getLocalAddress());
        server = listener.accept();
        for (final SocketChannel channel : new SocketChannel[] { client, server })
        {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.configureBlocking(false);
        }
        echo = new PeerThread(new Echo(server));
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
        CloseHelper.closeAll(echo, client, server, listener);
    }

    /**
     * Reads a whole message, then writes it back.
     */
    private static final class Echo implements Agent
    {
        private final SocketChannel channel;
        private final ByteBuffer message = ByteBuffer.allocateDirect(MESSAGE_LENGTH);

        Echo(final SocketChannel channel)
        {
            this.channel = channel;
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
