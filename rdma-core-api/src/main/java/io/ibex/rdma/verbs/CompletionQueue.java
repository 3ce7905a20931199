package io.ibex.rdma.verbs;

/**
 * A completion queue, as {@code struct ibv_cq}. Polling allocates nothing: completions are copied into
 * {@link WorkCompletion} objects the caller allocated once.
 * <p>
 * Overrunning a CQ is an error, never a silent loss: the CQ raises {@link AsyncEventType#CQ_ERR} and the
 * queue pairs using it move to the error state.
 */
public interface CompletionQueue extends RdmaResource
{
    /**
     * @return the context this CQ was created from.
     */
    Context context();

    /**
     * @return the number of entries the CQ holds (at least what was asked for).
     */
    int cqe();

    /**
     * @return the completion channel, or null.
     */
    CompletionChannel channel();

    /**
     * Polls up to {@code wcs.length} completions, as {@code ibv_poll_cq}.
     *
     * @param wcs reusable completion objects, filled from index 0.
     * @return how many were filled (0 when the CQ is empty).
     */
    int poll(WorkCompletion[] wcs);

    /**
     * Polls up to {@code max} completions into {@code wcs[0..max)}.
     *
     * @param wcs reusable completion objects.
     * @param max at most this many, no more than {@code wcs.length}.
     * @return how many were filled.
     */
    int poll(WorkCompletion[] wcs, int max);

    /**
     * Arms the CQ so its completion channel raises one event for the next completion, as
     * {@code ibv_req_notify_cq}.
     *
     * @param solicitedOnly only for solicited or error completions.
     */
    void requestNotify(boolean solicitedOnly);
}
