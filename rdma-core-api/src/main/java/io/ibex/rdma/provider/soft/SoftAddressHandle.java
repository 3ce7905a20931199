package io.ibex.rdma.provider.soft;

import io.ibex.rdma.verbs.AddressHandle;
import io.ibex.rdma.verbs.AhAttr;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.VerbsException;

import java.net.InetSocketAddress;

/**
 * A soft address handle: the UD destination endpoint decoded once from the destination GID.
 */
final class SoftAddressHandle extends SoftResource implements AddressHandle
{
    private final SoftProtectionDomain pd;
    private final AhAttr attr;
    private final InetSocketAddress target;

    SoftAddressHandle(final SoftProtectionDomain pd, final AhAttr attr)
    {
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

    @Override
    public String toString()
    {
        return describe();
    }

    InetSocketAddress target()
    {
        return target;
    }

    @Override
    String describe()
    {
        return "AH to " + attr.dgid();
    }

    @Override
    int closeRank()
    {
        return 1;
    }

    @Override
    void release()
    {
        pd.removeChild(this);
    }
}
