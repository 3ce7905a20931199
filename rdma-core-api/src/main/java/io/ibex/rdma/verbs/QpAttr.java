package io.ibex.rdma.verbs;

/**
 * Queue-pair attributes for {@link QueuePair#modify(QpAttr)}, as {@code struct ibv_qp_attr} together with
 * its {@code attr_mask}: every setter also sets the field's {@link QpAttrMask} bit, so only what was set is
 * applied. The static factories build the usual transitions (RESET to INIT to RTR to RTS) the way
 * {@code ibv_rc_pingpong} does.
 */
public final class QpAttr
{
    private static final int RC_ONLY = QpAttrMask.TIMEOUT | QpAttrMask.RETRY_CNT | QpAttrMask.RNR_RETRY |
        QpAttrMask.MAX_QP_RD_ATOMIC | QpAttrMask.MAX_DEST_RD_ATOMIC | QpAttrMask.MIN_RNR_TIMER;

    private int mask;
    private QpState state = QpState.RESET;
    private int accessFlags;
    private int pkeyIndex;
    private int portNum;
    private int qkey;
    private AhAttr ahAttr;
    private Mtu pathMtu = Mtu.MTU_1024;
    private int timeout;
    private int retryCnt;
    private int rnrRetry;
    private int rqPsn;
    private int sqPsn;
    private int maxRdAtomic;
    private int maxDestRdAtomic;
    private int minRnrTimer;
    private int destQpNum;

    /**
     * RESET to INIT for a connected QP (RC, UC).
     *
     * @param portNum     port, from 1.
     * @param accessFlags remote access the QP allows ({@link AccessFlags}).
     * @return the attributes.
     */
    public static QpAttr init(final int portNum, final int accessFlags)
    {
        return new QpAttr().state(QpState.INIT).pkeyIndex(0).portNum(portNum).accessFlags(accessFlags);
    }

    /**
     * RESET to INIT for a UD QP.
     *
     * @param portNum port, from 1.
     * @param qkey    the Q_Key incoming datagrams must carry.
     * @return the attributes.
     */
    public static QpAttr initUd(final int portNum, final int qkey)
    {
        return new QpAttr().state(QpState.INIT).pkeyIndex(0).portNum(portNum).qkey(qkey);
    }

    /**
     * INIT to RTR for a connected QP.
     *
     * @param remote    address of the peer's port.
     * @param destQpNum the peer's QP number.
     * @param rqPsn     the first PSN expected from the peer (the peer's sq_psn).
     * @param pathMtu   path MTU.
     * @return the attributes (max_dest_rd_atomic 1, min_rnr_timer 12 as ibv_rc_pingpong uses); for UC apply
     *         {@link #forType(QpType)}, since ibv_modify_qp rejects RC-only attributes on UC.
     */
    public static QpAttr rtr(final AhAttr remote, final int destQpNum, final int rqPsn, final Mtu pathMtu)
    {
        return new QpAttr().state(QpState.RTR).ahAttr(remote).destQpNum(destQpNum).rqPsn(rqPsn)
            .pathMtu(pathMtu).maxDestRdAtomic(1).minRnrTimer(12);
    }

    /**
     * RTR to RTS for a connected QP.
     *
     * @param sqPsn the first PSN this QP sends.
     * @return the attributes (timeout 14, retry_cnt 7, rnr_retry 7, max_rd_atomic 1, as ibv_rc_pingpong); for
     *         UC apply {@link #forType(QpType)}.
     */
    public static QpAttr rts(final int sqPsn)
    {
        return new QpAttr().state(QpState.RTS).sqPsn(sqPsn).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(1);
    }

    /**
     * A plain state change, for example to {@link QpState#ERR} or {@link QpState#RESET}, or INIT to RTR for
     * UD (RTR to RTS for UD also needs {@link #sqPsn(int)}).
     *
     * @param state the new state.
     * @return the attributes.
     */
    public static QpAttr to(final QpState state)
    {
        return new QpAttr().state(state);
    }

    /**
     * Drops the attributes the QP type does not take, so one transition recipe serves RC and UC:
     * ibv_modify_qp rejects RC-only attributes (ACK timeout, retry counts, RDMA READ/atomic depths, RNR timer)
     * on UC with EINVAL.
     *
     * @param type the type of the QP the attributes are for.
     * @return this.
     */
    public QpAttr forType(final QpType type)
    {
        if (type != QpType.RC)
        {
            mask &= ~RC_ONLY;
        }
        return this;
    }

    /** @return the {@link QpAttrMask} bits of the fields set. */
    public int mask()
    {
        return mask;
    }

    /**
     * @param bits {@link QpAttrMask} bits.
     * @return true if every one of them is set.
     */
    public boolean has(final int bits)
    {
        return (mask & bits) == bits;
    }

    /** @return the target state. */
    public QpState state()
    {
        return state;
    }

    /**
     * @param state the target state.
     * @return this.
     */
    public QpAttr state(final QpState state)
    {
        this.state = state;
        mask |= QpAttrMask.STATE;
        return this;
    }

    /** @return allowed remote access ({@link AccessFlags}). */
    public int accessFlags()
    {
        return accessFlags;
    }

    /**
     * @param accessFlags allowed remote access ({@link AccessFlags}).
     * @return this.
     */
    public QpAttr accessFlags(final int accessFlags)
    {
        this.accessFlags = accessFlags;
        mask |= QpAttrMask.ACCESS_FLAGS;
        return this;
    }

    /** @return the P_Key index. */
    public int pkeyIndex()
    {
        return pkeyIndex;
    }

