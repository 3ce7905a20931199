package io.ibex.benchmarks;

import io.ibex.rdma.Providers;

import java.io.IOException;

/**
 * The transports the peer benchmarks run the same operation on, by the name their {@code transport} parameter
 * takes, and the factories that open a {@link PingPong} or a {@link MessageStream} on one of them.
 */
final class Transports
{
    /** Non-blocking java.nio TCP sockets over 127.0.0.1, busy-polled. */
    static final String NIO = "nio";
    /** RC SEND/RECV on the soft provider; any other RDMA provider is named the same way. */
    static final String SOFT = "soft";
    /** RC SEND/RECV on the soft provider to an echo in another JVM of this host, through shared memory. */
    static final String SOFT_SHM_PROCESS = "soft-shm-2jvm";
    /** RC RDMA WRITEs on the soft provider to an echo in another JVM of this host, as copies into shared memory. */
    static final String SOFT_SHM_WRITE_PROCESS = "soft-shm-write-2jvm";
    /** RC SEND/RECV on the soft provider to an echo in another JVM of this host, over TCP. */
    static final String SOFT_TCP_PROCESS = "soft-tcp-2jvm";
    /** Aeron over UDP unicast to 127.0.0.1, through an embedded media driver. */
    static final String AERON_UDP = "aeron-udp";
    /** Aeron over shared memory (IPC), through an embedded media driver. */
    static final String AERON_IPC = "aeron-ipc";
    /** The smallest message: zero-length messages are not a thing every transport has. */
    static final int MIN_SIZE = 1;
    /** The largest message; the benchmarks measure up to 4096 bytes. */
    static final int MAX_SIZE = 64 * 1024;

    private Transports()
    {
    }

    /**
     * Connects the two ends of a ping-pong and starts its echo thread.
     *
     * @param transport {@value #NIO}, {@value #AERON_UDP}, {@value #AERON_IPC}, {@value #SOFT_SHM_PROCESS},
     *                  {@value #SOFT_SHM_WRITE_PROCESS}, {@value #SOFT_TCP_PROCESS}, or an RDMA provider's name.
     * @param size      bytes of each message, {@value #MIN_SIZE} to {@value #MAX_SIZE}.
     * @param aeron     the media driver's threading and the idle strategy of Aeron's clients (Aeron only).
     * @return the ping-pong; close it.
     * @throws IOException if the nio sockets cannot be set up.
     */
    static PingPong pingPong(final String transport, final int size, final AeronSetup aeron) throws IOException
    {
        checkSize(size);
        return switch (transport)
        {
            case NIO -> new NioPingPong(size);
            case AERON_UDP, AERON_IPC -> new AeronPingPong(transport, size, aeron);
            case SOFT_SHM_PROCESS -> new RcProcessPingPong(false, true, size, false);
            case SOFT_SHM_WRITE_PROCESS -> new RcProcessPingPong(true, true, size, false);
            case SOFT_TCP_PROCESS -> new RcProcessPingPong(false, false, size, false);
            default -> new RcPingPong(Providers.select(transport), size);
        };
    }

    /**
     * Connects the two ends of a stream and starts its sender thread.
     *
     * @param transport {@value #NIO}, {@value #AERON_UDP}, {@value #AERON_IPC}, or an RDMA provider's name.
     * @param size      bytes of each message, {@value #MIN_SIZE} to {@value #MAX_SIZE}.
     * @param aeron     the media driver's threading and the idle strategy of Aeron's clients (Aeron only).
     * @return the stream; close it.
     * @throws IOException if the nio sockets cannot be set up.
     */
    static MessageStream stream(final String transport, final int size, final AeronSetup aeron) throws IOException
    {
        checkSize(size);
        return switch (transport)
        {
            case NIO -> new NioStream(size);
            case AERON_UDP, AERON_IPC -> new AeronStream(transport, size, aeron);
            default -> new RcStream(Providers.select(transport), size);
        };
    }

    private static void checkSize(final int size)
    {
        if (size < MIN_SIZE || size > MAX_SIZE)
        {
            throw new IllegalArgumentException("size=" + size + ": messages must be " + MIN_SIZE + " to " + MAX_SIZE +
                " bytes");
        }
    }
}
