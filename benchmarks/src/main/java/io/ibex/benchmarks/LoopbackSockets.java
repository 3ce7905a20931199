package io.ibex.benchmarks;

import org.agrona.CloseHelper;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * A TCP connection over loopback between two non-blocking {@link SocketChannel}s of this process, with
 * {@code TCP_NODELAY} so that each write goes out at once.
 */
final class LoopbackSockets implements AutoCloseable
{
    private final ServerSocketChannel listener;
    private final SocketChannel client;
    private final SocketChannel server;

    /**
     * Listens on a free port of the loopback address, connects a client and accepts it.
     *
     * @throws IOException if the sockets cannot be set up.
     */
    LoopbackSockets() throws IOException
    {
        listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        SocketChannel connected = null;
        SocketChannel accepted = null;
        try
        {
            connected = SocketChannel.open(listener.getLocalAddress());
            accepted = listener.accept();
            for (final SocketChannel channel : new SocketChannel[] { connected, accepted })
            {
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                channel.configureBlocking(false);
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            CloseHelper.quietCloseAll(accepted, connected, listener);
            throw ex;
        }
        client = connected;
        server = accepted;
    }

    /** @return the end that connected. */
    SocketChannel client()
    {
        return client;
    }

    /** @return the end that was accepted. */
    SocketChannel server()
    {
        return server;
    }

    /**
     * Closes both ends and the listener.
     */
    @Override
    public void close()
    {
        CloseHelper.closeAll(client, server, listener);
    }
}
