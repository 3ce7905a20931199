package io.ibex.rdma.provider.soft.wire;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;

import java.io.IOException;
import java.nio.ByteBuffer;

import static io.ibex.rdma.provider.soft.wire.SoftUnsafe.UNSAFE;

/**
 * One direction of a {@link SoftMemoryWire} or a {@link SoftSharedMemoryWire}: a single-writer, single-reader byte
 * stream in a ring of direct memory (of this JVM, or a file two processes map). A write copies what fits and a read
 * what is there, as on a non-blocking socket, without a system call. Once closed (by either end), the reader gets
 * what was written before, then end of stream. Everything the two ends share lives in the ring's memory: the bytes,
 * then the head, the reader's watching word and the closed word.
 * <p>
 * Each write is a record, as in Agrona's ring buffers: an 8-byte header holding its length, then the bytes, padded
 * to 8. The writer publishes the header last and the reader polls the header where its head is, so the cache line
 * that tells the reader something arrived also brings the first bytes of it. The reader zeroes what it has read
 * before it moves its head past it, so the memory ahead of the writer is always zero and a stale record is never
 * taken for a new one. It does so late, when a read finds nothing or once {@link #RELEASE_BYTES} wait, so that a
 * record's arrival and its completion are not separated by taking the lines back from the writer's core. A read may
 * take part of a record; its room comes back once it is read whole and released.
 * <p>
 * One thread writes and one reads (each under its QP's lock); the memory is allocated or mapped by the creator.
 */
final class SoftByteRing
{
    /** Like a loopback socket's buffer: room for a few of the largest frames. */
    static final int CAPACITY = 256 * 1024;
    private static final int MASK = CAPACITY - 1;
    private static final int RECORD_HEADER_LENGTH = Long.BYTES;
    private static final int RECORD_ALIGNMENT = Long.BYTES;
    private static final int INTO_RING = 0;
    private static final int OUT_OF_RING = 1;
    private static final int ZERO = 2;

    /**
     * The counters sit after the ring, each on its own pair of cache lines (as in Agrona's ring buffers), so the two
     * ends share a line only for the records they hand over.
     */
    private static final int COUNTER_SPACING = 2 * BitUtil.CACHE_LINE_LENGTH;
    private static final int HEAD_OFFSET = CAPACITY + COUNTER_SPACING; // bytes read so far: the reader writes it
    /**
     * Non-zero while the reader wants a wake-up for what arrives. The writer reads it after every record and the
     * reader writes it rarely, so it has lines of its own: beside the head, each record cost the writer a miss.
     */
    private static final int WATCHING_OFFSET = CAPACITY + 2 * COUNTER_SPACING;
    private static final int CLOSED_OFFSET = CAPACITY + 3 * COUNTER_SPACING; // non-zero once either end closed
    /** Read records this long are zeroed and their room handed back even while more keep arriving. */
    static final int RELEASE_BYTES = CAPACITY / 8;
    /** Bytes a ring takes: the ring and its counters. */
    static final int LENGTH = CAPACITY + 4 * COUNTER_SPACING;

    /**
     * Each end's own positions, in memory of this JVM (not in the file: a peer must not move them), on lines of their
     * own: in one JVM both ends use this object, and as two fields of it they shared a line that every record bounced
     * between the two threads.
     */
    private static final int WRITER_TAIL = 0; // where the writer's next record goes
    /** The head the writer last read: it reads the head's line only when short of room. */
    private static final int WRITER_HEAD_CACHE = Long.BYTES;
    private static final int READER_HEAD = COUNTER_SPACING; // where the next record starts (published at headAddress)
    private static final int READER_RECORD_READ = COUNTER_SPACING + Long.BYTES; // bytes of that record read already
    private static final int READER_RELEASED = COUNTER_SPACING + 2 * Long.BYTES; // head last published (zeroed to)
    private static final int POSITIONS_LENGTH = 2 * COUNTER_SPACING;

