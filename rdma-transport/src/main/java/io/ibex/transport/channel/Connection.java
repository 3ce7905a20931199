package io.ibex.transport.channel;

import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.verbs.AddressHandle;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.SendWorkRequest;

/**
 * One queue pair of a channel and where its sends go: the QP of a connected id, or for UD the QP and the
 * peer's address handle, QP number and Q_Key from the SIDR reply, or for UC a QP connected out of band beside
 * the id's. Closing it destroys the id (and so its QP), the UC QP and the address handle.
 */
final class Connection implements AutoCloseable
{
    private final CmId id;
    private final QueuePair qp;
    private final boolean outgoing;
    private final UcEndpoint ucLocal;
    private AddressHandle ah;
    private int remoteQpn;
    private int remoteQkey;

    /**
     * @param id       the connected id.
     * @param qp       the data QP: the id's own, or (UC) one connected out of band, which this connection owns.
     * @param outgoing whether this side asked for the connection.
     * @param ucLocal  the UC QP's endpoint as sent to the peer, or null.
     */
    Connection(final CmId id, final QueuePair qp, final boolean outgoing, final UcEndpoint ucLocal)
    {
        this.id = id;
        this.qp = qp;
        this.outgoing = outgoing;
        this.ucLocal = ucLocal;
    }

    /** @return the UC QP's endpoint as sent to the peer, or null on RC and UD. */
    UcEndpoint ucLocal()
    {
        return ucLocal;
    }

    /** @return whether this side asked for the connection (a source), rather than accepted it. */
    boolean outgoing()
    {
        return outgoing;
    }

    CmId id()
    {
        return id;
    }

    QueuePair qp()
    {
        return qp;
    }

    /** Sets where UD sends go; the connection owns the address handle from now on. */
    void datagramPeer(final AddressHandle ah, final int remoteQpn, final int remoteQkey)
    {
        this.ah = ah;
        this.remoteQpn = remoteQpn;
        this.remoteQkey = remoteQkey;
    }

    /** Addresses a send: a no-op on connected QPs, the peer's AH, QPN and Q_Key on UD. */
    void address(final SendWorkRequest wr)
    {
        if (ah != null)
        {
            wr.ud(ah, remoteQpn, remoteQkey);
        }
    }

    /** Destroys the queue pair (and address handle) and keeps the rdma_cm id, for a disconnect that must wait. */
    void closeQueuePair()
    {
        qp.close();
        if (ah != null)
        {
            ah.close();
        }
    }

    @Override
    public void close()
    {
        if (qp != id.qp())
        {
            qp.close();
        }
        id.close();
        if (ah != null)
        {
            ah.close();
        }
    }

    @Override
    public String toString()
    {
        return qp.type() + " QP " + qp.qpNum() + (ah != null ? " to QPN " + remoteQpn : "") + " via " +
            id.remoteAddress();
    }
}
