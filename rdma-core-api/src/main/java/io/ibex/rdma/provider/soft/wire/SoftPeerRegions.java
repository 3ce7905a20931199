package io.ibex.rdma.provider.soft.wire;

import org.agrona.IoUtil;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.IntHashSet;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static io.ibex.rdma.provider.soft.wire.SoftSharedRegionDescriptor.*;

/**
 * The requester's view of the shared regions of the process at the other end of a {@link SoftSharedMemoryWire}: an
 * RDMA WRITE or READ whose rkey names a region that process allocated in shared memory is copied directly into or
 * out of this process's mapping of the region's file, after the checks the responder would make (its QP's gate open
 * and allowing the access, the region registered, of the gate's PD, allowing the access, and holding the range).
 * Whatever fails a check, or names a region without a file, goes through the ring instead, where the responder
 * checks it again, executes it or refuses it: so a refused request fails exactly as on the other links (a NAK, its
 * QP in ERR), and this class only ever decides between two correct paths.
 * <p>
 * Mappings are checked once ({@link SoftSharedRegionDescriptor#check}) and kept per rkey; bounds are taken from this
 * process's mapping, never from the header, so a peer that rewrites its header cannot make a copy leave the file.
 * Used under the QP lock only.
 */
public final class SoftPeerRegions
{
    private static final Logger LOG = LoggerFactory.getLogger(SoftPeerRegions.class);
    /** Keys found to have no file; forgotten all at once when this many, so a stream of them costs no growth. */
    private static final int MAX_UNSHARED_KEYS = 1024;

    private final Path directory;
    private final long peerPid;
    private final Int2ObjectHashMap<UnsafeBuffer> mapped = new Int2ObjectHashMap<>();
    private final IntHashSet unshared = new IntHashSet();
    private UnsafeBuffer entered;

    SoftPeerRegions(final Path directory, final long peerPid)
    {
        this.directory = directory;
        this.peerPid = peerPid;
    }

    /**
     * Enters a direct copy of {@code length} bytes at the peer's {@code addr} under {@code rkey}, if every check
     * passes; {@link #leave} must follow once copied.
     *
     * @param gate the peer QP's responder gate (see {@link SoftSharedMemoryDescriptor}).
     * @param flag the access needed, {@code AccessFlags.REMOTE_WRITE} or {@code REMOTE_READ}.
     * @return the address of {@code addr} in this process's mapping, or 0 to go through the ring.
     */
    public long enter(final long gate, final int rkey, final long addr, final long length, final int flag)
    {
        if (gate == 0 || (gate & flag) == 0 || length <= 0)
        {
            return 0;
        }
        final UnsafeBuffer file = view(rkey);
        if (file == null)
        {
            return 0;
        }
        file.getAndAddLong(USERS_OFFSET, 1); // before reading the state: deregistration waits for it to leave
        if (file.getIntVolatile(STATE_OFFSET) != STATE_REGISTERED)
        {
            file.getAndAddLong(USERS_OFFSET, -1);
            forget(rkey, file);
            return 0;
        }
        final long regionLength = file.capacity() - (long)HEADER_LENGTH;
        final long offset = addr - file.getLong(ADDRESS_OFFSET);
        if (file.getInt(PD_OFFSET) != (int)(gate >>> 32) || (file.getInt(ACCESS_OFFSET) & flag) == 0 ||
            offset < 0 || offset > regionLength - length)
        {
            file.getAndAddLong(USERS_OFFSET, -1);
            return 0;
        }
        entered = file;
        return file.addressOffset() + HEADER_LENGTH + offset;
    }

    /**
     * Ends the copy {@link #enter} began.
     */
    public void leave()
    {
        entered.getAndAddLong(USERS_OFFSET, -1);
        entered = null;
    }

    private UnsafeBuffer view(final int rkey)
    {
        final UnsafeBuffer known = mapped.get(rkey);
        if (known != null || unshared.contains(rkey))
        {
            return known;
        }
        final UnsafeBuffer file = map(rkey);
        if (file == null)
        {
            if (unshared.size() >= MAX_UNSHARED_KEYS)
            {
                unshared.clear();
            }
            unshared.add(rkey);
            return null;
        }
        mapped.put(rkey, file);
        return file;
    }

    private UnsafeBuffer map(final int rkey)
    {
        final Path path = directory.resolve(fileName(peerPid, rkey));
        final MappedByteBuffer mapping;
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            final long size = channel.size();
            if (size < HEADER_LENGTH || size > HEADER_LENGTH + MAX_LENGTH)
            {
                LOG.warn("shared region file {} rejected (corrupt or foreign): {} bytes long; RDMA to rkey 0x{} " +
                    "goes through the link", path, size, Integer.toHexString(rkey));
                return null;
            }
            mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, size);
        }
        catch (final NoSuchFileException ex)
        {
            return null; // a region in memory of the peer's own: not shareable
        }
        catch (final IOException ex)
        {
            LOG.debug("cannot map shared region file {}: {}; RDMA to rkey 0x{} goes through the link", path, ex,
                Integer.toHexString(rkey));
            return null;
        }
        final UnsafeBuffer file = new UnsafeBuffer(mapping);
        final String wrong = check(file, rkey, peerPid);
        if (wrong != null)
        {
            IoUtil.unmap(mapping);
            LOG.warn("shared region file {} rejected (corrupt or foreign): {}; RDMA to rkey 0x{} goes through the " +
                "link", path, wrong, Integer.toHexString(rkey));
            return null;
        }
        return file;
    }

    /**
     * The region behind {@code rkey} was deregistered: its mapping goes, and the key is looked up afresh next time.
     */
    private void forget(final int rkey, final UnsafeBuffer file)
    {
        mapped.remove(rkey);
        IoUtil.unmap(file.byteBuffer());
    }
}
