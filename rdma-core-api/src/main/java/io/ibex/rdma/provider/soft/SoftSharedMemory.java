package io.ibex.rdma.provider.soft;

import io.ibex.rdma.provider.soft.wire.SoftFrameDescriptor;
import io.ibex.rdma.provider.soft.wire.SoftSharedMemoryDescriptor;
import io.ibex.rdma.provider.soft.wire.SoftSharedMemoryWire;
import io.ibex.rdma.provider.soft.wire.SoftSocketWire;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import static io.ibex.rdma.provider.soft.SoftDevice.NAME;
import static io.ibex.rdma.provider.soft.SoftDevice.SHARED_MEMORY_PROPERTY;

/**
 * How the soft device shares memory with processes of this host: whether it offers a link through a
 * shared-memory file and takes one offered ({@value SoftDevice#SHARED_MEMORY_PROPERTY}, or
 * {@value SoftDevice#LOCAL_LINKS_PROPERTY}=shm for its own QPs), the directory of the files, this host's boot id,
 * which tells an offer from this host, the numbers of new files, and the start-up removal of files that processes
 * left behind. Thread-safe: fixed at construction but for an atomic counter.
 */
final class SoftSharedMemory
{
    private static final Logger LOG = LoggerFactory.getLogger(SoftSharedMemory.class);

    private final Inet4Address address;
    private final boolean localLinks;
    private final String mode;
    private final Path directory;
    private final long[] bootId;
    private final AtomicLong nextNumber = new AtomicLong();

    /**
     * Reads {@value SoftDevice#SHARED_MEMORY_PROPERTY} and {@value SoftSharedMemoryDescriptor#DIRECTORY_PROPERTY}.
     *
     * @param address    the device's address, a peer at which is on this host.
     * @param localLinks whether the device links its own QPs through shared memory.
     * @throws IllegalArgumentException if {@value SoftDevice#SHARED_MEMORY_PROPERTY} is not auto, on or off.
     */
    SoftSharedMemory(final Inet4Address address, final boolean localLinks)
    {
        this.address = address;
        this.localLinks = localLinks;
        mode = System.getProperty(SHARED_MEMORY_PROPERTY, "auto");
        if (!"auto".equals(mode) && !"on".equals(mode) && !"off".equals(mode))
        {
            throw new IllegalArgumentException(SHARED_MEMORY_PROPERTY + "=" + mode + " must be auto, on or off");
        }
        directory = Paths.get(System.getProperty(SoftSharedMemoryDescriptor.DIRECTORY_PROPERTY,
            Files.isDirectory(Paths.get("/dev/shm")) ? "/dev/shm" : System.getProperty("java.io.tmpdir")));
        bootId = bootId();
    }

    /**
     * @return the kernel's boot id as two longs, which only processes of this host (since its last boot) share; zeros
     *         where there is none, which no offer matches.
     */
    private static long[] bootId()
    {
        try
        {
            final UUID id = UUID.fromString(
                new String(Files.readAllBytes(Paths.get("/proc/sys/kernel/random/boot_id")), StandardCharsets.US_ASCII)
                    .trim());
            return new long[]{ id.getMostSignificantBits(), id.getLeastSignificantBits() };
        }
        catch (final IOException | IllegalArgumentException ex)
        {
            LOG.info("soft device {}: no boot id ({}): no shared-memory links", NAME, ex.toString());
            return new long[2];
        }
    }

    /**
     * Deletes the shared-memory files of processes that have ended: a link's file lives only while the link is being
     * negotiated, a region's while it is registered, so one left behind is from a process that died meanwhile.
     */
    static void removeStaleFiles(final Path directory)
    {
        try (DirectoryStream<Path> files =
            Files.newDirectoryStream(directory, SoftSharedMemoryDescriptor.FILE_PREFIX + "*"))
        {
            for (final Path file : files)
            {
                final long pid = SoftSharedMemoryDescriptor.creatorPid(file.getFileName().toString());
                if (pid > 0 && !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                {
                    Files.deleteIfExists(file);
                    LOG.info("soft device {}: removed {}, left by process {}, which has ended", NAME, file, pid);
                }
            }
        }
        catch (final IOException ex)
        {
            LOG.warn("soft device {}: cannot look for stale shared-memory files in {}: {}", NAME, directory,
                ex.toString());
        }
    }

    /**
     * @return {@value SoftDevice#SHARED_MEMORY_PROPERTY}: auto, on or off.
     */
    String mode()
    {
        return mode;
    }

    /**
     * @return the directory of the shared-memory files.
     */
    Path directory()
    {
        return directory;
    }

    /**
     * @return where regions peers may access are allocated, as files, or null when this device links to no process
     *         through shared memory ({@value SoftDevice#SHARED_MEMORY_PROPERTY}=off and
     *         {@value SoftDevice#LOCAL_LINKS_PROPERTY} not shm).
     */
    Path regionDirectory()
    {
        return !"off".equals(mode) || localLinks ? directory : null;
    }

    /**
     * @return a number for a new shared-memory file's name, unique in this process.
     */
    long nextNumber()
    {
        return nextNumber.incrementAndGet();
    }

    /**
     * @param sameDevice whether the peer QP is one of this device's.
     * @return whether a link to the peer at {@code remote} is offered through shared memory.
     */
    boolean offeredTo(final InetSocketAddress remote, final boolean sameDevice)
    {
        if (sameDevice)
        {
            return localLinks;
        }
        switch (mode)
        {
            case "on":
                return true;
            case "auto":
                return remote.getAddress().isLoopbackAddress() || remote.getAddress().equals(address);
            default:
                return false;
        }
    }

    /**
     * Creates a shared-memory file for a new link and completes its HELLO to offer it.
     *
     * @return the wire, or null (with a warning) if the file cannot be made: the link uses the connection alone.
     */
    SoftSharedMemoryWire offer(final SoftSocketWire socket, final ByteBuffer hello)
    {
        try
        {
            return SoftSharedMemoryWire.offer(socket, hello, directory, nextNumber(), bootId);
        }
        catch (final IOException | RuntimeException ex)
        {
            LOG.warn("soft device {}: cannot create a shared-memory file in {} ({}); linking over TCP", NAME,
                directory, ex.toString());
            return null;
        }
    }

    /**
     * Answers a HELLO's shared-memory offer: maps and checks the file it names if this device takes such offers and
     * the HELLO comes from this host.
     *
     * @return the wire, or null if declined (with the reason logged).
     */
    SoftSharedMemoryWire accept(final SoftSocketWire socket, final ByteBuffer hello)
    {
        if ("off".equals(mode))
        {
            LOG.debug("soft device {}: shared memory offered by {} declined: {}=off", NAME, socket.peer(),
                SHARED_MEMORY_PROPERTY);
            return null;
        }
        if ((bootId[0] == 0 && bootId[1] == 0) ||
            hello.getLong(SoftFrameDescriptor.HELLO_BOOT_ID_OFFSET) != bootId[0] ||
            hello.getLong(SoftFrameDescriptor.HELLO_BOOT_ID_OFFSET + Long.BYTES) != bootId[1])
        {
            LOG.info("soft device {}: shared memory offered by {} declined: it is on another host (boot id)", NAME,
                socket.peer());
            return null;
        }
        try
        {
            return SoftSharedMemoryWire.accept(socket, hello, directory);
        }
        catch (final IOException | RuntimeException ex)
        {
            LOG.warn("soft device {}: shared memory offered by {} declined: {}", NAME, socket.peer(), ex.getMessage());
            return null;
        }
    }
}
