package io.ibex.rdma.cm;

/**
 * Connection-manager events, in the order of {@code enum rdma_cm_event_type}.
 */
public enum CmEventType
{
    /** The destination address was resolved to a local device. */
    ADDR_RESOLVED,
    /** Address resolution failed or timed out. */
    ADDR_ERROR,
    /** The route to the destination was resolved. */
    ROUTE_RESOLVED,
    /** Route resolution failed or timed out. */
    ROUTE_ERROR,
    /** A listener received a connection request; the event's id is the new connection. */
    CONNECT_REQUEST,
    /** A reply arrived (only for ids without a QP; ibex does not raise it). */
    CONNECT_RESPONSE,
    /** Connection failed. */
    CONNECT_ERROR,
    /** The remote end is unreachable or did not answer. */
    UNREACHABLE,
    /** The remote end rejected the connection; the event carries its private data. */
    REJECTED,
    /** The connection is up; for UD the event carries the peer's QPN, Q_Key and address. */
    ESTABLISHED,
    /** The connection was disconnected (by either side, or the peer died). */
    DISCONNECTED,
    /** The local device was removed. */
    DEVICE_REMOVAL,
    /** Multicast join completed. */
    MULTICAST_JOIN,
    /** Multicast error. */
    MULTICAST_ERROR,
    /** The local address changed. */
    ADDR_CHANGE,
    /** The QP left the timewait state and may be reused. */
    TIMEWAIT_EXIT
}
