package io.ibex.rdma.cm;

import io.ibex.rdma.verbs.RdmaResource;

/**
 * An rdma_cm event channel, as {@code struct rdma_event_channel}: the parent of connection ids, and the
 * queue their events arrive on. Closing it closes its ids.
 */
public interface EventChannel extends RdmaResource
{
    /**
     * Creates a connection id, as {@code rdma_create_id}.
     *
     * @param portSpace TCP (RC), UDP (UD) or IB (UC).
     * @return the id.
     */
    CmId createId(PortSpace portSpace);

    /**
     * Waits for the next event, as {@code rdma_get_cm_event}.
     *
     * @param timeoutMillis how long to wait; 0 returns at once.
     * @return the event, or null if none arrived in time.
     */
    CmEvent getEvent(long timeoutMillis);
}
