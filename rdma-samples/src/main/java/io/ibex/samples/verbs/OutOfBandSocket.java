package io.ibex.samples.verbs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;

/**
 * The TCP connection over which two out-of-band programs exchange their queue pairs' addresses, as the
 * rdma-core ping-pong examples do: the server listens on a port and takes one client, the client connects to
 * it. Every wait is bounded by a timeout, and every failure names the peer and what was awaited.
 */
public final class OutOfBandSocket implements AutoCloseable
{
    private final Socket socket;
    private final String peer;
    private final long timeoutMillis;

    private OutOfBandSocket(final Socket socket, final long timeoutMillis) throws IOException
    {
        this.socket = socket;
        this.peer = socket.getRemoteSocketAddress().toString();
        this.timeoutMillis = timeoutMillis;
        socket.setSoTimeout(timeoutMillis > Integer.MAX_VALUE ? 0 : (int)timeoutMillis);
        socket.setTcpNoDelay(true);
    }

    /**
     * Binds the listening socket (with SO_REUSEADDR, as the C tools), so a client can connect from now on.
     *
     * @param bindAddress the local address to listen on, or null for every address (as the C tools).
     * @param port        the TCP port.
     * @return the listening socket; {@link #accept} takes its one client.
     */
    public static ServerSocket listen(final String bindAddress, final int port)
    {
        final String where = (bindAddress == null ? "*" : bindAddress) + ":" + port;
        try
        {
            final InetSocketAddress local = bindAddress == null ?
                new InetSocketAddress(port) : new InetSocketAddress(InetAddress.getByName(bindAddress), port);
            final ServerSocket listener = new ServerSocket();
            try
            {
                listener.setReuseAddress(true);
                listener.bind(local, 1);
                return listener;
            }
            catch (final IOException ex)
            {
                listener.close();
                throw ex;
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot listen on TCP " + where + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * Waits for one client, then closes the listening socket (one client per run, as the C tools).
     *
     * @param listener      the listening socket.
     * @param timeoutMillis how long to wait for the client, and later for each of its messages.
     * @return the connection to the client.
     */
    public static OutOfBandSocket accept(final ServerSocket listener, final long timeoutMillis)
    {
        try (ServerSocket closed = listener)
        {
            closed.setSoTimeout((int)Math.min(timeoutMillis, Integer.MAX_VALUE));
            return new OutOfBandSocket(closed.accept(), timeoutMillis);
        }
        catch (final SocketTimeoutException ex)
        {
            throw new IllegalStateException("no client connected to TCP port " + listener.getLocalPort() +
                " within " + timeoutMillis + " ms", ex);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("accepting a client on TCP port " + listener.getLocalPort() +
                " failed: " + ex.getMessage(), ex);
        }
    }

    /**
     * Connects to a server, trying each address of the host in turn, as the C tools do.
     *
     * @param host          the server's host name or address.
     * @param port          the server's TCP port.
     * @param timeoutMillis how long to wait for the connection, and later for each of the server's messages.
     * @return the connection to the server.
     */
    public static OutOfBandSocket connect(final String host, final int port, final long timeoutMillis)
    {
        final InetAddress[] addresses;
        try
        {
            addresses = InetAddress.getAllByName(host);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException("unknown host '" + host + "'", ex);
        }
        IOException failure = null;
        for (final InetAddress address : addresses)
        {
            final Socket socket = new Socket();
            try
            {
                socket.connect(new InetSocketAddress(address, port), (int)Math.min(timeoutMillis, Integer.MAX_VALUE));
                return new OutOfBandSocket(socket, timeoutMillis);
            }
            catch (final IOException ex)
            {
                closeQuietly(socket);
                failure = ex;
            }
        }
        throw new UncheckedIOException("cannot connect to " + host + ":" + port + ": " +
            (failure != null ? failure.getMessage() : "no address"), failure);
    }

    /**
     * Reads exactly {@code bytes.length} bytes.
     *
     * @param bytes where to read to.
     * @param what  what the bytes are, for the error message, e.g. "its address message".
     * @throws IllegalStateException if the peer closes the connection or stays silent too long.
     */
    public void readFully(final byte[] bytes, final String what)
    {
        int read = 0;
        try
        {
            final InputStream in = socket.getInputStream();
            while (read < bytes.length)
            {
                final int n = in.read(bytes, read, bytes.length - read);
                if (n < 0)
                {
                    throw new IllegalStateException("the peer at " + peer + " closed the connection after " + read +
                        " of the " + bytes.length + " bytes of " + what);
                }
                read += n;
            }
        }
        catch (final SocketTimeoutException ex)
        {
            throw new IllegalStateException("the peer at " + peer + " did not send " + what + " within " +
                timeoutMillis + " ms (got " + read + " of " + bytes.length + " bytes)", ex);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("reading " + what + " from the peer at " + peer + " failed after " +
                read + " of " + bytes.length + " bytes: " + ex.getMessage(), ex);
        }
    }

    /**
     * Writes the bytes in one call, so a peer that reads a message with a single {@code read} gets it whole.
     *
     * @param bytes the message.
     * @param what  what the bytes are, for the error message.
     */
    public void write(final byte[] bytes, final String what)
    {
        try
        {
            socket.getOutputStream().write(bytes);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("sending " + what + " to the peer at " + peer + " failed: " +
                ex.getMessage(), ex);
        }
    }

    /** @return the peer's address, for messages. */
    public String peer()
    {
        return peer;
    }

    /**
     * Closes the connection.
     */
    @Override
    public void close()
    {
        closeQuietly(socket);
    }

    private static void closeQuietly(final Socket socket)
    {
        try
        {
            socket.close();
        }
        catch (final IOException ignored)
        {
            // nothing is left to release
        }
    }
}
