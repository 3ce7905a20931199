package io.ibex.rdma.provider.disni;

import io.ibex.rdma.spi.ProviderChecks;
import io.ibex.rdma.spi.ProviderResource;
import io.ibex.rdma.verbs.AddressHandle;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.Gid;
import io.ibex.rdma.verbs.PostException;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpAttrMask;
import io.ibex.rdma.verbs.QpCapabilities;
import io.ibex.rdma.verbs.QpInitAttr;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.ScatterGatherEntry;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.VerbsException;

import java.util.Objects;

/**
 * A queue pair made by IbexNative: on a PD for out-of-band set-up, or on an rdma_cm id. A post writes the
 * list into the QP's own send (or receive) images and hands it to ibv_post_send (or ibv_post_recv) in one JNI
 * call, allocating nothing; sends and receives have separate images, so one thread may post sends while
 * another posts receives.
 * <p>
 * Before the call, Java refuses what rxe does not check itself, so that the API's contract holds on every
 * device: a post in a state that cannot take it (rxe queues the request in user space before the kernel
 * refuses it), an opcode the QP type does not support (rxe queues it and fails it later), too many SGEs, too
 * much inline data, and a UD request without an open address handle of the QP's PD (rxe would dereference
 * whatever pointer it is given), and a list longer than the queue the QP reports (rxe's rings hold more).
 * A list longer than the images ({@value #MAX_LIST} requests) is posted in parts.
 */
final class DisniQueuePair extends ProviderResource implements QueuePair
{
    /** Requests one JNI call posts at most; longer lists take more calls. */
    private static final int MAX_LIST = 64;
    private static final QpState[] STATES = QpState.values();
    private static final NativePost POST_SEND = IbexNative::postSend;
    private static final NativePost POST_RECV = IbexNative::postRecv;

    /** IbexNative.postSend or postRecv. */
    private interface NativePost
    {
        void post(long qp, long wrAddress);
    }

    private final DisniProtectionDomain pd;
    private final DisniCompletionQueue sendCq;
    private final DisniCompletionQueue recvCq;
    private final QpType type;
    private final QpCapabilities caps;
    private final long cmId;
    private final long handle;
    private final int qpNum;
    private final SendRequestImages sendImages;
    private final ReceiveRequestImages recvImages;
    /** The state as of the last modify or query; null when librdmacm may have moved the QP since. */
    private volatile QpState knownState;
    /** The port set at INIT (or the rdma_cm id's), 0 while unknown. */
    private volatile int port;

    /**
     * @param pd   the protection domain.
     * @param init creation attributes.
     * @param cmId the rdma_cm id's handle, or 0 for a QP set up out of band.
     */
    DisniQueuePair(final DisniProtectionDomain pd, final QpInitAttr init, final long cmId)
    {
        super(pd);
        this.pd = pd;
        this.type = init.type();
        this.cmId = cmId;
        this.sendCq = ProviderChecks.completionQueueOf(pd, init.sendCq(), DisniCompletionQueue.class, "send");
        this.recvCq = ProviderChecks.completionQueueOf(pd, init.recvCq(), DisniCompletionQueue.class, "receive");
        final QpCapabilities asked = init.cap();
        final int[] granted = {asked.maxSendWr(), asked.maxRecvWr(), asked.maxSendSge(), asked.maxRecvSge(),
            asked.maxInlineData()};
        this.handle = IbexNative.createQp(cmId, pd.handle(), sendCq.handle(), recvCq.handle(), type.value(), granted,
            init.sqSigAll());
        this.caps = new QpCapabilities(granted[0], granted[1], granted[2], granted[3], granted[4]);
        this.qpNum = IbexNative.qpNum(handle);
        this.knownState = cmId == 0 ? QpState.RESET : null;
        this.port = cmId == 0 ? 0 : IbexNative.cmPortNum(cmId);
        this.sendImages = new SendRequestImages(listSlots(caps.maxSendWr()), caps.maxSendSge(), type == QpType.UD);
        this.recvImages = new ReceiveRequestImages(listSlots(caps.maxRecvWr()), caps.maxRecvSge());
        sendCq.attach(this);
        recvCq.attach(this);
        pd.disniContext().disniDevice().register(this);
    }

