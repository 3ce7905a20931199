package io.ibex.rdma.provider.soft;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;

import java.nio.ByteBuffer;

import static org.agrona.UnsafeAccess.UNSAFE;

/**
 * One direction of a {@link SoftMemoryWire} or a {@link SoftSharedMemoryWire}: a single-writer, single-reader byte
 * stream in a ring of direct memory (of this JVM, or a file two processes map). A write copies what fits and a read
 * what is there, as on a non-blocking socket, without a system call. Once closed (by either end), the reader gets
 * what was written before, then end of stream. Everything the two ends share lives in the ring's memory, after the
 * bytes: the counters, the closed word and the reader's watching word.
 */
final class SoftByteRing
{
    /** Like a loopback socket's buffer: room for a few of the largest frames. */
    static final int CAPACITY = 256 * 1024;
    private static final int MASK = CAPACITY - 1;

    /**
     * The counters sit after the ring, each on its own pair of cache lines (as in Agrona's ring buffers): as fields of
     * this object they shared a line, and whether they also shared one with the other direction's ring depended on
     * where the two objects were allocated, so every copy bounced the line between the two threads, or not.
     */
    private static final int COUNTER_SPACING = 2 * BitUtil.CACHE_LINE_LENGTH;
    private static final int HEAD_OFFSET = CAPACITY + COUNTER_SPACING; // bytes read so far: the reader writes it
    /** Non-zero while the reader wants a wake-up for what arrives: beside the head, as the reader writes it too. */
    private static final int WATCHING_OFFSET = HEAD_OFFSET + Long.BYTES;
    private static final int TAIL_OFFSET = CAPACITY + 2 * COUNTER_SPACING; // bytes written so far: the writer
    private static final int CLOSED_OFFSET = CAPACITY + 3 * COUNTER_SPACING; // non-zero once either end closed
    /** Bytes a ring takes: the ring and its counters. */
    static final int LENGTH = CAPACITY + 4 * COUNTER_SPACING;

    @SuppressWarnings("unused")
    private final ByteBuffer memory; // keeps the memory (or its mapping) alive as long as the ring
    private final long ringAddress;
    private final long headAddress;
    private final long tailAddress;
    private final long watchingAddress;
    private final long closedAddress;
    private long headCache; // writer only: the head it last read, so it reads the reader's line only when short of room
    private volatile SoftProgressAgent watcher; // the progress thread of this JVM, while it is the one reading

    /**
     * A ring in memory of its own, for two ends in this JVM.
     */
    SoftByteRing()
    {
        this(ByteBuffer.allocateDirect(LENGTH), 0);
    }

    /**
     * A ring in {@link #LENGTH} bytes of {@code memory} (direct, zeroed when new) from {@code offset}, aligned to a
     * cache line.
     */
    SoftByteRing(final ByteBuffer memory, final int offset)
    {
        this.memory = memory;
        ringAddress = BufferUtil.address(memory) + offset;
        headAddress = ringAddress + HEAD_OFFSET;
        tailAddress = ringAddress + TAIL_OFFSET;
        watchingAddress = ringAddress + WATCHING_OFFSET;
        closedAddress = ringAddress + CLOSED_OFFSET;
    }

    /**
     * Copies what fits from {@code src} (a direct buffer) and publishes it.
     *
     * @return bytes written.
     */
    int write(final ByteBuffer src)
    {
        final long at = UNSAFE.getLong(tailAddress);
        if (CAPACITY - (int)(at - headCache) < src.remaining())
        {
            headCache = UNSAFE.getLongVolatile(null, headAddress);
        }
        final int length = Math.min(src.remaining(), CAPACITY - (int)(at - headCache));
        if (length > 0)
        {
            copy(BufferUtil.address(src) + src.position(), at, length, true);
            src.position(src.position() + length);
            // a full fence, not an ordered store: the watcher is read after it, and a progress thread that starts
            // watching stores the watcher before it reads the tail (otherwise each could miss the other's store)
            UNSAFE.putLongVolatile(null, tailAddress, at + length);
            wakeWatcher();
        }
        return length;
    }

    /**
     * Copies what has been written into {@code dst} (a direct buffer).
     *
     * @return bytes read, or -1 once closed and drained.
     */
    int read(final ByteBuffer dst)
    {
        final boolean ended = isClosed(); // read before tail: what was written before the close is read first
        final long at = UNSAFE.getLong(headAddress);
        final int length = Math.min(dst.remaining(), (int)(UNSAFE.getLongVolatile(null, tailAddress) - at));
        if (length == 0)
        {
            return ended && dst.hasRemaining() ? -1 : 0;
        }
        copy(BufferUtil.address(dst) + dst.position(), at, length, false);
        dst.position(dst.position() + length);
        UNSAFE.putOrderedLong(null, headAddress, at + length);
        return length;
    }

    boolean isClosed()
    {
        return UNSAFE.getIntVolatile(null, closedAddress) != 0;
    }

    void close()
    {
        UNSAFE.putIntVolatile(null, closedAddress, 1);
        wakeWatcher();
    }

    /**
     * The reader (of another process) says whether it wants a wake-up for what arrives: a full fence, as the reader
     * looks at the tail after it (see {@link #write}).
     */
    void watching(final boolean watching)
    {
        UNSAFE.putIntVolatile(null, watchingAddress, watching ? 1 : 0);
    }

    /**
     * @return whether the reader wants a wake-up; the writer asks after it published (a full fence, in {@link #write}).
     */
    boolean readerWatching()
    {
        return UNSAFE.getIntVolatile(null, watchingAddress) != 0;
    }

    /**
     * @param progress the progress thread to wake when bytes arrive or the ring closes, or null for none.
     */
    void watcher(final SoftProgressAgent progress)
    {
        watcher = progress;
    }

    private void wakeWatcher()
    {
        final SoftProgressAgent progress = watcher; // read after publishing: a watcher set since reads what is new
        if (progress != null)
        {
            progress.wakeUp();
        }
    }

    private void copy(final long address, final long position, final int length, final boolean intoRing)
    {
        final int offset = (int)(position & MASK);
        final int first = Math.min(length, CAPACITY - offset);
        copyPart(address, ringAddress + offset, first, intoRing);
        if (first < length)
        {
            copyPart(address + first, ringAddress, length - first, intoRing);
        }
    }

    private static void copyPart(final long address, final long ringAt, final int length, final boolean intoRing)
    {
        if (intoRing)
        {
            UNSAFE.copyMemory(address, ringAt, length);
        }
        else
        {
            UNSAFE.copyMemory(ringAt, address, length);
        }
    }
}
