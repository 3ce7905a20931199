package io.ibex.rdma.provider.soft.wire;

import org.agrona.BitUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Layout of the file a {@link SoftSharedMemoryWire} lives in, mapped by both processes. Integers are in native
 * (little-endian) order; the connecting side creates it, offers it in its HELLO (see {@link SoftFrameDescriptor}),
 * and the accepting side maps it, checks it, answers and deletes it: from then on only the mappings hold it.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                         magic 'IBXM'                          |    0
 *  +---------------------------------------------------------------+
 *  |                           version                             |    4
 *  +---------------------------------------------------------------+
 *  |                      header length (512)                      |    8
 *  +---------------------------------------------------------------+
 *  |                ring capacity (bytes, a power of 2)            |   12
 *  +---------------------------------------------------------------+
 *  |                         nonce (64)                            |   16
 *  +---------------------------------------------------------------+
 *  |                  connecting process id (64)                   |   24
 *  +---------------------------------------------------------------+
 *  |          accepting process id (64), 0 until accepted          |   32
 *  +---------------------------------------------------------------+
 *  |                 state: OFFERED 1, ACCEPTED 2                  |   40
 *  +---------------------------------------------------------------+
 *  |              connecting side's heartbeat (64)                 |  128
 *  +---------------------------------------------------------------+
 *  |              connecting side's responder gate (64)            |  192
 *  +---------------------------------------------------------------+
 *  |               accepting side's heartbeat (64)                 |  256
 *  +---------------------------------------------------------------+
 *  |              accepting side's responder gate (64)             |  320
 *  +---------------------------------------------------------------+
 *  |        ring connecting -> accepting (SoftByteRing.LENGTH)     |  512
 *  +---------------------------------------------------------------+
 *  |        ring accepting -> connecting (SoftByteRing.LENGTH)     |  512 + ring
 *  +---------------------------------------------------------------+
 * </pre>
 * Each heartbeat is a counter its side's progress thread advances every duty cycle (at least every 10 ms), on
 * cache lines of its own; a side whose counter stands still for {@link #HEARTBEAT_TIMEOUT_NANOS} is dead if its
 * process (the pid above) has ended, and hung if it stands still for {@link #HUNG_TIMEOUT_NANOS}.
 * <p>
 * Each responder gate tells the other side whether its QP takes RDMA WRITE and READ requests now, and under which
 * protection domain: 0 while it does not (not in RTR or RTS), else the PD's handle in the high 32 bits and the QP's
 * access flags in the low ones. A peer copies directly into or out of this side's shared regions only through an
 * open gate (see {@link SoftPeerRegions}); everything else goes through the ring, where the responder checks it.
 */
public final class SoftSharedMemoryDescriptor
{
    /** System property: the directory of the shared-memory files, the same for both ends; /dev/shm by default. */
    public static final String DIRECTORY_PROPERTY = "ibex.soft.sharedMemoryDir";

    /** 'IBXM'. */
    public static final int MAGIC = 0x4d584249;
    public static final int VERSION = 3;
    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 4;
    public static final int HEADER_LENGTH_OFFSET = 8;
    public static final int CAPACITY_OFFSET = 12;
    public static final int NONCE_OFFSET = 16;
    public static final int CONNECTOR_PID_OFFSET = 24;
    public static final int ACCEPTOR_PID_OFFSET = 32;
    public static final int STATE_OFFSET = 40;
    public static final int CONNECTOR_HEARTBEAT_OFFSET = 2 * BitUtil.CACHE_LINE_LENGTH;
    public static final int CONNECTOR_GATE_OFFSET = 3 * BitUtil.CACHE_LINE_LENGTH;
    public static final int ACCEPTOR_HEARTBEAT_OFFSET = 4 * BitUtil.CACHE_LINE_LENGTH;
    public static final int ACCEPTOR_GATE_OFFSET = 5 * BitUtil.CACHE_LINE_LENGTH;
    public static final int HEADER_LENGTH = 8 * BitUtil.CACHE_LINE_LENGTH;
    public static final int TO_ACCEPTOR_RING_OFFSET = HEADER_LENGTH;
    public static final int TO_CONNECTOR_RING_OFFSET = HEADER_LENGTH + SoftByteRing.LENGTH;
    public static final int FILE_LENGTH = HEADER_LENGTH + 2 * SoftByteRing.LENGTH;

    public static final int STATE_OFFERED = 1;
    public static final int STATE_ACCEPTED = 2;

    /** A heartbeat standing still this long has the other side look at its process: ended, it is lost. */
    public static final long HEARTBEAT_TIMEOUT_NANOS = 500_000_000L;
    /**
     * A heartbeat standing still this long while its process runs means the process hangs. Far above the timeout,
     * as busy-polling threads on a loaded host may starve a progress thread for most of a second.
     */
    public static final long HUNG_TIMEOUT_NANOS = 10_000_000_000L;

    /** Files are named {@code ibex-<pid>-<link>.shm}: the pid tells at start-up whether one is stale. */
    public static final String FILE_PREFIX = "ibex-";
    public static final String FILE_SUFFIX = ".shm";

    private SoftSharedMemoryDescriptor()
    {
    }

    public static String fileName(final long pid, final long link)
    {
        return FILE_PREFIX + pid + "-" + link + FILE_SUFFIX;
    }

    /**
     * @param fileName a file's name in the shared-memory directory.
     * @return the pid of the process that created it, or -1 if it is not named as this device names its files: a
     *         link's {@code ibex-<pid>-<link>.shm} or a region's {@code ibex-<pid>-mr-<key>.shm}.
     */
    public static long creatorPid(final String fileName)
    {
        if (!fileName.startsWith(FILE_PREFIX) || !fileName.endsWith(FILE_SUFFIX))
        {
            return -1;
        }
        final String inner = fileName.substring(FILE_PREFIX.length(), fileName.length() - FILE_SUFFIX.length());
        final int dash = inner.indexOf('-');
        if (dash <= 0)
        {
            return -1;
        }
        final String rest = inner.substring(dash);
        try
        {
            if (!SoftSharedRegionDescriptor.isRegionInfix(rest))
            {
                Long.parseUnsignedLong(rest.substring(1));
            }
            return Long.parseUnsignedLong(inner.substring(0, dash));
        }
        catch (final NumberFormatException ex)
        {
            return -1;
        }
    }

    /**
     * Writes a new file's header (the rest of the file is zero, as a new file is).
     */
    public static void initialise(final UnsafeBuffer file, final long nonce, final long connectorPid)
    {
        file.putInt(VERSION_OFFSET, VERSION);
        file.putInt(HEADER_LENGTH_OFFSET, HEADER_LENGTH);
        file.putInt(CAPACITY_OFFSET, SoftByteRing.CAPACITY);
        file.putLong(NONCE_OFFSET, nonce);
        file.putLong(CONNECTOR_PID_OFFSET, connectorPid);
        file.putInt(STATE_OFFSET, STATE_OFFERED);
        file.putIntVolatile(MAGIC_OFFSET, MAGIC); // last: a file with its magic is complete
    }

    /**
     * @return what is wrong with the magic and version at the start of a file of ibex's (a link's or a region's), or
     *         null if they are {@code magic} and {@code version}.
     */
    public static String identityProblem(final UnsafeBuffer file, final int magic, final int version)
    {
        final int fileMagic = file.getIntVolatile(MAGIC_OFFSET);
        if (fileMagic != magic)
        {
            return "its magic is 0x" + Integer.toHexString(fileMagic) + ", not 0x" + Integer.toHexString(magic);
        }
        final int fileVersion = file.getInt(VERSION_OFFSET);
        return fileVersion == version ? null : "its version is " + fileVersion + ", not " + version;
    }

    /**
     * Checks a file offered to this side, field by field, before anything else reads it.
     *
     * @param file the whole mapped file (its capacity is the file's length).
     * @return null if the file is the one offered, else what is wrong with it.
     */
    public static String check(final UnsafeBuffer file, final long nonce, final long connectorPid)
    {
        if (file.capacity() != FILE_LENGTH)
        {
            return "its length is " + file.capacity() + " bytes, not " + FILE_LENGTH;
        }
        final String foreign = identityProblem(file, MAGIC, VERSION);
        if (foreign != null)
        {
            return foreign;
        }
        final int headerLength = file.getInt(HEADER_LENGTH_OFFSET);
        final int capacity = file.getInt(CAPACITY_OFFSET);
        if (headerLength != HEADER_LENGTH || capacity != SoftByteRing.CAPACITY)
        {
            return "its layout (header " + headerLength + " bytes, rings of " + capacity + ") is not this one's " +
                "(header " + HEADER_LENGTH + ", rings of " + SoftByteRing.CAPACITY + ")";
        }
        final long fileNonce = file.getLong(NONCE_OFFSET);
        final long filePid = file.getLong(CONNECTOR_PID_OFFSET);
        if (fileNonce != nonce || filePid != connectorPid)
        {
            return "it belongs to another link (nonce 0x" + Long.toHexString(fileNonce) + ", pid " + filePid +
                "; the HELLO says 0x" + Long.toHexString(nonce) + ", pid " + connectorPid + ")";
        }
        final int state = file.getIntVolatile(STATE_OFFSET);
        if (state != STATE_OFFERED)
        {
            return "its state is " + state + ", not offered (" + STATE_OFFERED + ")";
        }
        return null;
    }
}
