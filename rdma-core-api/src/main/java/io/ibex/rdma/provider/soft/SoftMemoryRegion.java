package io.ibex.rdma.provider.soft;

import io.ibex.rdma.provider.soft.wire.SoftSharedRegion;
import io.ibex.rdma.spi.ProviderResource;
import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.ProtectionDomain;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A registered soft memory region; lkey and rkey are the same key from the device's key table. One the device
 * allocated in a shared-memory file ({@link SoftSharedRegion}) is published there under its key, for peer processes
 * on this host to copy into directly.
 */
public final class SoftMemoryRegion extends ProviderResource implements MemoryRegion
{
    private final SoftProtectionDomain pd;
    private final long address;
    private final long length;
    private final int access;
    private final ByteBuffer buffer;
    private final int key;
    private final SoftSharedRegion shared;

    SoftMemoryRegion(
        final SoftProtectionDomain pd, final long address, final long length, final int access, final ByteBuffer buffer,
        final SoftSharedRegion shared)
    {
        super(pd);
        this.pd = pd;
        this.address = address;
        this.length = length;
        this.access = access;
        this.buffer = buffer;
        this.key = pd.softContext().softDevice().register(this);
        this.shared = shared != null && publish(shared) ? shared : null;
    }

    private boolean publish(final SoftSharedRegion file)
    {
        try
        {
            file.publish(key, access, pd.handle(), address);
            return true;
        }
        catch (final IOException ex)
        {
            LoggerFactory.getLogger(SoftMemoryRegion.class).warn("{}: cannot publish its shared-memory file ({}); " +
                "peers reach it through their links", describe(), ex.toString());
            return false;
        }
    }

    @Override
    public ProtectionDomain pd()
    {
        return pd;
    }

    @Override
    public long address()
    {
        return address;
    }

    @Override
    public long length()
    {
        return length;
    }

    @Override
    public int lkey()
    {
        return key;
    }

    @Override
    public int rkey()
    {
        return key;
    }

    @Override
    public int access()
    {
        return access;
    }

    @Override
    public ByteBuffer buffer()
    {
        return buffer;
    }

    /**
     * @param addr   start of an access.
     * @param len    its length.
     * @return whether [addr, addr + len) lies inside the region.
     */
    public boolean contains(final long addr, final long len)
    {
        return len >= 0 && addr >= address && addr - address <= length - len;
    }

    public SoftProtectionDomain softPd()
    {
        return pd;
    }

    @Override
    protected String describe()
    {
        return "MR 0x" + Integer.toHexString(key) + " [0x" + Long.toHexString(address) + ", +" + length + ", " +
            AccessFlags.toString(access) + "]";
    }

    @Override
    protected int closeRank()
    {
        return 2;
    }

    @Override
    protected void release()
    {
        if (shared != null)
        {
            shared.withdraw(); // first: no peer copies into it once deregistered
        }
        pd.softContext().softDevice().unregister(this);
    }
}
