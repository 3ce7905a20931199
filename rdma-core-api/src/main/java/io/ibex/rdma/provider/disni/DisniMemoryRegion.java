package io.ibex.rdma.provider.disni;

import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.SVCDeregMr;
import io.ibex.rdma.spi.ProviderResource;
import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.ProtectionDomain;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A memory region DiSNI registered; closing it deregisters it through DiSNI.
 */
final class DisniMemoryRegion extends ProviderResource implements MemoryRegion
{
    private final DisniProtectionDomain pd;
    private final IbvMr mr;
    private final long address;
    private final long length;
    private final int access;
    private final ByteBuffer buffer;

    DisniMemoryRegion(
        final DisniProtectionDomain pd,
        final IbvMr mr,
        final long address,
        final long length,
        final int access,
        final ByteBuffer buffer)
    {
        super(pd);
        this.pd = pd;
        this.mr = mr;
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
        return mr.getLkey();
    }

    @Override
    public int rkey()
    {
        return mr.getRkey();
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
        return "MR 0x" + Integer.toHexString(mr.getLkey()) + " [0x" + Long.toHexString(address) + ", +" + length +
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
        try
        {
            final SVCDeregMr call = mr.deregMr();
            try
            {
                call.execute();
            }
            finally
            {
                call.free();
            }
        }
        catch (final IOException ex)
        {
            throw DisniErrors.verbs("ibv_dereg_mr of " + this, ex);
        }
    }
}
