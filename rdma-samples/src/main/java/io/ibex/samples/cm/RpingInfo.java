package io.ibex.samples.cm;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * rping's buffer advertisement, {@code struct rping_rdma_info}: what a client SENDs so its server can RDMA READ
 * the client's source buffer or RDMA WRITE its sink buffer. A flyweight over 16 bytes of a registered buffer;
 * every field is big-endian on the wire, as rping converts with {@code htobe64}/{@code htobe32}:
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                     buf: the buffer's address                 |
 *  |                                                               |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                     rkey: its memory region's rkey            |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                     size: its length in bytes                 |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 */
final class RpingInfo
{
    /** Offset of the buffer address. */
    static final int BUF_OFFSET = 0;
    /** Offset of the rkey. */
    static final int RKEY_OFFSET = BUF_OFFSET + Long.BYTES;
    /** Offset of the size. */
    static final int SIZE_OFFSET = RKEY_OFFSET + Integer.BYTES;
    /** Bytes of the message. */
    static final int LENGTH = SIZE_OFFSET + Integer.BYTES;

    private final UnsafeBuffer buffer = new UnsafeBuffer(0, 0);

    /**
     * @param byteBuffer the buffer that holds the message.
     * @param offset     where it starts.
     * @return this flyweight.
     */
    RpingInfo wrap(final ByteBuffer byteBuffer, final int offset)
    {
        buffer.wrap(byteBuffer, offset, LENGTH);
        return this;
    }

    /** @return the advertised buffer's address. */
    long buf()
    {
        return buffer.getLong(BUF_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    /** @return the advertised buffer's rkey. */
    int rkey()
    {
        return buffer.getInt(RKEY_OFFSET, ByteOrder.BIG_ENDIAN);
    }

    /** @return the advertised buffer's length (unsigned 32 bits on the wire). */
    long size()
    {
        return Integer.toUnsignedLong(buffer.getInt(SIZE_OFFSET, ByteOrder.BIG_ENDIAN));
    }

    /**
     * Writes an advertisement, as {@code rping_format_send}.
     *
     * @param buf  the buffer's address.
     * @param rkey its rkey.
     * @param size its length.
     * @return this flyweight.
     */
    RpingInfo set(final long buf, final int rkey, final int size)
    {
        buffer.putLong(BUF_OFFSET, buf, ByteOrder.BIG_ENDIAN);
        buffer.putInt(RKEY_OFFSET, rkey, ByteOrder.BIG_ENDIAN);
        buffer.putInt(SIZE_OFFSET, size, ByteOrder.BIG_ENDIAN);
        return this;
    }
}
