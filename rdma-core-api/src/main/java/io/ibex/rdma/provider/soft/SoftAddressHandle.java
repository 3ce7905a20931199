package io.ibex.rdma.provider.soft;

import io.ibex.rdma.provider.soft.wire.SoftGidDescriptor;
import io.ibex.rdma.spi.ProviderResource;
import io.ibex.rdma.verbs.AddressHandle;
import io.ibex.rdma.verbs.AhAttr;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.VerbsException;

import java.net.InetSocketAddress;

/**
 * A soft address handle: the UD destination endpoint decoded once from the destination GID.
 */
public final class SoftAddressHandle extends ProviderResource implements AddressHandle
{
    private final SoftProtectionDomain pd;
    private final AhAttr attr;
    private final InetSocketAddress target;

    SoftAddressHandle(final SoftProtectionDomain pd, final AhAttr attr)
    {
        super(pd);
        if (!attr.isGlobal() || attr.dgid() == null || !SoftGidDescriptor.isSoftEndpoint(attr.dgid()))
        {
            throw new VerbsException(VerbsException.EINVAL, "address handle " + attr + " needs a global route " +
                "with a soft endpoint GID (link layer is Ethernet: no LID routing)");
        }
        this.pd = pd;
        this.attr = attr;
        this.target = SoftGidDescriptor.toSocketAddress(attr.dgid());
    }

    @Override
    public ProtectionDomain pd()
    {
        return pd;
    }

    @Override
    public AhAttr attr()
    {
        return attr;
    }

    public InetSocketAddress target()
    {
        return target;
    }

    @Override
    protected String describe()
    {
        return "AH to " + attr.dgid();
    }

    @Override
    protected int closeRank()
    {
        return 1;
    }

    @Override
    protected void release()
    {
        // nothing held: the destination is only a socket address
    }
}
