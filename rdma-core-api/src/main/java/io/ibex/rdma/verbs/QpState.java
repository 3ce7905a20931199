package io.ibex.rdma.verbs;

/**
 * Queue-pair state; {@link #value()} is the number of {@code enum ibv_qp_state}.
 */
public enum QpState
{
    /** Just created or reset: nothing can be posted. */
    RESET,
    /** Initialised: receives may be posted, nothing is processed. */
    INIT,
    /** Ready to receive: incoming messages are processed. */
    RTR,
    /** Ready to send: sends are processed. */
    RTS,
    /** Send queue drained. */
    SQD,
    /** Send queue error (UC and UD). */
    SQE,
    /** Error: every outstanding work request is flushed with WR_FLUSH_ERR. */
    ERR;

    /**
     * @return the numeric value of {@code enum ibv_qp_state}.
     */
    public int value()
    {
        return ordinal();
    }
}
