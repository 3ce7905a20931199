package io.ibex.rdma.verbs;

/**
 * Asynchronous event types, in the order of {@code enum ibv_event_type}.
 */
public enum AsyncEventType
{
    /** A CQ overran; the QPs using it were moved to the error state. */
    CQ_ERR,
    /** A QP hit an error it cannot report in a completion and moved to ERR. */
    QP_FATAL,
    /** A QP received an invalid request. */
    QP_REQ_ERR,
    /** A QP hit a local access violation. */
    QP_ACCESS_ERR,
    /** Communication established on a QP in RTR. */
    COMM_EST,
    /** A send queue drained. */
    SQ_DRAINED,
    /** Path migrated. */
    PATH_MIG,
    /** Path migration failed. */
    PATH_MIG_ERR,
    /** The device is unusable. */
    DEVICE_FATAL,
    /** A port became active. */
    PORT_ACTIVE,
    /** A port went down. */
    PORT_ERR,
    /** A LID changed. */
    LID_CHANGE,
    /** A P_Key table changed. */
    PKEY_CHANGE,
    /** The subnet manager changed. */
    SM_CHANGE,
    /** An SRQ error. */
    SRQ_ERR,
    /** An SRQ reached its limit. */
    SRQ_LIMIT_REACHED,
    /** The last WQE of a QP attached to an SRQ was reached. */
    QP_LAST_WQE_REACHED,
    /** Re-register with the subnet manager. */
    CLIENT_REREGISTER,
    /** A GID table entry changed. */
    GID_CHANGE
}
