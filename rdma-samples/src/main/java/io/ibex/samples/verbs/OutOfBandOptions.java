package io.ibex.samples.verbs;

import io.ibex.samples.EndpointAddress;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.net.ServerSocket;
import java.util.function.Consumer;

/**
 * The options of a program that sets its queue pair up out of band over TCP, as the rdma-core ping-pong
 * examples: without HOST it is the server and listens, with HOST it is the client and connects. Mixed into the
 * ping-pongs, rdma-write and the perftest-like commands.
 */
public final class OutOfBandOptions
{
    @Parameters(arity = "0..1", paramLabel = "HOST",
        description = "Connect to the server on this host; without it, be the server and wait for a client.")
    private String host;

    @Option(names = { "-p", "--port" }, paramLabel = "PORT", defaultValue = "18515",
        description = "Listen on/connect to this TCP port (default: ${DEFAULT-VALUE}).")
    private int tcpPort;

    @Option(names = "--listen", paramLabel = "ADDRESS",
        description = "ibex only: the server listens on this address (default: every address, as the C tools).")
    private String listenAddress;

    @Option(names = "--timeout-ms", paramLabel = "MILLIS", defaultValue = "60000",
        description = "ibex only: the longest wait for the peer's connection, each of its messages, and each " +
            "completion (default: ${DEFAULT-VALUE}).")
    private long timeoutMillis;

    /**
     * Checks the TCP port and the timeout.
     *
     * @throws IllegalArgumentException naming the option and its value.
     */
    public void check()
    {
        if (tcpPort < 1 || tcpPort > 0xffff)
        {
            throw new IllegalArgumentException("-p/--port " + tcpPort + " out of range 1..65535");
        }
        if (timeoutMillis < 1)
        {
            throw new IllegalArgumentException("--timeout-ms " + timeoutMillis + " must be at least 1");
        }
    }

    /** @return whether this side is the client (HOST given). */
    public boolean isClient()
    {
        return host != null;
    }

    /** @return the longest wait for anything, in milliseconds. */
    public long timeoutMillis()
    {
        return timeoutMillis;
    }

    /** @return the server's listening socket, bound to {@code --listen} and {@code -p}. */
    public ServerSocket listen()
    {
        return OutOfBandSocket.listen(listenAddress, tcpPort);
    }

    /**
     * @param listener the listening socket from {@link #listen()}.
     * @return the connection to the one client.
     */
    public OutOfBandSocket accept(final ServerSocket listener)
    {
        return OutOfBandSocket.accept(listener, timeoutMillis);
    }

    /** @return the client's connection to HOST at {@code -p}. */
    public OutOfBandSocket connect()
    {
        return OutOfBandSocket.connect(host, tcpPort, timeoutMillis);
    }

    /**
     * Exchanges addresses with the peer in the format of the rdma-core ping-pongs ({@link PingpongExchange}) and
     * connects this side's queue pair to the peer's: the server before it answers, the client once it has the
     * answer. The TCP connection is closed afterwards.
     *
     * @param local    this side's address.
     * @param connect  connects this side's queue pair to the peer's address.
     * @param announce called once the peer may start: on the server once it listens, on the client before it
     *                 connects (both print their local address there).
     * @return the peer's address.
     */
    public EndpointAddress exchange(
        final EndpointAddress local, final Consumer<EndpointAddress> connect, final Runnable announce)
    {
        try (OutOfBandPeer peer = meet(local, connect, announce))
        {
            return peer.address();
        }
    }

    /**
     * As {@link #exchange}, but keeps the TCP connection open for the caller's own messages.
     *
     * @param local    this side's address.
     * @param connect  connects this side's queue pair to the peer's address.
     * @param announce called once the peer may start: on the server once it listens, on the client before it
     *                 connects.
     * @return the peer: its address and the open connection; close it when done.
     */
    public OutOfBandPeer meet(
        final EndpointAddress local, final Consumer<EndpointAddress> connect, final Runnable announce)
    {
        if (isClient())
        {
            announce.run();
            final OutOfBandSocket server = connect();
            try
            {
                final EndpointAddress remote = PingpongExchange.request(server, local);
                connect.accept(remote);
                return new OutOfBandPeer(server, remote);
            }
            catch (final RuntimeException ex)
            {
                server.close();
                throw ex;
            }
        }
        final ServerSocket listener = listen();
        announce.run();
        final OutOfBandSocket client = accept(listener);
        try
        {
            return new OutOfBandPeer(client, PingpongExchange.serve(client, local, connect));
        }
        catch (final RuntimeException ex)
        {
            client.close();
            throw ex;
        }
    }
}
