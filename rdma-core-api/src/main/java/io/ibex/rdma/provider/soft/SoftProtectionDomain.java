package io.ibex.rdma.provider.soft;

import io.ibex.rdma.provider.soft.qp.SoftQueuePair;
import io.ibex.rdma.provider.soft.wire.SoftSharedRegion;
import io.ibex.rdma.provider.soft.wire.SoftSharedRegionDescriptor;
import io.ibex.rdma.spi.ProviderChecks;
import io.ibex.rdma.spi.ProviderResource;
import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.AddressHandle;
import io.ibex.rdma.verbs.AhAttr;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.QpInitAttr;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.VerbsException;

import org.agrona.BufferUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A soft protection domain. Closing it while it still has MRs, QPs or AHs fails with EBUSY, as
 * {@code ibv_dealloc_pd} does.
 */
public final class SoftProtectionDomain extends ProviderResource implements ProtectionDomain
{
    private static final Logger LOG = LoggerFactory.getLogger(SoftProtectionDomain.class);
    private static final AtomicInteger IDS = new AtomicInteger();

    private final SoftContext context;
    private final int handle = IDS.incrementAndGet();

    SoftProtectionDomain(final SoftContext context)
    {
        super(context);
        this.context = context;
    }

    @Override
    public Context context()
    {
        return context;
    }

    @Override
    public MemoryRegion registerMemory(final ByteBuffer buffer, final int access)
    {
        ensureOpen();
        return register(ProviderChecks.directAddress(buffer), buffer.capacity(), access, buffer);
    }

    @Override
    public MemoryRegion registerMemory(final long address, final long length, final int access)
    {
        ensureOpen();
        return register(address, length, access, null);
    }

    /**
     * Places a region peers may access (REMOTE_WRITE or REMOTE_READ) in a shared-memory file when the device links
     * to processes of this host through shared memory, so that their RDMA WRITEs and READs are direct copies; any
     * other region, or where no file can be made, in memory of this process.
     */
    @Override
    public MemoryRegion allocateMemory(final long length, final int access)
    {
        ensureOpen();
        final SoftDevice device = context.softDevice();
        final Path directory = device.sharedMemory().regionDirectory();
        if (directory == null || (access & (AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ)) == 0 ||
            length <= 0 || length > SoftSharedRegionDescriptor.MAX_LENGTH)
        {
            return ProtectionDomain.super.allocateMemory(length, access);
        }
        checkAccess(access);
        final SoftSharedRegion shared;
        try
        {
            shared = SoftSharedRegion.create(directory, device.sharedMemory().nextNumber(), length);
        }
        catch (final IOException | RuntimeException ex)
        {
            LOG.warn("{}: cannot allocate {} bytes in {} ({}); the region lives in this process's memory", this,
                length, directory, ex.toString());
            return ProtectionDomain.super.allocateMemory(length, access);
        }
        final ByteBuffer buffer = shared.buffer();
        try
        {
            return adopt(new SoftMemoryRegion(this, BufferUtil.address(buffer), length, access, buffer, shared));
        }
        catch (final RuntimeException ex)
        {
            shared.withdraw(); // no key left, say: the file goes with the region that could not be
            throw ex;
        }
    }

    @Override
    public QueuePair createQp(final QpInitAttr initAttr)
    {
        ensureOpen();
        return adopt(new SoftQueuePair(this, initAttr));
    }

    @Override
    public AddressHandle createAh(final AhAttr attr)
    {
        ensureOpen();
        return adopt(new SoftAddressHandle(this, attr));
    }

    public SoftContext softContext()
    {
        return context;
    }

    /**
     * @return the number that names this PD, unique in this process, as peers see it in shared regions and gates.
     */
    public int handle()
    {
        return handle;
    }

    @Override
    protected String describe()
    {
        return "PD #" + handle;
    }

    @Override
    protected int closeRank()
    {
        return 0;
    }

    @Override
    protected void release()
    {
        refuseWhileChildrenOpen();
    }

    private MemoryRegion register(final long address, final long length, final int access, final ByteBuffer buffer)
    {
        if (address == 0 || length < 0 || length > SoftDevice.MAX_MR_SIZE)
        {
            throw new VerbsException(VerbsException.EINVAL, "cannot register address=0x" +
                Long.toHexString(address) + " length=" + length + " (max " + SoftDevice.MAX_MR_SIZE + ")");
        }
        checkAccess(access);
        return adopt(new SoftMemoryRegion(this, address, length, access, buffer, null));
    }

    private static void checkAccess(final int access)
    {
        ProviderChecks.requireKnownAccess(access);
        if ((access & (AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_ATOMIC)) != 0 &&
            (access & AccessFlags.LOCAL_WRITE) == 0)
        {
            throw new VerbsException(VerbsException.EINVAL, "access " + AccessFlags.toString(access) +
                ": REMOTE_WRITE and REMOTE_ATOMIC need LOCAL_WRITE");
        }
    }
}
