package io.ibex.rdma.verbs;

/**
 * A completion channel, as {@code struct ibv_comp_channel}: lets a thread block until an armed completion
 * queue has a new completion, instead of spinning.
 */
public interface CompletionChannel extends RdmaResource
{
    /**
     * @return the context this channel was created from.
     */
    Context context();

    /**
     * Waits for a completion event of a CQ armed with {@link CompletionQueue#requestNotify(boolean)}, as
     * {@code ibv_get_cq_event}. The event is acknowledged when returned. The CQ must be re-armed before the
     * next event can be raised, and polled empty after arming to not miss completions.
     *
     * @param timeoutMillis how long to wait; 0 returns at once.
     * @return the CQ that raised the event, or null if none did in time.
     */
    CompletionQueue getEvent(long timeoutMillis);
}
