package io.ibex.rdma.provider.disni;

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

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A protection domain ({@code ibv_alloc_pd}) with its memory regions, QPs and AHs. Closing it
 * while it still has MRs, QPs or AHs fails with EBUSY, as {@code ibv_dealloc_pd} does.
 */
final class DisniProtectionDomain extends ProviderResource implements ProtectionDomain
{
    private final DisniContext context;
    private final long handle;
    /** The open regions, for the inline check of every post: copied on (rare) change, read without a lock. */
    private volatile DisniMemoryRegion[] regions = new DisniMemoryRegion[0];

    /**
     * @param context the context.
     */
    DisniProtectionDomain(final DisniContext context)
    {
        super(context);
        this.context = context;
        this.handle = IbexNative.allocPd(context.disniDevice().handle());
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

    @Override
    public QueuePair createQp(final QpInitAttr initAttr)
    {
        ensureOpen();
        return adopt(new DisniQueuePair(this, initAttr, 0));
    }

    /**
     * rdma_create_qp: the QP of an rdma_cm id, moved by librdmacm to INIT (connected) or RTS (UD).
     *
     * @param cmId     the rdma_cm id's handle.
     * @param initAttr creation attributes.
     * @return the QP, a child of this PD.
     */
    DisniQueuePair createCmQp(final long cmId, final QpInitAttr initAttr)
    {
        ensureOpen();
        return adopt(new DisniQueuePair(this, initAttr, cmId));
    }

    @Override
    public AddressHandle createAh(final AhAttr attr)
    {
        ensureOpen();
        return adopt(new DisniAddressHandle(this, attr));
    }

    DisniContext disniContext()
    {
        return context;
    }

    long handle()
    {
        return handle;
    }

    @Override
    protected String describe()
    {
        return "PD 0x" + Long.toHexString(handle) + " of " + context.disniDevice().name();
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
        IbexNative.deallocPd(handle);
    }

    /**
     * @param lkey a local key.
     * @return the open region of this PD with that key, or null.
     */
    DisniMemoryRegion region(final int lkey)
    {
        for (final DisniMemoryRegion region : regions)
        {
            if (region.lkey() == lkey)
            {
                return region;
            }
        }
        return null;
    }

    /**
     * Forgets a region being deregistered.
     */
    synchronized void forget(final DisniMemoryRegion region)
    {
        final DisniMemoryRegion[] current = regions;
        for (int i = 0; i < current.length; i++)
        {
            if (current[i] == region)
            {
                final DisniMemoryRegion[] fewer = Arrays.copyOf(current, current.length - 1);
                System.arraycopy(current, i + 1, fewer, i, current.length - 1 - i);
                regions = fewer;
                return;
            }
        }
    }

    /**
     * ibv_reg_mr; the kernel checks the rest (access flags that need LOCAL_WRITE, memory that cannot be pinned).
     */
    private MemoryRegion register(final long address, final long length, final int access, final ByteBuffer buffer)
    {
        if (address == 0 || length < 0)
        {
            throw new VerbsException(VerbsException.EINVAL, "cannot register address=0x" + Long.toHexString(address) +
                " length=" + length + " in " + this);
        }
        ProviderChecks.requireKnownAccess(access);
        final int[] keys = new int[2];
        final long mr;
        try
        {
            mr = IbexNative.regMr(handle, address, length, access, keys);
        }
        catch (final VerbsException ex)
        {
            throw new VerbsException(ex.errno(), DisniErrors.reason(ex) + " of [0x" + Long.toHexString(address) +
                ", +" + length + "] with " + AccessFlags.toString(access) + " in " + this, ex);
        }
        final DisniMemoryRegion region =
            adopt(new DisniMemoryRegion(this, mr, keys[0], keys[1], address, length, access, buffer));
        synchronized (this)
        {
            final DisniMemoryRegion[] more = Arrays.copyOf(regions, regions.length + 1);
            more[regions.length] = region;
            regions = more;
        }
        return region;
    }
}
