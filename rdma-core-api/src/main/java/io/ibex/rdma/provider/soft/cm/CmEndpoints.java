package io.ibex.rdma.provider.soft.cm;

import io.ibex.rdma.cm.ConnParam;
import io.ibex.rdma.cm.PortSpace;
import io.ibex.rdma.cm.UdParams;
import io.ibex.rdma.provider.soft.wire.SoftLinkToken;
import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.AhAttr;
import io.ibex.rdma.verbs.Gid;
import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;

import java.util.concurrent.ThreadLocalRandom;

import static io.ibex.rdma.provider.soft.cm.CmMessageDescriptor.SIDR_SUCCESS;

/**
 * The two ends of one connection as their REQ and REP describe them (QP number, starting PSN, Q_Key, GID,
 * RDMA resources, retry counts; the link token of a connected port space), and the RTR and RTS transitions
 * rdma_cm does with them.
 * <p>
 * One per connection id, used by its {@link CmHandshake} under the id's lock, from the user's thread
 * ({@code connect}, {@code accept}) or the agent's. A transition allocates its two {@link QpAttr}.
 */
final class CmEndpoints
{
    /** The GID-table index rdma_cm uses on RoCE v2 (the IPv4-mapped GID). */
    private static final int GID_INDEX = 1;
    /**
     * The RNR NAK timer the kernel's IB CM gives an RC QP at RTR (cm_init_qp_rtr_attr): 0, which encodes 655.36 ms.
     * A user who wants less changes it in RTS, as real rdma_cm leaves them no other way.
     */
    private static final int MIN_RNR_TIMER = 0;
    /** The ACK timeout of the transitions rdma_cm does (about 67 ms). */
    private static final int ACK_TIMEOUT = 14;

    private final SoftCmId id;
    private final PortSpace portSpace;
    private ConnParam localParam;
    private int localPsn;
    /** Passive side of a connected port space: the link token it drew, which its REP carries. */
    private byte[] linkToken;
    private int peerQpNum;
    private int peerPsn;
    private int peerQkey;
    private Gid peerGid;
    private int peerRetryCount;
    private int peerRnrRetryCount;

    /**
     * @param id        the id whose QP and device context the transitions use.
     * @param portSpace the id's port space.
     */
    CmEndpoints(final SoftCmId id, final PortSpace portSpace)
    {
        this.id = id;
        this.portSpace = portSpace;
    }

    /**
     * @param qpNum a UD QP's number.
     * @param qkey  its Q_Key.
     * @param gid   the GID of its port.
     * @return where to send to it, as a UDP id's events carry it.
     */
    static UdParams udParams(final int qpNum, final int qkey, final Gid gid)
    {
        return new UdParams(qpNum, qkey, AhAttr.global(SoftCmId.PORT_NUM, gid, GID_INDEX));
    }

    /**
     * This end connects or accepts with these parameters and a random starting PSN.
     *
     * @param param the user's connection parameters.
     */
    void local(final ConnParam param)
    {
        localParam = param;
        localPsn = ThreadLocalRandom.current().nextInt() & 0xffffff;
    }

    /**
     * Takes the peer's end from its REQ or REP.
     *
     * @param message the REQ or REP.
     */
    void peer(final CmMessage message)
    {
        peerQpNum = message.qpNum();
        peerPsn = message.startPsn();
        peerQkey = message.qkey();
        peerGid = message.gid();
        peerRetryCount = message.retryCount();
        peerRnrRetryCount = message.rnrRetryCount();
    }

    /** @return the peer's QP number. */
    int peerQpNum()
    {
        return peerQpNum;
    }

    /** @return for the UDP port space: where the peer's QP is; otherwise null. */
    UdParams peerUdParams()
    {
        return portSpace.qpType() == QpType.UD ? udParams(peerQpNum, peerQkey, peerGid) : null;
    }

    /**
     * The passive side of a connected port space accepts: as rdma_accept, its QP is bound to a new link token
     * and in RTS, with the retry counts the REQ asked for, before the REP leaves.
     */
    void acceptToRts()
    {
        linkToken = SoftLinkToken.generate();
        id.qp().bindLinkToken(linkToken);
        moveToRts(peerRetryCount, peerRnrRetryCount);
    }

    /**
     * The active side of a connected port space takes the REP: its QP is bound to the REP's link token and in
     * RTS, the IB CM way: its own retry count, the RNR retry count the passive side asked for.
     *
     * @param rep the REP.
     */
    void replyToRts(final CmMessage rep)
    {
        peer(rep);
        id.qp().bindLinkToken(rep.linkToken());
        moveToRts(localParam.retryCount(), rep.rnrRetryCount());
    }

    /**
     * @param req a REQ to fill.
     * @return the REQ, with this end and the user's private data.
     */
    CmMessage fillRequest(final CmMessage req)
    {
        return fillEndpoint(req).privateData(localParam.privateData());
    }

    /**
     * @param rep a REP to fill.
     * @return the REP, with this end, success, the user's private data and the link token if drawn.
     */
    CmMessage fillReply(final CmMessage rep)
    {
        fillEndpoint(rep).status(SIDR_SUCCESS).privateData(localParam.privateData());
        return linkToken != null ? rep.linkToken(linkToken) : rep;
    }

    private CmMessage fillEndpoint(final CmMessage message)
    {
        return message
            .qpNum(id.qp().qpNum())
            .startPsn(localPsn)
            .qkey(portSpace.qpType() == QpType.UD ? SoftCmId.RDMA_UDP_QKEY : 0)
            .gid(id.context().queryGid(SoftCmId.PORT_NUM, GID_INDEX))
            .resources(localParam.responderResources(), localParam.initiatorDepth(), localParam.retryCount(),
                localParam.rnrRetryCount());
    }

    private void moveToRts(final int retryCount, final int rnrRetryCount)
    {
        final boolean rc = portSpace.qpType() == QpType.RC;
        final int access = AccessFlags.REMOTE_WRITE |
            (rc && localParam.responderResources() > 0 ? AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC : 0);
        final QpAttr rtr = new QpAttr().state(QpState.RTR)
            .ahAttr(AhAttr.global(SoftCmId.PORT_NUM, peerGid, GID_INDEX))
            .pathMtu(id.context().queryPort(SoftCmId.PORT_NUM).activeMtu())
            .destQpNum(peerQpNum)
            .rqPsn(peerPsn)
            .accessFlags(access);
        final QpAttr rts = new QpAttr().state(QpState.RTS).sqPsn(localPsn);
        if (rc)
        {
            rtr.maxDestRdAtomic(localParam.responderResources()).minRnrTimer(MIN_RNR_TIMER);
            rts.timeout(ACK_TIMEOUT).retryCnt(retryCount).rnrRetry(rnrRetryCount)
                .maxRdAtomic(localParam.initiatorDepth());
        }
        final QueuePair qp = id.qp();
        qp.modify(rtr);
        qp.modify(rts);
    }
}
