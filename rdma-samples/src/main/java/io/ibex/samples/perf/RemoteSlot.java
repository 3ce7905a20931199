package io.ibex.samples.perf;

import io.ibex.samples.verbs.OutOfBandSocket;

import java.nio.ByteBuffer;

/**
 * Where a WRITE test's peer writes: the address, rkey and length of a side's receive slot, which the two sides
 * of {@code ibex write-lat} and {@code write-bw} exchange over the out-of-band connection once their queue pairs
 * are connected, as perftest exchanges its buffer's rkey and address ({@value #LENGTH} bytes, big-endian: the
 * address, the rkey, the length).
 *
 * @param address the slot's virtual address.
 * @param rkey    the rkey of its memory region.
 * @param length  its bytes: the peer's {@code -s}.
 */
record RemoteSlot(long address, int rkey, int length)
{
    /** Bytes of the message. */
    static final int LENGTH = Long.BYTES + Integer.BYTES + Integer.BYTES;

    /**
     * Sends this side's slot and reads the peer's.
     *
     * @param peer  the out-of-band connection.
     * @param local this side's receive slot; its length is the message size both sides must use.
     * @return the peer's receive slot.
     * @throws IllegalStateException if the peer's slot is not as long as ours: the sides were given other sizes.
     */
    static RemoteSlot exchange(final OutOfBandSocket peer, final RemoteSlot local)
    {
        final ByteBuffer message = ByteBuffer.allocate(LENGTH);
        message.putLong(local.address).putInt(local.rkey).putInt(local.length);
        peer.write(message.array(), "our receive slot");
        message.clear();
        peer.readFully(message.array(), "its receive slot (address, rkey, length)");
        final RemoteSlot remote = new RemoteSlot(message.getLong(), message.getInt(), message.getInt());
        if (remote.length != local.length)
        {
            throw new IllegalStateException("the peer at " + peer.peer() + " writes and expects messages of " +
                remote.length + " bytes, we of " + local.length + " (-s/--size): give both sides the same -s");
        }
        return remote;
    }
}
