package io.ibex.rdma.provider.soft.wire;

import io.ibex.rdma.verbs.AccessFlags;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.function.Consumer;

import static io.ibex.rdma.provider.soft.wire.SoftSharedRegionDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The requester's checks before a direct copy into a peer's shared region ({@link SoftPeerRegions}), against files
 * made here: every failed check means "through the ring" (0), and no address handed out lies outside the file.
 */
class SoftPeerRegionsTest
{
    private static final long OWNER_PID = 4242;
    private static final int KEY = 0x0301;
    private static final int PD = 7;
    private static final long ADDRESS = 0x7f00_0000_0000L;
    private static final int LENGTH = 8192;
    private static final long GATE = ((long)PD << 32) | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ;

    @TempDir
    Path directory;

    @Test
    void anAccessThatPassesEveryCheckGetsTheAddressOfItsBytesInTheMappingAndCountsAsAUserUntilItLeaves()
        throws IOException
    {
        final UnsafeBuffer owner = region(AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
        final SoftPeerRegions regions = new SoftPeerRegions(directory, OWNER_PID);

        final long address = regions.enter(GATE, KEY, ADDRESS + 100, 64, AccessFlags.REMOTE_WRITE);
        assertTrue(address != 0);
        assertEquals(1, owner.getLongVolatile(USERS_OFFSET));
        new UnsafeBuffer(address, 64).putLong(0, 0x1122334455667788L);
        regions.leave();

        assertEquals(0, owner.getLongVolatile(USERS_OFFSET));
        assertEquals(0x1122334455667788L, owner.getLong(HEADER_LENGTH + 100), "the owner sees the copy");
    }

    @Test
    void everyFailedCheckSendsTheAccessThroughTheRing() throws IOException
    {
        final UnsafeBuffer owner = region(AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
        final SoftPeerRegions regions = new SoftPeerRegions(directory, OWNER_PID);
        final int write = AccessFlags.REMOTE_WRITE;

        assertEquals(0, regions.enter(0, KEY, ADDRESS, 64, write), "gate closed");
        assertEquals(0, regions.enter(GATE & ~write, KEY, ADDRESS, 64, write), "the QP does not allow it");
        assertEquals(0, regions.enter(GATE + (1L << 32), KEY, ADDRESS, 64, write), "another PD's QP");
        assertEquals(0, regions.enter(GATE, KEY, ADDRESS, 64, AccessFlags.REMOTE_READ), "the region does not allow it");
        assertEquals(0, regions.enter(GATE, KEY, ADDRESS - 1, 64, write), "before the region");
        assertEquals(0, regions.enter(GATE, KEY, ADDRESS + LENGTH - 63, 64, write), "past its end");
        assertEquals(0, regions.enter(GATE, KEY, Long.MIN_VALUE, 64, write), "far outside it");
        assertEquals(0, regions.enter(GATE, KEY + 0x100, ADDRESS, 64, write), "a key without a file");
        assertEquals(0, regions.enter(GATE, KEY, ADDRESS, 0, write), "zero length: checks no key, the ring's");
        assertEquals(0, owner.getLongVolatile(USERS_OFFSET), "no failed check stays a user");
        assertTrue(regions.enter(GATE, KEY, ADDRESS + LENGTH - 64, 64, write) != 0, "the last bytes");
        regions.leave();

        owner.putIntVolatile(STATE_OFFSET, STATE_DEREGISTERED);
        assertEquals(0, regions.enter(GATE, KEY, ADDRESS, 64, write), "deregistered");
        assertEquals(0, owner.getLongVolatile(USERS_OFFSET));
    }

    @Test
    void aHeaderRewrittenAfterTheCheckCannotMoveACopyOutOfTheFile() throws IOException
    {
        final UnsafeBuffer owner = region(AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
        final SoftPeerRegions regions = new SoftPeerRegions(directory, OWNER_PID);
        final long first = regions.enter(GATE, KEY, ADDRESS, 64, AccessFlags.REMOTE_WRITE);
        regions.leave();

        owner.putLong(LENGTH_OFFSET, 1L << 40);
        assertEquals(0, regions.enter(GATE, KEY, ADDRESS + LENGTH, 64, AccessFlags.REMOTE_WRITE),
            "bounds come from the mapping");
        owner.putLong(ADDRESS_OFFSET, ADDRESS + LENGTH);
        assertEquals(0, regions.enter(GATE, KEY, ADDRESS + LENGTH - 64, 64, AccessFlags.REMOTE_WRITE),
            "what the header's new address puts at 0 is still checked against the mapping's length");
        final long moved = regions.enter(GATE, KEY, ADDRESS + LENGTH + LENGTH - 64, 64, AccessFlags.REMOTE_WRITE);
        regions.leave();
        assertEquals(first + LENGTH - 64, moved, "inside the same mapping");
    }

    @Test
    void corruptOrForeignFilesAreNotMapped() throws IOException
    {
        assertRejected((file) -> file.putInt(MAGIC_OFFSET, 0x12345678));
        assertRejected((file) -> file.putInt(VERSION_OFFSET, VERSION + 1));
        assertRejected((file) -> file.putInt(KEY_OFFSET, KEY + 1));
        assertRejected((file) -> file.putLong(OWNER_PID_OFFSET, OWNER_PID + 1));
        assertRejected((file) -> file.putLong(LENGTH_OFFSET, LENGTH + 4096));

        try (RandomAccessFile shortFile = new RandomAccessFile(directory.resolve(fileName(OWNER_PID, KEY)).toFile(),
            "rw"))
        {
            shortFile.setLength(100);
        }
        assertEquals(0, new SoftPeerRegions(directory, OWNER_PID).enter(GATE, KEY, ADDRESS, 64,
            AccessFlags.REMOTE_WRITE), "shorter than a header");
    }

    private void assertRejected(final Consumer<UnsafeBuffer> corrupt) throws IOException
    {
        corrupt.accept(region(AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE));
        assertEquals(0, new SoftPeerRegions(directory, OWNER_PID).enter(GATE, KEY, ADDRESS, 64,
            AccessFlags.REMOTE_WRITE));
    }

    /**
     * Writes the file of a registered region of {@link #LENGTH} bytes, as its owner would.
     *
     * @return the owner's view of the whole file.
     */
    private UnsafeBuffer region(final int access) throws IOException
    {
        final Path file = directory.resolve(fileName(OWNER_PID, KEY));
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
        {
            raf.setLength(HEADER_LENGTH + LENGTH);
            final UnsafeBuffer header =
                new UnsafeBuffer(raf.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, HEADER_LENGTH + LENGTH));
            header.setMemory(0, HEADER_LENGTH + LENGTH, (byte)0);
            header.putInt(MAGIC_OFFSET, MAGIC);
            header.putInt(VERSION_OFFSET, VERSION);
            header.putInt(KEY_OFFSET, KEY);
            header.putInt(ACCESS_OFFSET, access);
            header.putInt(PD_OFFSET, PD);
            header.putInt(STATE_OFFSET, STATE_REGISTERED);
            header.putLong(ADDRESS_OFFSET, ADDRESS);
            header.putLong(LENGTH_OFFSET, LENGTH);
            header.putLong(OWNER_PID_OFFSET, OWNER_PID);
            return header;
        }
    }
}
