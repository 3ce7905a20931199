package io.ibex.rdma.provider.soft.wire;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * A link's TCP connection to a QP of another device (or of this one, with {@code ibex.soft.localLinks=tcp}).
 */
public final class SoftSocketWire implements SoftWire
{
    private final SocketChannel channel;
    private final String peer;
    private boolean connecting;
    private SelectionKey key; // progress thread only

    private SoftSocketWire(final SocketChannel channel, final String peer, final boolean connecting) throws IOException
    {
        this.channel = channel;
        this.peer = peer;
        this.connecting = connecting;
        channel.configureBlocking(false);
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
    }

    /**
     * Starts a non-blocking connection.
     */
    static SoftSocketWire connect(final InetSocketAddress remote) throws IOException
    {
        final SocketChannel channel = SocketChannel.open();
        try
        {
            final SoftSocketWire wire = new SoftSocketWire(channel, remote.toString(), true);
            wire.connecting = !channel.connect(remote);
            return wire;
        }
        catch (final IOException | RuntimeException ex)
        {
            channel.close();
            throw ex;
        }
    }

    /**
     * Wraps an accepted connection.
     */
    public static SoftSocketWire accepted(final SocketChannel channel) throws IOException
    {
        return new SoftSocketWire(channel, String.valueOf(channel.getRemoteAddress()), false);
    }

    @Override
    public int read(final ByteBuffer dst) throws IOException
    {
        return channel.read(dst);
    }

    @Override
    public int write(final ByteBuffer src) throws IOException
    {
        return connecting ? 0 : channel.write(src);
    }

    @Override
    public boolean finishConnect() throws IOException
    {
        if (connecting)
        {
            connecting = !channel.finishConnect();
        }
        return !connecting;
    }

    @Override
    public void watch(final SoftWireWatcher progress) throws IOException
    {
        if (key == null)
        {
            // an accepted link was registered for its HELLO
            final SelectionKey registered = channel.keyFor(progress.selector());
            key = registered != null ? registered : channel.register(progress.selector(), 0);
        }
        interest(SelectionKey.OP_READ);
    }

    @Override
    public void unwatch()
    {
        if (key != null)
        {
            interest(0);
        }
    }

    @Override
    public void close()
    {
        try
        {
            channel.close();
        }
        catch (final IOException ignore)
        {
            // closing is best effort: the peer sees EOF either way
        }
    }

    @Override
    public String peer()
    {
        return peer;
    }

    private void interest(final int interest)
    {
        try
        {
            if (key.isValid() && key.interestOps() != interest)
            {
                key.interestOps(interest);
            }
        }
        catch (final CancelledKeyException ex)
        {
            // the application closed the link between the check and the update: nothing left to watch
        }
    }
}