    @Override
    public int qpNum()
    {
        return qpNum;
    }

    @Override
    public QpType type()
    {
        return type;
    }

    @Override
    public QpState state()
    {
        ensureOpen();
        return queryState();
    }

    @Override
    public QpCapabilities capabilities()
    {
        return caps;
    }

    @Override
    public ProtectionDomain pd()
    {
        return pd;
    }

    @Override
    public CompletionQueue sendCq()
    {
        return sendCq;
    }

    @Override
    public CompletionQueue recvCq()
    {
        return recvCq;
    }

    /**
     * ibv_modify_qp with every attribute the mask names. Moving to RTR first checks that the QP's port is
     * ACTIVE, so that a port that is down shows here, named, instead of as a transport timeout later.
     */
    @Override
    public void modify(final QpAttr attr)
    {
        ensureOpen();
        final QpState from = knownState;
        final QpState to = attr.has(QpAttrMask.STATE) ? attr.state() : null;
        final int newPort = attr.has(QpAttrMask.PORT) ? attr.portNum() : port;
        if (to == QpState.RTR && newPort > 0)
        {
            pd.disniContext().requireActivePort(newPort, "cannot move " + this + " to RTR");
        }
        final long[] values = new long[IbexNative.QP_ATTR_LENGTH];
        byte[] dgid = new byte[Gid.LENGTH];
        if (attr.has(QpAttrMask.AV))
        {
            System.arraycopy(DisniAddressHandle.values(attr.ahAttr(), "address vector"), 0, values, IbexNative.QP_AH,
                IbexNative.AH_ATTR_LENGTH);
            dgid = DisniAddressHandle.dgid(attr.ahAttr());
        }
        values[IbexNative.QP_STATE] = attr.state().value();
        values[IbexNative.QP_PATH_MTU] = attr.pathMtu().value();
        values[IbexNative.QP_QKEY] = attr.qkey() & 0xffffffffL;
        values[IbexNative.QP_RQ_PSN] = attr.rqPsn();
        values[IbexNative.QP_SQ_PSN] = attr.sqPsn();
        values[IbexNative.QP_DEST_QP_NUM] = attr.destQpNum();
        values[IbexNative.QP_ACCESS_FLAGS] = attr.accessFlags();
        values[IbexNative.QP_PKEY_INDEX] = attr.pkeyIndex();
        values[IbexNative.QP_PORT_NUM] = attr.portNum();
        values[IbexNative.QP_MAX_RD_ATOMIC] = attr.maxRdAtomic();
        values[IbexNative.QP_MAX_DEST_RD_ATOMIC] = attr.maxDestRdAtomic();
        values[IbexNative.QP_MIN_RNR_TIMER] = attr.minRnrTimer();
        values[IbexNative.QP_TIMEOUT] = attr.timeout();
        values[IbexNative.QP_RETRY_CNT] = attr.retryCnt();
        values[IbexNative.QP_RNR_RETRY] = attr.rnrRetry();
        try
        {
            IbexNative.modifyQp(handle, attr.mask(), values, dgid);
        }
        catch (final VerbsException ex)
        {
            throw new VerbsException(ex.errno(), "cannot modify " + this + (from != null ? " from " + from : "") +
                (to != null ? " to " + to : "") + ": " + DisniErrors.reason(ex), ex);
        }
        if (to != null)
        {
            knownState = to;
        }
        port = newPort;
    }

