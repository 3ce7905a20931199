package io.ibex.rdma.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Ports for tests to bind on the loopback address. They come from below Linux's default ephemeral range
 * (32768-60999), so that no connection's local port can take one between {@link #next()} and the test's bind, as a
 * kernel-chosen free port could; each process starts at its own offset, so that concurrent builds rarely meet.
 */
public final class LoopbackPorts
{
    private static final int FIRST = 20_000;
    private static final int COUNT = 12_000;
    private static final AtomicInteger NEXT = new AtomicInteger((int)(ProcessHandle.current().pid() * 101 % COUNT));

    private LoopbackPorts()
    {
    }

    /**
     * @return a port nothing on this host binds now, checked without SO_REUSEADDR, else it may be one a closed
     *     connection still holds (TIME_WAIT), which a source's own address cannot bind.
     * @throws IllegalStateException when every port of the range is taken.
     */
    public static int next()
    {
        for (int tries = 0; tries < COUNT; tries++)
        {
            final int port = FIRST + Math.floorMod(NEXT.getAndIncrement(), COUNT);
            if (isFree(port))
            {
                return port;
            }
        }
        throw new IllegalStateException("no free loopback port in " + FIRST + ".." + (FIRST + COUNT - 1));
    }

    private static boolean isFree(final int port)
    {
        try (ServerSocket socket = new ServerSocket())
        {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return true;
        }
        catch (final IOException ex)
        {
            return false;
        }
    }
}
