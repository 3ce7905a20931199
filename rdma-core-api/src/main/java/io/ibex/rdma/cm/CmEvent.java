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
    private static final byte[] NONE = new byte[0];

    /**
     * Copies the private data.
     */
    public CmEvent
    {
        privateData = privateData == null ? NONE : privateData.clone();
    }

    @Override
    public byte[] privateData()
    {
        return privateData.clone();
    }

    @Override
    public String toString()
    {
        return "CmEvent{" + type + ", status=" + status + ", privateData=" + privateData.length + " B" +
            (remoteQpNum != 0 ? ", remoteQpNum=" + remoteQpNum : "") + (ud != null ? ", ud=" + ud : "") + '}';
    }
}