    @Override
    public QpAttr query()
    {
        ensureOpen();
        final long[] values = new long[IbexNative.QP_AH];
        IbexNative.queryQp(handle, values);
        return new QpAttr().state(knownState((int)values[IbexNative.QP_STATE]))
            .accessFlags((int)values[IbexNative.QP_ACCESS_FLAGS])
            .qkey((int)values[IbexNative.QP_QKEY])
            .destQpNum((int)values[IbexNative.QP_DEST_QP_NUM])
            .minRnrTimer((int)values[IbexNative.QP_MIN_RNR_TIMER])
            .timeout((int)values[IbexNative.QP_TIMEOUT])
            .retryCnt((int)values[IbexNative.QP_RETRY_CNT])
            .rnrRetry((int)values[IbexNative.QP_RNR_RETRY]);
    }

    @Override
    public void postSend(final SendWorkRequest first)
    {
        ensureOpen();
        Objects.requireNonNull(first, "postSend: wr");
        if (!sendAllowed())
        {
            throw new PostException(VerbsException.EINVAL, 0, this + " is in " + knownState + ": post_send needs RTS");
        }
        final int slots = sendImages.slots();
        int posted = 0;
        int slot = 0;
        for (SendWorkRequest wr = first; wr != null; wr = wr.next())
        {
            final int index = posted + slot;
            final String problem = index == caps.maxSendWr() ? null : sendProblem(wr);
            if (index == caps.maxSendWr() || problem != null)
            {
                post(sendImages, POST_SEND, "ibv_post_send", slot, posted);
                throw problem != null ? new PostException(VerbsException.EINVAL, index, problem) :
                    tooLong("send", caps.maxSendWr());
            }
            sendImages.write(slot, wr, type == QpType.UD ? ((DisniAddressHandle)wr.ah()).handle() : 0);
            if (++slot == slots)
            {
                post(sendImages, POST_SEND, "ibv_post_send", slot, posted);
                posted += slot;
                slot = 0;
            }
        }
        post(sendImages, POST_SEND, "ibv_post_send", slot, posted);
    }

    @Override
    public void postRecv(final ReceiveWorkRequest first)
    {
        ensureOpen();
        Objects.requireNonNull(first, "postRecv: wr");
        if (!receiveAllowed())
        {
            throw new PostException(VerbsException.EINVAL, 0, this + " is in RESET: post_recv needs INIT or later");
        }
        final int slots = recvImages.slots();
        int posted = 0;
        int slot = 0;
        for (ReceiveWorkRequest wr = first; wr != null; wr = wr.next())
        {
            final int index = posted + slot;
            if (index == caps.maxRecvWr() || wr.numSge() > caps.maxRecvSge())
            {
                post(recvImages, POST_RECV, "ibv_post_recv", slot, posted);
                throw index == caps.maxRecvWr() ? tooLong("receive", caps.maxRecvWr()) :
                    new PostException(VerbsException.EINVAL, index, "num_sge=" + wr.numSge() + " exceeds " +
                    "max_recv_sge=" + caps.maxRecvSge() + " of " + this);
            }
            recvImages.write(slot, wr);
            if (++slot == slots)
            {
                post(recvImages, POST_RECV, "ibv_post_recv", slot, posted);
                posted += slot;
                slot = 0;
            }
        }
        post(recvImages, POST_RECV, "ibv_post_recv", slot, posted);
    }

    long handle()
    {
        return handle;
    }

    /**
     * librdmacm moves the QP (connect, accept, disconnect): ask the kernel before the next post needs the state.
     */
    void forgetState()
    {
        knownState = null;
    }

    @Override
    protected String describe()
    {
        return "QP 0x" + Integer.toHexString(qpNum) + " (" + type + ") of " + pd.disniContext().disniDevice().name();
    }

    @Override
    protected int closeRank()
    {
        return 0;
    }

    @Override
    protected void release()
    {
        IbexNative.destroyQp(cmId, handle);
        sendCq.detach(this);
        recvCq.detach(this);
        pd.disniContext().disniDevice().unregister(this);
    }

    private QpState queryState()
    {
        return knownState(IbexNative.queryQpState(handle));
    }

