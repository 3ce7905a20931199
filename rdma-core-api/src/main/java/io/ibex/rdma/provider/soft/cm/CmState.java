package io.ibex.rdma.provider.soft.cm;

/**
 * Where a connection id is in the rdma_cm life cycle. The id changes it, from its user calls or when its
 * handshake reports an outcome, under the id's lock.
 */
enum CmState
{
    /** Created, nothing done. */
    IDLE,
    /** Bound to a local address. */
    BOUND,
    /** Listening for requests. */
    LISTENING,
    /** Destination resolved. */
    ADDR_RESOLVED,
    /** Route resolved; may connect. */
    ROUTE_RESOLVED,
    /** REQ sent, waiting for REP or REJ. */
    CONNECTING,
    /** Passive side: REQ received, waiting for accept or reject. */
    REQUEST_RECEIVED,
    /** Passive side: REP sent, waiting for RTU. */
    ACCEPTED,
    /** Connected (for UD: the SIDR exchange is done). */
    ESTABLISHED,
    /** DREQ sent, waiting for DREP. */
    DISCONNECTING,
    /** Disconnected. */
    DISCONNECTED,
    /** The connection attempt ended without a connection (rejected, unreachable, error). */
    FAILED,
    /** Closed by the user. */
    CLOSED
}