    @SuppressWarnings("unused")
    private final ByteBuffer memory; // keeps the memory (or its mapping) alive as long as the ring
    private final ByteBuffer positions = ByteBuffer.allocateDirect(POSITIONS_LENGTH); // keeps positionsAddress alive
    private final long positionsAddress = BufferUtil.address(positions);
    private final long ringAddress;
    private final long headAddress;
    private final long watchingAddress;
    private final long closedAddress;
    private volatile SoftWireWatcher watcher; // the progress thread of this JVM, while it is the one reading

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
        watchingAddress = ringAddress + WATCHING_OFFSET;
        closedAddress = ringAddress + CLOSED_OFFSET;
    }

    /**
     * Copies what fits from {@code src} (a direct buffer) as one record and publishes it.
     *
     * @return bytes written.
     */
    int write(final ByteBuffer src)
    {
        final long at = UNSAFE.getLong(positionsAddress + WRITER_TAIL);
        final int wanted = src.remaining();
        if (room(at) < wanted)
        {
            UNSAFE.putLong(positionsAddress + WRITER_HEAD_CACHE, UNSAFE.getLongVolatile(null, headAddress));
        }
        final int length = Math.min(wanted, room(at));
        if (length <= 0)
        {
            return 0;
        }
        transfer(BufferUtil.address(src) + src.position(), at + RECORD_HEADER_LENGTH, length, INTO_RING);
        src.position(src.position() + length);
        UNSAFE.putLong(positionsAddress + WRITER_TAIL,
            at + BitUtil.align(RECORD_HEADER_LENGTH + length, RECORD_ALIGNMENT));
        // a full fence, not an ordered store: the watcher is read after it, and a progress thread that starts
        // watching stores the watcher before it reads the ring (otherwise each could miss the other's store)
        UNSAFE.putLongVolatile(null, ringAddress + (at & MASK), length);
        wakeWatcher();
        return length;
    }

    /**
     * @return the most bytes one record at {@code tail} can take now (the ring's free bytes less a header).
     */
    private int room(final long tail)
    {
        return CAPACITY - (int)(tail - UNSAFE.getLong(positionsAddress + WRITER_HEAD_CACHE)) - RECORD_HEADER_LENGTH;
    }

    /**
     * Copies what has been written into {@code dst} (a direct buffer).
     *
     * @return bytes read, or -1 once closed and drained.
     * @throws IOException if a record's header is not one the writer can have written (memory another process
     *         corrupted): nothing is read past the ring.
     */
    int read(final ByteBuffer dst) throws IOException
    {
        final boolean ended = isClosed(); // read before the records: what was written before the close is read first
        long head = UNSAFE.getLong(positionsAddress + READER_HEAD);
        long recordRead = UNSAFE.getLong(positionsAddress + READER_RECORD_READ);
        int read = 0;
        while (dst.hasRemaining())
        {
            final long length = UNSAFE.getLongVolatile(null, ringAddress + (head & MASK));
            if (length == 0)
            {
                break;
            }
            if (length < 0 || length > CAPACITY - RECORD_HEADER_LENGTH)
            {
                throw new IOException("corrupt ring: the record at position " + head + " says it is " + length +
                    " bytes long, outside 1.." + (CAPACITY - RECORD_HEADER_LENGTH));
            }
            final int part = (int)Math.min(length - recordRead, dst.remaining());
            transfer(BufferUtil.address(dst) + dst.position(), head + RECORD_HEADER_LENGTH + recordRead, part,
                OUT_OF_RING);
            dst.position(dst.position() + part);
            read += part;
            recordRead += part;
            if (recordRead == length)
            {
                head += BitUtil.align(RECORD_HEADER_LENGTH + (int)length, RECORD_ALIGNMENT);
                recordRead = 0;
                if (head - UNSAFE.getLong(positionsAddress + READER_RELEASED) >= RELEASE_BYTES)
                {
                    release(head); // also before the head can come round to bytes not yet zeroed
                }
            }
        }
        if (read == 0)
        {
            release(head); // nothing to hand up: time to give the writer its room back
            return ended && dst.hasRemaining() ? -1 : 0;
        }
        UNSAFE.putLong(positionsAddress + READER_HEAD, head);
        UNSAFE.putLong(positionsAddress + READER_RECORD_READ, recordRead);
        return read;
    }

    /**
     * Zeroes the records read whole before {@code head}, then publishes it: the writer reuses the bytes only after.
     */
    private void release(final long head)
    {
        final long released = UNSAFE.getLong(positionsAddress + READER_RELEASED);
        if (head != released)
        {
            transfer(0, released, (int)(head - released), ZERO);
            UNSAFE.putOrderedLong(null, headAddress, head);
            UNSAFE.putLong(positionsAddress + READER_RELEASED, head);
        }
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
     * looks at the ring after it (see {@link #write}).
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
    void watcher(final SoftWireWatcher progress)
    {
        watcher = progress;
    }

    private void wakeWatcher()
    {
        final SoftWireWatcher progress = watcher; // read after publishing: a watcher set since reads what is new
        if (progress != null)
        {
            progress.wakeUp();
        }
    }

    /**
     * Copies into ({@link #INTO_RING}) or out of ({@link #OUT_OF_RING}) the ring at {@code position}, or zeroes the
     * ring there ({@link #ZERO}, {@code address} unused), wrapping at its end.
     */
    private void transfer(final long address, final long position, final int length, final int what)
    {
        final int offset = (int)(position & MASK);
        final int first = Math.min(length, CAPACITY - offset);
        transferPart(address, ringAddress + offset, first, what);
        if (first < length)
        {
            transferPart(address + first, ringAddress, length - first, what);
        }
    }

    private static void transferPart(final long address, final long ringAt, final int length, final int what)
    {
        switch (what)
        {
            case INTO_RING -> UNSAFE.copyMemory(address, ringAt, length);
            case OUT_OF_RING -> UNSAFE.copyMemory(ringAt, address, length);
            default -> UNSAFE.setMemory(ringAt, length, (byte)0);
        }
    }
}
