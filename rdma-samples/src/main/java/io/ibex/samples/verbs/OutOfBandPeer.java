package io.ibex.samples.verbs;

import io.ibex.samples.EndpointAddress;

/**
 * The peer once addresses are exchanged and the queue pair is connected: its address, and the TCP connection of
 * the exchange, kept open for programs that synchronize over it as perftest does (the rdma-core ping-pongs close
 * it).
 *
 * @param connection the TCP connection to the peer; closing this closes it.
 * @param address    the peer's address.
 */
public record OutOfBandPeer(OutOfBandSocket connection, EndpointAddress address) implements AutoCloseable
{
    /**
     * Closes the connection.
     */
    @Override
    public void close()
    {
        connection.close();
    }
}
