package io.ibex.benchmarks;

import io.ibex.rdma.Providers;

import java.io.IOException;

/**
 * A ping-pong between two endpoints of one process: the caller's thread sends a message ({@link #MESSAGE_LENGTH}
 * bytes for the ping-pongs {@link #open} makes) and busy-polls until the echo comes back; the echo side
 * busy-polls on its own thread. Both loops allocate nothing.
 */
interface PingPong extends AutoCloseable
{
    /** Bytes of the message each way. */
    int MESSAGE_LENGTH = 64;

    /** The transport name of the java.nio socket ping-pong. */
    String NIO = "nio";

    /**
     * Connects the two endpoints and starts the echo thread.
     *
     * @param transport {@value #NIO} for java.nio sockets, else the name of an RDMA provider to run RC over.
     * @return the ping-pong.
     * @throws IOException if the nio sockets cannot be set up.
     */
    static PingPong open(final String transport) throws IOException
    {
        return NIO.equals(transport) ? new NioPingPong() :
            new RcPingPong(Providers.select(transport), MESSAGE_LENGTH);
    }

    /**
     * Sends one message and waits, busy-polling, for its echo.
     */
    void roundTrip();

    /**
     * Stops the echo thread and releases both endpoints.
     */
    @Override
    void close();
}
