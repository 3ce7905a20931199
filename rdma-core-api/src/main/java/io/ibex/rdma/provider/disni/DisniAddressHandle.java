package io.ibex.rdma.provider.disni;

import io.ibex.rdma.spi.ProviderResource;
import io.ibex.rdma.verbs.AddressHandle;
import io.ibex.rdma.verbs.AhAttr;
import io.ibex.rdma.verbs.Gid;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.VerbsException;

/**
 * An address handle (ibv_create_ah through IbexNative: DiSNI has none); UD sends carry its handle in
 * {@code wr.ud.ah}.
 */
final class DisniAddressHandle extends ProviderResource implements AddressHandle
{
    private final DisniProtectionDomain pd;
    private final AhAttr attr;
    private final long handle;

    DisniAddressHandle(final DisniProtectionDomain pd, final AhAttr attr)
    {
        super(pd);
        this.pd = pd;
        this.attr = attr;
        this.handle = IbexNative.createAh(pd.handle(), values(attr, "address handle"), dgid(attr));
    }

    /**
     * @param attr an address.
     * @param what what it is for, for the message when it is incomplete.
     * @return the AH_* values IbexNative takes.
     */
    static long[] values(final AhAttr attr, final String what)
    {
        if (attr == null || (attr.isGlobal() && attr.dgid() == null))
        {
            throw new VerbsException(VerbsException.EINVAL, what + " " + attr + " needs a destination GID when " +
                "global (RoCE ports are addressed by GID)");
        }
        final long[] values = new long[IbexNative.AH_ATTR_LENGTH];
        write(attr, values, 0);
        return values;
    }

    /**
     * Writes an address's AH_* values at an offset of an IbexNative array (a QP attribute array's QP_AH).
     *
     * @param attr   the address.
     * @param values the array.
     * @param at     where the AH fields start.
     */
    static void write(final AhAttr attr, final long[] values, final int at)
    {
        values[at + IbexNative.AH_DLID] = attr.dlid();
        values[at + IbexNative.AH_SL] = attr.sl();
        values[at + IbexNative.AH_IS_GLOBAL] = attr.isGlobal() ? 1 : 0;
        values[at + IbexNative.AH_PORT_NUM] = attr.portNum();
        values[at + IbexNative.AH_FLOW_LABEL] = attr.flowLabel();
        values[at + IbexNative.AH_SGID_INDEX] = attr.sgidIndex();
        values[at + IbexNative.AH_HOP_LIMIT] = attr.hopLimit();
        values[at + IbexNative.AH_TRAFFIC_CLASS] = attr.trafficClass();
    }

    /**
     * @param attr an address.
     * @return its destination GID's 16 bytes (zeros when it has none).
     */
    static byte[] dgid(final AhAttr attr)
    {
        return attr.dgid() == null ? new byte[Gid.LENGTH] : attr.dgid().toBytes();
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

    long handle()
    {
        return handle;
    }

    DisniProtectionDomain disniPd()
    {
        return pd;
    }

    @Override
    protected String describe()
    {
        return "AH to " + (attr.isGlobal() ? String.valueOf(attr.dgid()) : "LID " + attr.dlid());
    }

    @Override
    protected int closeRank()
    {
        return 1;
    }

    @Override
    protected void release()
    {
        IbexNative.destroyAh(handle);
    }
}
