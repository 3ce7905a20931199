package io.ibex.rdma.verbs;

/**
 * An open device, as {@code struct ibv_context}: the parent of protection domains, completion channels and
 * completion queues. Closing a context closes everything created from it, children first.
 */
public interface Context extends RdmaResource
{
    /**
     * @return the device this context was opened from.
     */
    Device device();

    /**
     * @return the device attributes, as {@code ibv_query_device}.
     */
    DeviceAttributes queryDevice();

    /**
     * @param portNum port number, from 1.
     * @return the port attributes, as {@code ibv_query_port}.
     */
    PortAttributes queryPort(int portNum);

    /**
     * @param portNum port number, from 1.
     * @param index   index into the GID table.
     * @return the GID, as {@code ibv_query_gid}; {@link Gid#ZERO} for an unused entry.
     */
    Gid queryGid(int portNum, int index);

    /**
     * @return a new protection domain, as {@code ibv_alloc_pd}.
     */
    ProtectionDomain allocPd();

    /**
     * @return a new completion channel, as {@code ibv_create_comp_channel}.
     */
    CompletionChannel createCompChannel();

    /**
     * Creates a completion queue, as {@code ibv_create_cq}.
     *
     * @param cqe        minimum number of entries.
     * @param channel    completion channel for event notification, or null for polling only.
     * @param compVector completion vector (0 if unsure).
     * @return a new completion queue.
     */
    CompletionQueue createCq(int cqe, CompletionChannel channel, int compVector);

    /**
     * Waits for the next asynchronous event (CQ overflow, fatal QP error, port change), as
     * {@code ibv_get_async_event}; the event is acknowledged when returned.
     *
     * @param timeoutMillis how long to wait; 0 returns at once.
     * @return the event, or null if none arrived in time.
     */
    AsyncEvent getAsyncEvent(long timeoutMillis);
}
