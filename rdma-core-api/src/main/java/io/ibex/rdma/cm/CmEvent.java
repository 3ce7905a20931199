package io.ibex.rdma.cm;

/**
 * One connection-manager event, as {@code struct rdma_cm_event}. The event is a copy: it needs no
 * acknowledgement and stays valid.
 *
 * @param type        what happened.
 * @param id          the id the event is for (for CONNECT_REQUEST: the new connection's id).
 * @param listenId    for CONNECT_REQUEST: the listening id; otherwise null.
 * @param status      0, or the reason of a failure (a negative errno, or the IB CM reject reason for
 *                    REJECTED).
 * @param privateData the peer's private data (CONNECT_REQUEST, ESTABLISHED, REJECTED); empty if none.
 * @param remoteQpNum the peer's QP number when known (CONNECT_REQUEST, ESTABLISHED), else 0.
 * @param ud          for UD ids on ESTABLISHED (and CONNECT_REQUEST): the peer's QPN, Q_Key and address;
 *                    otherwise null.
 */
public record CmEvent(CmEventType type, CmId id, CmId listenId, int status, byte[] privateData, int remoteQpNum,
    UdParams ud)
{
    /**
     * IB CM reject reason: the other side gave up on the handshake (a requester whose REQ went unanswered too
     * long; the passive side hears it for a request it had taken).
     */
    public static final int REJ_TIMEOUT = 4;
    /** IB CM reject reason: nothing listens on the request's service ID (its port) on that device. */
    public static final int REJ_INVALID_SERVICE_ID = 8;
    /** IB CM reject reason: the peer still holds an earlier connection of the requesting queue pair. */
    public static final int REJ_STALE_CONN = 10;
    /** IB CM reject reason of {@code rdma_reject}: the peer's application refused. */
    public static final int REJ_CONSUMER_DEFINED = 28;
    /** UNREACHABLE status of a UD (SIDR) request: no listener for the service id. */
    public static final int SIDR_UNSUPPORTED = 1;
    /** UNREACHABLE status of a UD (SIDR) request: the peer rejected it (rdma_reject). */
    public static final int SIDR_REJECT = 2;
    private static final byte[] NONE = new byte[0];

    /**
     * Copies the private data.
     *
     * @param type        what happened.
     * @param id          the id the event is for (for CONNECT_REQUEST: the new connection's id).
     * @param listenId    for CONNECT_REQUEST: the listening id; otherwise null.
     * @param status      0, or the reason of a failure (a negative errno, or the IB CM reject reason for
     *                    REJECTED).
     * @param privateData the peer's private data (CONNECT_REQUEST, ESTABLISHED, REJECTED); empty if none.
     * @param remoteQpNum the peer's QP number when known (CONNECT_REQUEST, ESTABLISHED), else 0.
     * @param ud          for UD ids on ESTABLISHED (and CONNECT_REQUEST): the peer's QPN, Q_Key and address;
     *                    otherwise null.
     */
    public CmEvent
    {
        privateData = privateData == null ? NONE : privateData.clone();
    }

    /** @return a copy of the private data; empty if none. */
    @Override
    public byte[] privateData()
    {
        return privateData.clone();
    }

    /**
     * Says in words why a connect ended with this event, as {@code rdma_reject_msg} does for a rejection.
     *
     * @return e.g. {@code "nothing listens on that port"} for REJECTED with reason 8; null for an event or status
     *     without words.
     */
    public String failureText()
    {
        return switch (type)
        {
            case REJECTED -> switch (status)
            {
                case REJ_TIMEOUT -> "the other side gave up on the handshake";
                case REJ_INVALID_SERVICE_ID -> "nothing listens on that port";
                case REJ_STALE_CONN -> "the peer still holds an earlier connection of this queue pair";
                case REJ_CONSUMER_DEFINED -> "the peer rejected the connection";
                default -> null;
            };
            case UNREACHABLE -> switch (status)
            {
                case SIDR_UNSUPPORTED -> "nothing listens on that port";
                case SIDR_REJECT -> "the peer rejected the request";
                default -> "the peer did not answer, or nothing listens on that port";
            };
            case ADDR_ERROR, ROUTE_ERROR -> "no RDMA device reaches that address";
            default -> null;
        };
    }

    @Override
    public String toString()
    {
        return "CmEvent{" + type + ", status=" + status + ", privateData=" + privateData.length + " B" +
            (remoteQpNum != 0 ? ", remoteQpNum=" + remoteQpNum : "") + (ud != null ? ", ud=" + ud : "") + '}';
    }
}
