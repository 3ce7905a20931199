package io.ibex.rdma.verbs;

/**
 * An address handle, as {@code struct ibv_ah}: the destination of UD sends.
 */
public interface AddressHandle extends RdmaResource
{
    /**
     * @return the protection domain it was created in.
     */
    ProtectionDomain pd();

    /**
     * @return the attributes it was created with.
     */
    AhAttr attr();
}
