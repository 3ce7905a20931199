package io.ibex.transport.config;

/**
 * The queue pair type of a channel, as {@code rdma_transport_mode} names it.
 */
public enum TransportMode
{
    /** Reliable connection: RDMA_PS_TCP, IBV_QPT_RC. */
    RC,
    /** Unreliable connection: RDMA_PS_IB, IBV_QPT_UC. */
    UC,
    /** Unreliable datagram: RDMA_PS_UDP, IBV_QPT_UD. */
    UD;

    /**
     * @param text "RC", "UC" or "UD", in any case.
     * @return the mode.
     * @throws IllegalArgumentException naming the value and the accepted ones.
     */
    public static TransportMode fromConfigName(final String text)
    {
        return ConfigNames.parse(values(), text, TransportMode::name);
    }
}
