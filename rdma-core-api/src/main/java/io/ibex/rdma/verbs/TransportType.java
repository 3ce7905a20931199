package io.ibex.rdma.verbs;

/**
 * The transport a device implements, as {@code ibv_device.transport_type}; {@link #value()} is the number of
 * {@code enum ibv_transport_type} that {@code ibv_devinfo} prints beside the name.
 */
public enum TransportType
{
    /** InfiniBand transport: InfiniBand and RoCE devices (rxe included) and the soft device. */
    INFINIBAND(0),
    /** iWARP. */
    IWARP(1),
    /** Cisco usNIC. */
    USNIC(2),
    /** Cisco usNIC over UDP. */
    USNIC_UDP(3),
    /** Not specified by the device. */
    UNSPECIFIED(4);

    private final int value;

    TransportType(final int value)
    {
        this.value = value;
    }

    /**
     * @return the numeric value of {@code enum ibv_transport_type}.
     */
    public int value()
    {
        return value;
    }

    /**
     * @param value a value of {@code enum ibv_transport_type}; -1 (IBV_TRANSPORT_UNKNOWN) and anything
     *              unknown map to {@link #UNSPECIFIED}.
     * @return the transport.
     */
    public static TransportType of(final int value)
    {
        for (final TransportType type : values())
        {
            if (type.value == value)
            {
                return type;
            }
        }
        return UNSPECIFIED;
    }
}
