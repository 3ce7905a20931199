package io.ibex.rdma.verbs;

/**
 * An RDMA device as {@code ibv_get_device_list} lists it. Opening it gives a {@link Context}.
 */
public interface Device
{
    /**
     * @return the device name, for example {@code rxe0} or {@code soft0}.
     */
    String name();

    /**
     * @return the node GUID.
     */
    long guid();

    /**
     * @return the transport the device implements, as {@code ibv_device.transport_type}.
     */
    TransportType transportType();

    /**
     * @return the board id, as {@code ibv_devinfo} reads it from the {@code board_id} file of the device's sysfs
     *         directory ({@code ibv_device.ibdev_path}) and prints it when there is one; empty when the device has
     *         none (rxe, soft).
     */
    String boardId();

    /**
     * @return the name of the provider that serves this device.
     */
    String providerName();

    /**
     * Opens the device, as {@code ibv_open_device}.
     *
     * @return a new context; close it to release everything created from it.
     */
    Context open();
}
