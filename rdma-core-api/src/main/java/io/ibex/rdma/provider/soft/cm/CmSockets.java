package io.ibex.rdma.provider.soft.cm;

import io.ibex.rdma.provider.soft.wire.SoftGidDescriptor;
import io.ibex.rdma.spi.RdmaProvider;
import io.ibex.rdma.verbs.VerbsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.BindException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Objects;

/**
 * The addresses the soft device serves and the TCP sockets connection ids open on them: which addresses an id
 * may bind or reach, what a wildcard stands for, and the listening and outgoing sockets.
 * <p>
 * One per event channel; its ids call it from their user calls ({@code bindAddr}, {@code resolveAddr}). It
 * holds no state but the provider, and allocates only the sockets and addresses it returns.
 */
final class CmSockets
{
    private static final Logger LOG = LoggerFactory.getLogger(CmSockets.class);
    private static final int LISTEN_BACKLOG = 128;
    private static final int EADDRNOTAVAIL = 99;

    private final RdmaProvider provider;

    /**
     * @param provider the provider whose shared device context tells the endpoint address.
     */
    CmSockets(final RdmaProvider provider)
    {
        this.provider = provider;
    }

    /**
     * @param operation the user call, for the error.
     * @param address   an address to bind.
     * @return its IP address.
     * @throws VerbsException EINVAL if it is unresolved, EADDRNOTAVAIL if the device does not serve it.
     */
    InetAddress requireDeviceAddress(final String operation, final InetSocketAddress address)
    {
        Objects.requireNonNull(address, operation + ": address");
        final InetAddress ip = address.getAddress();
        if (ip == null)
        {
            throw new VerbsException(VerbsException.EINVAL, operation + ": address " + address + " is unresolved");
        }
        if (!isDeviceAddress(address))
        {
            throw new VerbsException(EADDRNOTAVAIL, operation + ": no soft RDMA device has address " + address +
                " (the soft device serves the loopback addresses and its endpoint address " + endpointAddress() +
                ", set by -Dibex.soft.address)");
        }
        return ip;
    }

    /**
     * @param address an address.
     * @return whether the device serves it: a loopback address, a wildcard or the endpoint address.
     */
    boolean isDeviceAddress(final InetSocketAddress address)
    {
        final InetAddress ip = address.getAddress();
        return ip != null && (ip.isLoopbackAddress() || ip.isAnyLocalAddress() || ip.equals(endpointAddress()));
    }

    /**
     * A destination is reachable when it is one of the device's own addresses, or, once the device's endpoint
     * is on a real network (-Dibex.soft.address), any host: by default nothing leaves the machine.
     *
     * @param address a destination.
     * @return whether a connection may go there.
     */
    boolean isReachable(final InetSocketAddress address)
    {
        return isDeviceAddress(address) || (address.getAddress() != null && !endpointAddress().isLoopbackAddress());
    }

    /** @return the IPv4 address of the soft device's data endpoint, which its GIDs encode. */
    InetAddress endpointAddress()
    {
        return SoftGidDescriptor.toSocketAddress(SharedContexts.of(provider).queryGid(1, 1)).getAddress();
    }

    /**
     * @param address a wildcard, or the address of the peer to reach.
     * @return the local address that stands for it: the endpoint address, or the loopback address of its family.
     */
    InetAddress localOf(final InetAddress address)
    {
        final InetAddress endpoint = endpointAddress();
        return endpoint.isLoopbackAddress() || address instanceof Inet6Address ? loopbackOf(address) : endpoint;
    }

    /**
     * Opens a non-blocking listening socket; it binds and listens at once, so a second bind of the same address
     * fails even with SO_REUSEADDR.
     *
     * @param requested the address the user asked for, for the errors.
     * @param bindTo    the address to bind.
     * @return the socket.
     * @throws VerbsException EADDRINUSE if the address is taken, EIO on another socket error.
     */
    static ServerSocketChannel openListenSocket(final InetSocketAddress requested, final InetSocketAddress bindTo)
    {
        ServerSocketChannel socket = null;
        try
        {
            socket = ServerSocketChannel.open();
            socket.configureBlocking(false);
            socket.bind(bindTo, LISTEN_BACKLOG);
            return socket;
        }
        catch (final BindException ex)
        {
            closeQuietly(socket);
            throw new VerbsException(VerbsException.EADDRINUSE, "bindAddr: address " + requested +
                " is already in use", ex);
        }
        catch (final IOException ex)
        {
            closeQuietly(socket);
            throw new VerbsException(VerbsException.EIO, "bindAddr " + requested + ": " + ex, ex);
        }
    }

    /**
     * Opens the non-blocking TCP socket a connection goes out on. Between a listener's close and this bind
     * another socket on the host may take the port, so a port the kernel chose is traded for another rather
     * than failing the resolve.
     *
     * @param bindTo  the source address.
     * @param anyPort whether the kernel chose its port.
     * @return the bound socket.
     * @throws VerbsException EADDRINUSE if the address is taken, EIO on another socket error.
     */
    static SocketChannel openClientSocket(final InetSocketAddress bindTo, final boolean anyPort)
    {
        SocketChannel socket = null;
        try
        {
            socket = SocketChannel.open();
            socket.configureBlocking(false);
            socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
            socket.bind(bindTo);
            return socket;
        }
        catch (final BindException ex)
        {
            closeQuietly(socket);
            if (anyPort && bindTo.getPort() != 0)
            {
                LOG.debug("resolveAddr: port {} was taken after the kernel gave it; binding another", bindTo);
                return openClientSocket(new InetSocketAddress(bindTo.getAddress(), 0), false);
            }
            throw new VerbsException(VerbsException.EADDRINUSE, "resolveAddr: source address " + bindTo +
                " is already in use", ex);
        }
        catch (final IOException ex)
        {
            closeQuietly(socket);
            throw new VerbsException(VerbsException.EIO, "resolveAddr from " + bindTo + ": " + ex, ex);
        }
    }

    /**
     * @param socket    a bound socket.
     * @param requested the address it was bound to.
     * @return the address it is bound to, or the requested one if the socket cannot tell.
     */
    static InetSocketAddress boundAddress(final SocketChannel socket, final InetSocketAddress requested)
    {
        try
        {
            return (InetSocketAddress)socket.getLocalAddress();
        }
        catch (final IOException ex)
        {
            return requested;
        }
    }

    /**
     * Closes a socket or selector whose errors no longer matter: the first error is the one reported.
     *
     * @param closeable what to close, or null.
     */
    static void closeQuietly(final AutoCloseable closeable)
    {
        if (closeable != null)
        {
            try
            {
                closeable.close();
            }
            catch (final Exception ignore)
            {
                // releasing after a failure or on shutdown: nothing more to report
            }
        }
    }

    private static InetAddress loopbackOf(final InetAddress address)
    {
        try
        {
            return address instanceof Inet6Address ? InetAddress.getByName("::1") : InetAddress.getByName("127.0.0.1");
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalStateException(ex); // literals never need a lookup
        }
    }
}
