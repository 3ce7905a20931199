package io.ibex.rdma.provider.soft.wire;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.concurrent.TimeUnit;

import static io.ibex.rdma.provider.soft.wire.SoftSharedRegionDescriptor.*;

/**
 * The owner's side of a memory region in a shared-memory file (layout: {@link SoftSharedRegionDescriptor}): it
 * creates the file under a link's name (so that the start-up clean-up knows it), maps it, and once the region has
 * its key publishes the header and renames the file to the key's name, where peers find it. At deregistration it
 * withdraws the region: the state first, then it waits for copies in progress, then the name goes. The mapping is
 * the region's buffer and lives, like a direct buffer, as long as anything references it.
 */
public final class SoftSharedRegion
{
    private static final Logger LOG = LoggerFactory.getLogger(SoftSharedRegion.class);
    /** A peer's copy takes microseconds; one that holds the region this long has died in it. */
    private static final long MAX_USERS_WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final UnsafeBuffer header;
    private final ByteBuffer buffer;
    private Path file;

    private SoftSharedRegion(final Path file, final MappedByteBuffer mapping, final long length)
    {
        this.file = file;
        header = new UnsafeBuffer(mapping, 0, HEADER_LENGTH);
        buffer = mapping.slice(HEADER_LENGTH, (int)length);
    }

    /**
     * Creates and maps the file of a region of {@code length} bytes (at most
     * {@link SoftSharedRegionDescriptor#MAX_LENGTH}) as {@code ibex-<pid>-<number>.shm}.
     *
     * @throws IOException if it cannot: the caller allocates the region in memory of its own.
     */
    public static SoftSharedRegion create(final Path directory, final long number, final long length) throws IOException
    {
        final Path file = directory.resolve(SoftSharedMemoryDescriptor.fileName(ProcessHandle.current().pid(), number));
        try (FileChannel channel = FileChannel.open(file,
            EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))))
        {
            return new SoftSharedRegion(file, channel.map(FileChannel.MapMode.READ_WRITE, 0, HEADER_LENGTH + length),
                length);
        }
        catch (final IOException | RuntimeException ex)
        {
            Files.deleteIfExists(file);
            throw ex;
        }
    }

    /**
     * @return the region's bytes, page-aligned.
     */
    public ByteBuffer buffer()
    {
        return buffer;
    }

    /**
     * Writes the header of the registered region and gives the file its key's name.
     *
     * @throws IOException if it cannot be renamed: the region stays, unshared, and the file goes.
     */
    public void publish(final int key, final int access, final int pd, final long address) throws IOException
    {
        header.putInt(VERSION_OFFSET, VERSION);
        header.putInt(KEY_OFFSET, key);
        header.putInt(ACCESS_OFFSET, access);
        header.putInt(PD_OFFSET, pd);
        header.putLong(ADDRESS_OFFSET, address);
        header.putLong(LENGTH_OFFSET, buffer.capacity());
        header.putLong(OWNER_PID_OFFSET, ProcessHandle.current().pid());
        header.putInt(STATE_OFFSET, STATE_REGISTERED);
        header.putIntVolatile(MAGIC_OFFSET, MAGIC); // last: a file with its magic is complete
        final Path named = file.resolveSibling(fileName(ProcessHandle.current().pid(), key));
        try
        {
            Files.move(file, named, StandardCopyOption.ATOMIC_MOVE);
            file = named;
        }
        catch (final IOException ex)
        {
            withdraw();
            throw ex;
        }
    }

    /**
     * Deregisters the region for peers: no copy begins after this, and none is in progress once it returns (unless
     * a peer died in one, which is logged after {@link #MAX_USERS_WAIT_NANOS}). The file's name goes; the memory
     * stays while the buffer is referenced.
     */
    public void withdraw()
    {
        header.putIntVolatile(STATE_OFFSET, STATE_DEREGISTERED); // then read the users, as a peer does the reverse
        if (header.getLongVolatile(USERS_OFFSET) != 0)
        {
            final BackoffIdleStrategy idle = new BackoffIdleStrategy();
            final long deadline = System.nanoTime() + MAX_USERS_WAIT_NANOS;
            while (header.getLongVolatile(USERS_OFFSET) != 0 && System.nanoTime() - deadline < 0)
            {
                idle.idle();
            }
            if (header.getLongVolatile(USERS_OFFSET) != 0)
            {
                LOG.warn("shared region {}: a peer's copy held it for {} ms; deregistered without waiting longer " +
                    "(the peer died in it)", file, TimeUnit.NANOSECONDS.toMillis(MAX_USERS_WAIT_NANOS));
            }
        }
        try
        {
            Files.deleteIfExists(file);
        }
        catch (final IOException ex)
        {
            LOG.warn("shared region {}: cannot delete its file ({}); the next soft device's start-up removes it once " +
                "this process has ended", file, ex.toString());
        }
    }
}
