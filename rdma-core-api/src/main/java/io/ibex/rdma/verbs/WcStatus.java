package io.ibex.rdma.verbs;

/**
 * The status of a work completion; {@link #value()} is the number of {@code enum ibv_wc_status}.
 */
public enum WcStatus
{
    /** The operation completed. */
    SUCCESS,
    /** A message was longer than the receive buffer, or a send longer than the port's limits. */
    LOC_LEN_ERR,
    /** An internal QP consistency error, or an opcode the QP type does not support. */
    LOC_QP_OP_ERR,
    /** An internal EE-context consistency error (RD only). */
    LOC_EEC_OP_ERR,
    /** A local buffer failed the protection checks (bad lkey, out of bounds, wrong PD). */
    LOC_PROT_ERR,
    /** The work request was flushed because the QP entered the error state. */
    WR_FLUSH_ERR,
    /** Memory-window binding failed. */
    MW_BIND_ERR,
    /** The responder answered with an unexpected transport opcode. */
    BAD_RESP_ERR,
    /** A local protection error while writing an RDMA READ response or atomic result. */
    LOC_ACCESS_ERR,
    /** The responder found the request invalid (for example no receive buffer large enough). */
    REM_INV_REQ_ERR,
    /** The responder refused a remote access (bad rkey, out of bounds, missing access flag). */
    REM_ACCESS_ERR,
    /** The responder could not complete the operation. */
    REM_OP_ERR,
    /** The transport retry counter was exceeded: the peer did not answer. */
    RETRY_EXC_ERR,
    /** The receiver-not-ready retry counter was exceeded: the peer posted no receive in time. */
    RNR_RETRY_EXC_ERR,
    /** RD domain violation. */
    LOC_RDD_VIOL_ERR,
    /** The responder found an invalid RDMA READ request. */
    REM_INV_RD_REQ_ERR,
    /** The responder aborted the operation. */
    REM_ABORT_ERR,
    /** Invalid EE context number. */
    INV_EECN_ERR,
    /** Invalid EE context state. */
    INV_EEC_STATE_ERR,
    /** A fatal error. */
    FATAL_ERR,
    /** The response timed out. */
    RESP_TIMEOUT_ERR,
    /** A general error. */
    GENERAL_ERR,
    /** Tag-matching error. */
    TM_ERR,
    /** Tag-matching rendezvous incomplete. */
    TM_RNDV_INCOMPLETE;

    private static final WcStatus[] VALUES = values();

    /**
     * @return the numeric value of {@code enum ibv_wc_status}.
     */
    public int value()
    {
        return ordinal();
    }

    /**
     * @param value a numeric {@code enum ibv_wc_status}.
     * @return the status.
     * @throws IllegalArgumentException for an unknown value.
     */
    public static WcStatus of(final int value)
    {
        if (value < 0 || value >= VALUES.length)
        {
            throw new IllegalArgumentException("unknown ibv_wc_status " + value);
        }
        return VALUES[value];
    }
}
