package io.ibex.samples.verbs;

import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.net.ServerSocket;

/**
 * The options of a program that sets its queue pair up out of band over TCP, as the rdma-core ping-pong
 * examples: without HOST it is the server and listens, with HOST it is the client and connects. Mixed into the
 * ping-pongs and rdma-write.
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
    void check()
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
    boolean isClient()
    {
        return host != null;
    }

    /** @return the longest wait for anything, in milliseconds. */
    long timeoutMillis()
    {
        return timeoutMillis;
    }

    /** @return the server's listening socket, bound to {@code --listen} and {@code -p}. */
    ServerSocket listen()
    {
        return OutOfBandSocket.listen(listenAddress, tcpPort);
    }

    /**
     * @param listener the listening socket from {@link #listen()}.
     * @return the connection to the one client.
     */
    OutOfBandSocket accept(final ServerSocket listener)
    {
        return OutOfBandSocket.accept(listener, timeoutMillis);
    }

    /** @return the client's connection to HOST at {@code -p}. */
    OutOfBandSocket connect()
    {
        return OutOfBandSocket.connect(host, tcpPort, timeoutMillis);
    }
}
