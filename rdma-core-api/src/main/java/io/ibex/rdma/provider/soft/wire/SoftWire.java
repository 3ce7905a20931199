package io.ibex.rdma.provider.soft.wire;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * What carries a {@link SoftLink}'s bytes, with the semantics of a non-blocking socket: a TCP connection to
 * another device ({@link SoftSocketWire}), or a pair of rings in memory to a QP of the same device
 * ({@link SoftMemoryWire}). Not thread-safe: the owning QP's lock guards it, except {@link #watch}, which only the
 * progress thread calls.
 */
public interface SoftWire
{
    /**
     * Reads what has arrived into {@code dst}, without blocking.
     *
     * @return bytes read, or -1 at end of stream.
     */
    int read(ByteBuffer dst) throws IOException;

    /**
     * Writes what fits from {@code src}, without blocking.
     *
     * @return bytes written (0 when the peer's side is full).
     */
    int write(ByteBuffer src) throws IOException;

    /**
     * @return true once connected; throws if connecting failed.
     */
    boolean finishConnect() throws IOException;

    /**
     * Has the progress thread woken when bytes arrive or the stream ends: for a QP it drives, since no application
     * thread does. Called by the progress thread only.
     */
    void watch(SoftWireWatcher progress) throws IOException;

    /**
     * Undoes {@link #watch}: an application drives the QP again (or the link is done with). Progress thread only.
     */
    void unwatch();

    /**
     * Ends the stream: the peer reads what was written, then end of stream. Idempotent.
     */
    void close();

    /**
     * @return the peer, for messages.
     */
    String peer();
}
