package io.ibex.rdma.provider.disni;

import io.ibex.rdma.spi.ProviderResource;
import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.ProtectionDomain;

import java.nio.ByteBuffer;

/**
 * A registered memory region; closing it deregisters it ({@code ibv_dereg_mr}).
 */
final class DisniMemoryRegion extends ProviderResource implements MemoryRegion
{
    private final DisniProtectionDomain pd;
    private final long mr;
    private final int lkey;
    private final int rkey;
    private final long address;
    private final long length;
    private final int access;
    private final ByteBuffer buffer;

    DisniMemoryRegion(
        final DisniProtectionDomain pd,
        final long mr,
        final int lkey,
        final int rkey,
        final long address,
        final long length,
        final int access,
        final ByteBuffer buffer)
    {
        super(pd);
        this.pd = pd;
        this.mr = mr;
        this.lkey = lkey;
        this.rkey = rkey;
        this.address = address;
        this.length = length;
        this.access = access;
        this.buffer = buffer;
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
        return lkey;
    }

    @Override
    public int rkey()
    {
        return rkey;
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

    @Override
    protected String describe()
    {
        return "MR 0x" + Integer.toHexString(lkey) + " [0x" + Long.toHexString(address) + ", +" + length +
            ", " + AccessFlags.toString(access) + "]";
    }

    @Override
    protected int closeRank()
    {
        return 2;
    }

    @Override
    protected void release()
    {
        pd.forget(this);
        IbexNative.deregMr(mr);
    }
}
