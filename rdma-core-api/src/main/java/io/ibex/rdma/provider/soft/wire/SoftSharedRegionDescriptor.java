package io.ibex.rdma.provider.soft.wire;

import org.agrona.BitUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Layout of the file behind a memory region the soft device allocated in shared memory
 * ({@link io.ibex.rdma.verbs.ProtectionDomain#allocateMemory}), named {@code ibex-<pid>-mr-<key>.shm} so that a
 * peer QP of another process on this host, which knows the owner's pid from their link and the key from its work
 * request, can map it and copy an RDMA WRITE or READ directly (see {@link SoftPeerRegions}). Integers are
 * little-endian; the region's bytes follow the header, page-aligned.
 * <pre>
 *   0    magic 'IBXR'                 4    version
 *   8    key (lkey = rkey)            12   access flags
 *   16   protection domain (handle)   20   state: 0 being set up, REGISTERED 1, DEREGISTERED 2
 *   24   address (64), the region's start in the owner's address space
 *   32   length (64), of the region's bytes after the header
 *   40   owner's process id (64)
 *   128  users (64): copies of peers in progress, on a cache line of its own
 *   4096 the region's bytes
 * </pre>
 * A peer adds itself to the users before it reads the state and removes itself after its copy; the owner, at
 * deregistration, sets the state and then waits for the users to leave, so once {@code dereg_mr} returns no peer
 * touches the region, as on an HCA.
 */
public final class SoftSharedRegionDescriptor
{
    /** 'IBXR'. */
    public static final int MAGIC = 0x52584249;
    public static final int VERSION = 1;
    /** As in every file of ibex's (see {@link SoftSharedMemoryDescriptor#identityProblem}). */
    public static final int MAGIC_OFFSET = SoftSharedMemoryDescriptor.MAGIC_OFFSET;
    public static final int VERSION_OFFSET = SoftSharedMemoryDescriptor.VERSION_OFFSET;
    public static final int KEY_OFFSET = 8;
    public static final int ACCESS_OFFSET = 12;
    public static final int PD_OFFSET = 16;
    public static final int STATE_OFFSET = 20;
    public static final int ADDRESS_OFFSET = 24;
    public static final int LENGTH_OFFSET = 32;
    public static final int OWNER_PID_OFFSET = 40;
    public static final int USERS_OFFSET = 2 * BitUtil.CACHE_LINE_LENGTH;
    public static final int HEADER_LENGTH = 4096;
    /** The longest region that lives in one mapping, as a {@link java.nio.ByteBuffer} holds at most 2^31 - 1. */
    public static final long MAX_LENGTH = Integer.MAX_VALUE - HEADER_LENGTH;

    public static final int STATE_REGISTERED = 1;
    public static final int STATE_DEREGISTERED = 2;

    private static final String INFIX = "-mr-";

    private SoftSharedRegionDescriptor()
    {
    }

    public static String fileName(final long pid, final int key)
    {
        return SoftSharedMemoryDescriptor.FILE_PREFIX + pid + INFIX + Integer.toUnsignedString(key) +
            SoftSharedMemoryDescriptor.FILE_SUFFIX;
    }

    /**
     * @param name the middle of a file name, between {@code ibex-<pid>} and {@code .shm}.
     * @return whether it is a region's: {@code -mr-<key>}.
     */
    public static boolean isRegionInfix(final String name)
    {
        if (!name.startsWith(INFIX))
        {
            return false;
        }
        try
        {
            Integer.parseUnsignedInt(name.substring(INFIX.length()));
            return true;
        }
        catch (final NumberFormatException ex)
        {
            return false;
        }
    }

    /**
     * Checks the header of a peer's region file before anything else reads it.
     *
     * @param file     the whole mapped file (its capacity is the file's length).
     * @param key      the key the file is named by.
     * @param ownerPid the process the link says owns it.
     * @return null if it is that region's file, else what is wrong with it.
     */
    public static String check(final UnsafeBuffer file, final int key, final long ownerPid)
    {
        if (file.capacity() < HEADER_LENGTH)
        {
            return "its length is " + file.capacity() + " bytes, shorter than the header's " + HEADER_LENGTH;
        }
        final String foreign = SoftSharedMemoryDescriptor.identityProblem(file, MAGIC, VERSION);
        if (foreign != null)
        {
            return foreign;
        }
        final long length = file.getLong(LENGTH_OFFSET);
        if (length != file.capacity() - (long)HEADER_LENGTH)
        {
            return "it says the region is " + length + " bytes long, but the file holds " +
                (file.capacity() - HEADER_LENGTH) + " after the header";
        }
        if (file.getInt(KEY_OFFSET) != key || file.getLong(OWNER_PID_OFFSET) != ownerPid)
        {
            return "it belongs to another region (key 0x" + Integer.toHexString(file.getInt(KEY_OFFSET)) +
                ", pid " + file.getLong(OWNER_PID_OFFSET) + ")";
        }
        return null;
    }
}
