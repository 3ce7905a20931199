package io.ibex.rdma.verbs;

/**
 * The link layer of a port, as {@code ibv_devinfo} names it.
 */
public enum LinkLayer
{
    /** Not reported. */
    UNSPECIFIED,
    /** InfiniBand: addressed by LID, GRH optional. */
    INFINIBAND,
    /** Ethernet (RoCE and the soft provider): addressed by GID, GRH mandatory. */
    ETHERNET
}