    /**
     * @param pkeyIndex the P_Key index.
     * @return this.
     */
    public QpAttr pkeyIndex(final int pkeyIndex)
    {
        this.pkeyIndex = pkeyIndex;
        mask |= QpAttrMask.PKEY_INDEX;
        return this;
    }

    /** @return the port, from 1. */
    public int portNum()
    {
        return portNum;
    }

    /**
     * @param portNum the port, from 1.
     * @return this.
     */
    public QpAttr portNum(final int portNum)
    {
        this.portNum = portNum;
        mask |= QpAttrMask.PORT;
        return this;
    }

    /** @return the Q_Key (UD). */
    public int qkey()
    {
        return qkey;
    }

    /**
     * @param qkey the Q_Key (UD).
     * @return this.
     */
    public QpAttr qkey(final int qkey)
    {
        this.qkey = qkey;
        mask |= QpAttrMask.QKEY;
        return this;
    }

    /** @return the peer's address (RC, UC). */
    public AhAttr ahAttr()
    {
        return ahAttr;
    }

    /**
     * @param ahAttr the peer's address (RC, UC).
     * @return this.
     */
    public QpAttr ahAttr(final AhAttr ahAttr)
    {
        this.ahAttr = ahAttr;
        mask |= QpAttrMask.AV;
        return this;
    }

    /** @return the path MTU. */
    public Mtu pathMtu()
    {
        return pathMtu;
    }

    /**
     * @param pathMtu the path MTU.
     * @return this.
     */
    public QpAttr pathMtu(final Mtu pathMtu)
    {
        this.pathMtu = pathMtu;
        mask |= QpAttrMask.PATH_MTU;
        return this;
    }

    /** @return the local ACK timeout exponent (4.096 µs · 2^timeout; 0 = infinite). */
    public int timeout()
    {
        return timeout;
    }

    /**
     * @param timeout the local ACK timeout exponent.
     * @return this.
     */
    public QpAttr timeout(final int timeout)
    {
        this.timeout = timeout;
        mask |= QpAttrMask.TIMEOUT;
        return this;
    }

    /** @return transport retries before RETRY_EXC_ERR. */
    public int retryCnt()
    {
        return retryCnt;
    }

    /**
     * @param retryCnt transport retries, 0..7.
     * @return this.
     */
    public QpAttr retryCnt(final int retryCnt)
    {
        this.retryCnt = retryCnt;
        mask |= QpAttrMask.RETRY_CNT;
        return this;
    }

    /** @return receiver-not-ready retries before RNR_RETRY_EXC_ERR (7 = forever). */
    public int rnrRetry()
    {
        return rnrRetry;
    }

    /**
     * @param rnrRetry receiver-not-ready retries, 0..7 (7 = forever).
     * @return this.
     */
    public QpAttr rnrRetry(final int rnrRetry)
    {
        this.rnrRetry = rnrRetry;
        mask |= QpAttrMask.RNR_RETRY;
        return this;
    }

    /** @return the first PSN expected on the receive queue. */
    public int rqPsn()
    {
        return rqPsn;
    }

    /**
     * @param rqPsn the first PSN expected on the receive queue (24 bits).
     * @return this.
     */
    public QpAttr rqPsn(final int rqPsn)
    {
        this.rqPsn = rqPsn & 0xffffff;
        mask |= QpAttrMask.RQ_PSN;
        return this;
    }

    /** @return the first PSN of the send queue. */
    public int sqPsn()
    {
        return sqPsn;
    }

    /**
     * @param sqPsn the first PSN of the send queue (24 bits).
     * @return this.
     */
    public QpAttr sqPsn(final int sqPsn)
    {
        this.sqPsn = sqPsn & 0xffffff;
        mask |= QpAttrMask.SQ_PSN;
        return this;
    }

    /** @return outstanding RDMA READ/atomic operations this QP may start. */
    public int maxRdAtomic()
    {
        return maxRdAtomic;
    }

    /**
     * @param maxRdAtomic outstanding RDMA READ/atomic operations this QP may start.
     * @return this.
     */
    public QpAttr maxRdAtomic(final int maxRdAtomic)
    {
        this.maxRdAtomic = maxRdAtomic;
        mask |= QpAttrMask.MAX_QP_RD_ATOMIC;
        return this;
    }

    /** @return outstanding RDMA READ/atomic operations this QP answers. */
    public int maxDestRdAtomic()
    {
        return maxDestRdAtomic;
    }

    /**
     * @param maxDestRdAtomic outstanding RDMA READ/atomic operations this QP answers.
     * @return this.
     */
    public QpAttr maxDestRdAtomic(final int maxDestRdAtomic)
    {
        this.maxDestRdAtomic = maxDestRdAtomic;
        mask |= QpAttrMask.MAX_DEST_RD_ATOMIC;
        return this;
    }

    /** @return the RNR NAK timer code this QP asks senders to wait (IB spec table, 12 = 0.64 ms). */
    public int minRnrTimer()
    {
        return minRnrTimer;
    }

    /**
     * @param minRnrTimer the RNR NAK timer code, 0..31.
     * @return this.
     */
    public QpAttr minRnrTimer(final int minRnrTimer)
    {
        this.minRnrTimer = minRnrTimer;
        mask |= QpAttrMask.MIN_RNR_TIMER;
        return this;
    }

    /** @return the peer's QP number (RC, UC). */
    public int destQpNum()
    {
        return destQpNum;
    }

    /**
     * @param destQpNum the peer's QP number (RC, UC).
     * @return this.
     */
    public QpAttr destQpNum(final int destQpNum)
    {
        this.destQpNum = destQpNum;
        mask |= QpAttrMask.DEST_QPN;
        return this;
    }
}
