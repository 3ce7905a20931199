package io.ibex.rdma;

import io.ibex.rdma.cm.EventChannel;
import io.ibex.rdma.verbs.Device;

import java.util.List;

/**
 * A verbs implementation as its users see it, chosen by {@link Providers#select()}: its devices, from which a
 * context is opened, and connection-manager event channels.
 */
public interface Provider
{
    /**
     * @return the name users select the provider by, for example {@code soft} or {@code disni}.
     */
    String name();

    /**
     * @return the devices, as {@code ibv_get_device_list}.
     */
    List<Device> devices();

    /**
     * @return a new connection-manager event channel, as {@code rdma_create_event_channel}.
     */
    EventChannel createEventChannel();
}