    private QpState knownState(final int value)
    {
        if (value < 0 || value >= STATES.length)
        {
            throw new IllegalStateException("ibv_query_qp reported state " + value + " for " + this);
        }
        final QpState state = STATES[value];
        knownState = state;
        return state;
    }

    /**
     * RTS and the states after it (SQD, SQE, ERR, where requests are flushed) take sends. Only modify() moves
     * a QP back below RTS, and it updates the known state, so a QP seen in RTS needs no further query.
     */
    private boolean sendAllowed()
    {
        QpState state = knownState;
        if (state == null || state.value() < QpState.RTS.value())
        {
            state = queryState();
        }
        return state.value() >= QpState.RTS.value();
    }

    private boolean receiveAllowed()
    {
        QpState state = knownState;
        if (state == null || state == QpState.RESET)
        {
            state = queryState();
        }
        return state != QpState.RESET;
    }

    /**
     * @return null when the request may be posted, else why not (a request the kernel or rxe would not refuse
     *         itself, or would refuse only after queueing it).
     */
    private String sendProblem(final SendWorkRequest wr)
    {
        final SendOpcode opcode = wr.opcode();
        if (type == QpType.UD ? opcode != SendOpcode.SEND && opcode != SendOpcode.SEND_WITH_IMM :
            type == QpType.UC && (opcode == SendOpcode.RDMA_READ || opcode.isAtomic()))
        {
            return "opcode " + opcode + " is not valid on a " + type + " QP (" + this + ")";
        }
        if (wr.numSge() > caps.maxSendSge())
        {
            return "num_sge=" + wr.numSge() + " exceeds max_send_sge=" + caps.maxSendSge() + " of " + this;
        }
        if ((wr.sendFlags() & SendFlags.INLINE) != 0 && wr.totalLength() > caps.maxInlineData())
        {
            return "inline data of " + wr.totalLength() + " bytes exceeds max_inline_data=" + caps.maxInlineData() +
                " of " + this;
        }
        if ((wr.sendFlags() & SendFlags.INLINE) != 0)
        {
            // the verbs library copies inline data from the entry's address: a wrong one would crash the JVM
            for (int i = 0, n = wr.numSge(); i < n; i++)
            {
                final ScatterGatherEntry sge = wr.sge(i);
                final String problem = ProviderChecks.inlineProblem(sge, pd.region(sge.lkey()));
                if (problem != null)
                {
                    return problem + " (" + this + ")";
                }
            }
        }
        if (type == QpType.UD)
        {
            final AddressHandle ah = wr.ah();
            if (!(ah instanceof DisniAddressHandle) || ah.isClosed() || ((DisniAddressHandle)ah).disniPd() != pd)
            {
                return "UD send on " + this + " needs an open address handle of " + pd + ", got " + ah;
            }
        }
        return null;
    }

    /**
     * Posts the first {@code count} images of a list of which {@code posted} requests were posted before.
     */
    private void post(final WorkRequestImages images, final NativePost call, final String verb, final int count,
        final int posted)
    {
        if (count == 0)
        {
            return;
        }
        images.end(count - 1);
        try
        {
            call.post(handle, images.address(0));
        }
        catch (final PostException ex)
        {
            throw posted == 0 ? ex : new PostException(ex.errno(), posted + ex.badIndex(), verb + " on " + this +
                " (requests from #" + posted + "): " + DisniErrors.reason(ex));
        }
    }

    /**
     * rxe rounds its rings up (to a power of two, minus one) and takes more than the QP was granted, so a list
     * longer than the queue is cut here, where the queue the QP reports ends.
     */
    private PostException tooLong(final String queue, final int depth)
    {
        return new PostException(VerbsException.ENOMEM, depth, "the list is longer than the " + queue + " queue of " +
            this + " (" + depth + " requests)");
    }

    private static int listSlots(final int queueDepth)
    {
        return Math.max(1, Math.min(queueDepth, MAX_LIST));
    }

}
