package io.ibex.samples.verbs;

import io.ibex.samples.EndpointAddress;

import java.nio.ByteBuffer;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One side of a ping-pong, RC or UD, with its resources open: what {@link PingpongOptions#run} needs from the
 * transport, gathered by the command that opened it.
 */
final class PingpongEndpoint implements AutoCloseable
{
    private final Supplier<EndpointAddress> address;
    private final Consumer<EndpointAddress> connect;
    private final Pingpong pingpong;
    private final ByteBuffer buffer;
    private final int messageOffset;
    private final Runnable close;

    /**
     * @param address       what the peer needs to reach this endpoint.
     * @param connect       connects to the peer: RC moves the queue pair to RTR and RTS, UD moves it to RTS and
     *                      creates the address handle.
     * @param pingpong      the loop over this endpoint's queue pair.
     * @param buffer        the registered buffer.
     * @param messageOffset where a message starts in the buffer (after the 40-byte GRH on UD).
     * @param close         releases everything.
     */
    PingpongEndpoint(
        final Supplier<EndpointAddress> address,
        final Consumer<EndpointAddress> connect,
        final Pingpong pingpong,
        final ByteBuffer buffer,
        final int messageOffset,
        final Runnable close)
    {
        this.address = address;
        this.connect = connect;
        this.pingpong = pingpong;
        this.buffer = buffer;
        this.messageOffset = messageOffset;
        this.close = close;
    }

    /** @return what the peer needs to reach this endpoint. */
    EndpointAddress address()
    {
        return address.get();
    }

    /**
     * Connects to the peer.
     *
     * @param remote the peer's address.
     */
    void connect(final EndpointAddress remote)
    {
        connect.accept(remote);
    }

    /** @return the loop over this endpoint's queue pair. */
    Pingpong pingpong()
    {
        return pingpong;
    }

    /** @return the registered buffer. */
    ByteBuffer buffer()
    {
        return buffer;
    }

    /** @return where a message starts in the buffer. */
    int messageOffset()
    {
        return messageOffset;
    }

    /**
     * Releases everything.
     */
    @Override
    public void close()
    {
        close.run();
    }
}
