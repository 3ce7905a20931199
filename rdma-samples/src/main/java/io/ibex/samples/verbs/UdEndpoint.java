package io.ibex.samples.verbs;

import io.ibex.rdma.verbs.AddressHandle;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpCapabilities;
import io.ibex.rdma.verbs.QpInitAttr;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.samples.EndpointAddress;
import io.ibex.samples.EndpointResources;
import io.ibex.samples.RcEndpoint;
import org.agrona.CloseHelper;

import java.util.concurrent.ThreadLocalRandom;

/**
 * One end of an unreliable-datagram exchange set up out of band, the way {@code ibv_ud_pingpong} does it: the
 * {@link EndpointResources}, a UD queue pair in INIT with the C tool's Q_Key, and after {@link #connect} the
 * queue pair in RTS and an address handle for the peer.
 * <p>
 * Not thread safe.
 */
final class UdEndpoint implements AutoCloseable
{
    /** The Q_Key of {@code ibv_ud_pingpong}, on its queue pair and on every send. */
    static final int QKEY = 0x11111111;
    /** Bytes a UD receive buffer starts with: the GRH (or, on RoCE v2 over IPv4, the IP header in its end). */
    static final int GRH_LENGTH = 40;

    private static final int PSN_MASK = 0xffffff;

    private final EndpointResources resources;
    private final QueuePair qp;
    private final int psn;
    private AddressHandle ah;

    private UdEndpoint(final EndpointResources resources, final QueuePair qp)
    {
        this.resources = resources;
        this.qp = qp;
        this.psn = ThreadLocalRandom.current().nextInt() & PSN_MASK;
    }

    /**
     * Creates the UD queue pair on opened resources and moves it to INIT; the endpoint owns the resources from
     * here on, and closes them on failure.
     *
     * @param resources the opened resources.
     * @param sendDepth outstanding sends the queue pair must hold.
     * @param recvDepth outstanding receives the queue pair must hold.
     * @return the endpoint.
     */
    static UdEndpoint open(final EndpointResources resources, final int sendDepth, final int recvDepth)
    {
        try
        {
            final CompletionQueue cq = resources.cq();
            final QueuePair qp = resources.pd().createQp(
                new QpInitAttr(QpType.UD, cq, cq, new QpCapabilities(sendDepth, recvDepth, 1, 1, 0), false));
            final UdEndpoint endpoint = new UdEndpoint(resources, qp);
            qp.modify(QpAttr.initUd(resources.portNum(), QKEY));
            return endpoint;
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietClose(resources);
            throw ex;
        }
    }

    /** @return what the peer needs to send to this endpoint; the PSN is sent but UD does not use it. */
    EndpointAddress address()
    {
        return new EndpointAddress(resources.port().lid(), qp.qpNum(), psn, resources.gid());
    }

    /**
     * Moves the queue pair to RTR and RTS and creates the address handle of the peer, as
     * {@code ibv_ud_pingpong}'s {@code pp_connect_ctx}.
     *
     * @param remote the peer's address.
     * @param sl     the service level of the address handle.
     */
    void connect(final EndpointAddress remote, final int sl)
    {
        qp.modify(QpAttr.to(QpState.RTR));
        qp.modify(QpAttr.to(QpState.RTS).sqPsn(psn));
        ah = resources.pd().createAh(RcEndpoint.ahAttr(resources, remote, sl));
    }

    /** @return the address handle of the peer, after {@link #connect}. */
    AddressHandle ah()
    {
        return ah;
    }

    /** @return the resources. */
    EndpointResources resources()
    {
        return resources;
    }

    /** @return the UD queue pair. */
    QueuePair qp()
    {
        return qp;
    }

    /**
     * Releases the queue pair and the address handle, then the resources.
     */
    @Override
    public void close()
    {
        CloseHelper.closeAll(qp, ah, resources);
    }
}
