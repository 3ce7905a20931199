package io.ibex.rdma.provider.soft;

import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.Gid;
import io.ibex.rdma.verbs.Mtu;
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
import io.ibex.rdma.verbs.WcFlags;
import io.ibex.rdma.verbs.WcOpcode;
import io.ibex.rdma.verbs.WcStatus;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.locks.ReentrantLock;

import static io.ibex.rdma.provider.soft.SoftFrameDescriptor.*;
import static org.agrona.UnsafeAccess.UNSAFE;

/**
 * A soft queue pair: the requester and responder of one QP. RC and UC run over the QP's {@link SoftLink}
 * (one TCP connection per connected QP); UD over the device's UDP socket.
 * <p>
 * Work requests are copied at post time into preallocated slots. The posting thread transmits at once; the
 * thread polling a CQ drives the QPs completing into it (receive, execute, acknowledge); the progress thread
 * drives a QP nobody else drove for a millisecond. One lock guards the QP: posters take it, drivers only try.
 * <p>
 * Reliability: TCP does not lose frames, so RC needs no retransmission except after an RNR NAK (go back to
 * the NAKed message once the RNR timer expires). One PSN per message. ACKs are cumulative, ride on every
 * frame, and are sent on their own only when owed for {@link #ACK_DELAY_NANOS}.
 */
final class SoftQueuePair extends SoftResource implements QueuePair
{
    /** How long an ACK may wait for a frame to carry it before it is sent alone. */
    static final long ACK_DELAY_NANOS = 5_000;
    /** How long a peer QP of the same device must go undriven before a poller of this QP drives it too. */
    static final long NEIGHBOUR_IDLE_NANOS = 20_000;

    private static final Logger LOG = LoggerFactory.getLogger(SoftQueuePair.class);
    private static final int PSN_MASK = 0xffffff;
    private static final int ACQUIRE_SPINS = 100;
    private static final int ACQUIRE_YIELDS = 100;
    private static final int RNR_RETRY_INFINITE = 7;
    private static final long TRANSPORT_TIMER_UNIT_NANOS = 4096;
    /** Floor of the transport timer: a peer nobody polls answers within the progress thread's ~1 ms. */
    private static final long MIN_TRANSPORT_TIMER_NANOS = 10_000_000L;
    private static final SendOpcode[] SEND_OPCODES = SendOpcode.values();
    /** Frame opcode of each {@link SendOpcode}, by ordinal. */
    private static final byte[] FRAME_OPCODES = {OP_WRITE, OP_WRITE_IMM, OP_SEND, OP_SEND_IMM, OP_READ, OP_CMP_SWAP,
        OP_FETCH_ADD};
    /** The IB minimum RNR NAK timer table, in nanoseconds, by encoded value (0 means 655.36 ms). */
    private static final long[] RNR_TIMER_NANOS = {
        655_360_000L, 10_000L, 20_000L, 30_000L, 40_000L, 60_000L, 80_000L, 120_000L, 160_000L, 240_000L,
        320_000L, 480_000L, 640_000L, 960_000L, 1_280_000L, 1_920_000L, 2_560_000L, 3_840_000L, 5_120_000L,
        7_680_000L, 10_240_000L, 15_360_000L, 20_480_000L, 30_720_000L, 40_960_000L, 61_440_000L, 81_920_000L,
        122_880_000L, 163_840_000L, 245_760_000L, 327_680_000L, 491_520_000L};

    private final SoftProtectionDomain pd;
    private final SoftDevice device;
    private final SoftCompletionQueue sendCq;
    private final SoftCompletionQueue recvCq;
    private final QpType type;
    private final QpCapabilities caps;
    private final boolean sqSigAll;
    private final int qpn;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile QpState state = QpState.RESET;
    private volatile long lastAppDrive;
    private SoftLink watchedLink; // progress thread only
    private SelectionKey progressKey; // progress thread only

    private int accessFlags;
    private int qkey;
    private int timeout;
    private int retryCnt;
    private int rnrRetry;
    private int minRnrTimer;
    private int maxRdAtomic = 1;
    private int destQpn;
    private long remoteKey;
    private InetSocketAddress remoteAddress;
    private SoftLink link;
    private SoftLink pendingLink;
    private volatile SoftQueuePair localPeer;
    private long pendingSrcKey;
    private int pendingSrcQpn;

    // send queue: [sqHead, sqTransmit) sent and awaiting completion, [sqTransmit, sqTail) not yet sent
    private final int sqCapacity;
    private final long[] sWrIds;
    private final SendOpcode[] sOpcodes;
    private final int[] sFlags;
    private final int[] sImm;
    private final long[] sRemoteAddrs;
    private final int[] sRkeys;
    private final long[] sCompareAdds;
    private final long[] sSwaps;
    private final int[] sPsns;
    private final long[] sLengths;
    private final boolean[] sInline;
    private final boolean[] sResponded;
    private final SoftAddressHandle[] sAhs;
    private final int[] sRemoteQpns;
    private final int[] sRemoteQkeys;
    private final SoftSgeTable sSges;
    private final ByteBuffer inlineData;
    private final long inlineAddress;
    private long sqHead;
    private long sqTransmit;
    private long sqTail;
    private long txOffset;
    private int nextPsn;
    private int outstandingReads;
    private int rnrRetriesLeft;
    private long rnrDeadline;
    private long lastAckProgress;

    // receive queue
    private final int rqCapacity;
    private final long[] rWrIds;
    private final SoftSgeTable rSges;
    private long rqHead;
    private long rqTail;

    // responder
    private int expectedPsn;
    private boolean ackOwed;
    private long ackOwedSince;
    private boolean rxActive;
    private boolean rxIsWrite;
    private int rxPsn;
    private long rxOffset;
    private long rxRemoteAddr;
    private boolean readActive;
    private int readPsn;
    private long readAddr;
    private long readLength;
    private long readOffset;

    // UD
    private final ByteBuffer udTx;
    private final long udTxAddress;
    private final ByteBuffer grh;
    private final long grhAddress;
    private final UnsafeBuffer atomicView = new UnsafeBuffer(0, 0);

    SoftQueuePair(final SoftProtectionDomain pd, final QpInitAttr init)
    {
        this.pd = pd;
        this.device = pd.softContext().softDevice();
        this.type = init.type();
        this.sendCq = ownCq(pd, init.sendCq(), "send");
        this.recvCq = ownCq(pd, init.recvCq(), "receive");
        final QpCapabilities cap = init.cap();
        checkCap("max_send_wr", cap.maxSendWr(), SoftDevice.MAX_QP_WR);
        checkCap("max_recv_wr", cap.maxRecvWr(), SoftDevice.MAX_QP_WR);
        checkCap("max_send_sge", cap.maxSendSge(), SoftDevice.MAX_SGE);
        checkCap("max_recv_sge", cap.maxRecvSge(), SoftDevice.MAX_SGE);
        checkCap("max_inline_data", cap.maxInlineData(), SoftDevice.MAX_INLINE_DATA);
        this.caps = cap;
        this.sqSigAll = init.sqSigAll();
        sqCapacity = Math.max(1, cap.maxSendWr());
        sWrIds = new long[sqCapacity];
        sOpcodes = new SendOpcode[sqCapacity];
        sFlags = new int[sqCapacity];
        sImm = new int[sqCapacity];
        sRemoteAddrs = new long[sqCapacity];
        sRkeys = new int[sqCapacity];
        sCompareAdds = new long[sqCapacity];
        sSwaps = new long[sqCapacity];
        sPsns = new int[sqCapacity];
        sLengths = new long[sqCapacity];
        sInline = new boolean[sqCapacity];
        sResponded = new boolean[sqCapacity];
        sAhs = new SoftAddressHandle[sqCapacity];
        sRemoteQpns = new int[sqCapacity];
        sRemoteQkeys = new int[sqCapacity];
        sSges = new SoftSgeTable(sqCapacity, cap.maxSendSge());
        inlineData = ByteBuffer.allocateDirect(Math.max(1, sqCapacity * cap.maxInlineData()));
        inlineAddress = BufferUtil.address(inlineData);
        rqCapacity = Math.max(1, cap.maxRecvWr());
        rWrIds = new long[rqCapacity];
        rSges = new SoftSgeTable(rqCapacity, cap.maxRecvSge());
        if (type == QpType.UD)
        {
            udTx = ByteBuffer.allocateDirect(UD_HEADER_LENGTH + Mtu.MTU_4096.bytes()).order(ByteOrder.LITTLE_ENDIAN);
            udTxAddress = BufferUtil.address(udTx);
            grh = ByteBuffer.allocateDirect(GRH_LENGTH).order(ByteOrder.BIG_ENDIAN);
            grhAddress = BufferUtil.address(grh);
        }
        else
        {
            udTx = null;
            udTxAddress = 0;
            grh = null;
            grhAddress = 0;
        }
        qpn = device.register(this);
        sendCq.attach(this);
        if (recvCq != sendCq)
        {
            recvCq.attach(this);
        }
    }

    @Override
    public int qpNum()
    {
        return qpn;
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
        return state;
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

    @Override
    public String toString()
    {
        return describe();
    }

    @Override
    public void modify(final QpAttr attr)
    {
        ensureOpen();
        lock.lock();
        try
        {
            final QpState from = state;
            final QpState to = attr.has(QpAttrMask.STATE) ? attr.state() : from;
            SoftQpTransitions.check(describe(), type, from, to, attr.mask());
            if (attr.has(QpAttrMask.PORT) && attr.portNum() != 1)
            {
                throw new VerbsException(VerbsException.EINVAL, "modify " + describe() + " " + from + " -> " + to +
                    ": port " + attr.portNum() + " does not exist (" + SoftDevice.NAME + " has port 1)");
            }
            if (type != QpType.UD && attr.has(QpAttrMask.AV))
            {
                final Gid dgid = attr.ahAttr() == null ? null : attr.ahAttr().dgid();
                if (dgid == null || !attr.ahAttr().isGlobal() || !SoftGidDescriptor.isSoftEndpoint(dgid))
                {
                    throw new VerbsException(VerbsException.EINVAL, "modify " + describe() + " " + from + " -> " +
                        to + ": AV " + attr.ahAttr() + " needs a global route to a soft endpoint GID");
                }
                remoteAddress = SoftGidDescriptor.toSocketAddress(dgid);
                remoteKey = SoftGidDescriptor.endpointKey(SoftGidDescriptor.ipv4(dgid), SoftGidDescriptor.port(dgid));
            }
            applyAttributes(attr);
            switch (to)
            {
                case RESET:
                    reset();
                    break;
                case ERR:
                    enterError();
                    break;
                case RTR:
                    state = QpState.RTR;
                    if (from == QpState.INIT && type != QpType.UD)
                    {
                        connect();
                    }
                    break;
                case RTS:
                    if (from == QpState.RTR)
                    {
                        rnrRetriesLeft = rnrRetry;
                        lastAckProgress = System.nanoTime();
                    }
                    state = QpState.RTS;
                    break;
                default:
                    state = to;
                    break;
            }
        }
        finally
        {
            lock.unlock();
        }
    }

    @Override
    public void postSend(final SendWorkRequest first)
    {
        ensureOpen();
        acquire();
        try
        {
            int index = 0;
            for (SendWorkRequest wr = first; wr != null; wr = wr.next())
            {
                checkSend(wr, index);
                enqueueSend(wr);
                index++;
            }
        }
        finally
        {
            afterPost(true);
            lock.unlock();
        }
    }

    @Override
    public void postRecv(final ReceiveWorkRequest first)
    {
        ensureOpen();
        acquire();
        try
        {
            int index = 0;
            for (ReceiveWorkRequest wr = first; wr != null; wr = wr.next())
            {
                final QpState current = state;
                if (current == QpState.RESET)
                {
                    throw new PostException(VerbsException.EINVAL, index, describe() + " is in RESET: post_recv " +
                        "needs INIT or later");
                }
                if (wr.numSge() > caps.maxRecvSge())
                {
                    throw new PostException(VerbsException.EINVAL, index, "num_sge=" + wr.numSge() +
                        " exceeds max_recv_sge=" + caps.maxRecvSge() + " of " + describe());
                }
                if (rqTail - rqHead >= rqCapacity)
                {
                    throw new PostException(VerbsException.ENOMEM, index, "receive queue of " + describe() +
                        " is full (max_recv_wr=" + caps.maxRecvWr() + ")");
                }
                final int slot = (int)(rqTail % rqCapacity);
                rWrIds[slot] = wr.wrId();
                rSges.set(slot, wr);
                rqTail++;
                index++;
            }
        }
        finally
        {
            afterPost(false);
            lock.unlock();
        }
    }

    /**
     * Moves the QP's traffic: finishes connecting, reads and executes frames, transmits what is queued,
     * sends an owed ACK, runs the RNR and transport timers. Never blocks: gives up if another thread holds
     * the QP.
     *
     * @param byApp whether an application thread (polling) drives, rather than the progress thread.
     * @return the amount of work done.
     */
    int drive(final boolean byApp)
    {
        final long now = System.nanoTime();
        if (byApp)
        {
            lastAppDrive = now;
        }
        if (type == QpType.UD || !lock.tryLock())
        {
            return 0;
        }
        int work;
        try
        {
            work = driveLocked(now);
        }
        finally
        {
            lock.unlock();
        }
        // a peer QP in this JVM that nobody polls (one thread driving both ends) still answers promptly
        final SoftQueuePair peer = localPeer;
        if (byApp && peer != null && peer.idleSince(now, NEIGHBOUR_IDLE_NANOS))
        {
            work += peer.drive(false);
        }
        return work;
    }

    /**
     * The progress thread's turn: drives the QP if no application thread has for {@code idleNanos}, and has
     * the selector watch its link exactly then.
     *
     * @return the amount of work done.
     */
    int driveIfIdle(final long now, final long idleNanos, final Selector selector)
    {
        if (!idleSince(now, idleNanos))
        {
            watchInterest(0); // an application drives it: never wake the progress thread for its packets
            return 0;
        }
        if (type == QpType.UD || !lock.tryLock())
        {
            return 0;
        }
        try
        {
            final QpState current = state;
            if (watchedLink != link)
            {
                watchedLink = link;
                progressKey = link == null ? null : link.selectionKey(selector);
            }
            watchInterest(current == QpState.RTR || current == QpState.RTS ? SelectionKey.OP_READ : 0);
            return driveLocked(now);
        }
        catch (final IOException ex)
        {
            linkFailed(ex.toString());
            return 1;
        }
        finally
        {
            lock.unlock();
        }
    }

    private void watchInterest(final int interest)
    {
        final SelectionKey key = progressKey;
        try
        {
            if (key != null && key.isValid() && key.interestOps() != interest)
            {
                key.interestOps(interest);
            }
        }
        catch (final CancelledKeyException ex)
        {
            // the application closed the link between the check and the update: nothing left to watch
        }
    }

    private int driveLocked(final long now)
    {
        final QpState current = state;
        if (current != QpState.RTR && current != QpState.RTS)
        {
            return 0;
        }
        if (sendCq.overflowed() || recvCq.overflowed())
        {
            enterError();
            return 1;
        }
        return progress(now);
    }

    boolean idleSince(final long now, final long idleNanos)
    {
        return now - lastAppDrive > idleNanos;
    }

    void handOverToProgress()
    {
        lastAppDrive = 0;
    }

    /**
     * Attaches a link a peer opened to this QP (its HELLO named this QP), or keeps it until RTR.
     */
    void offerIncomingLink(final SoftLink incoming, final long srcKey, final int srcQpn)
    {
        lock.lock();
        try
        {
            final QpState current = state;
            if (isClosed() || current == QpState.ERR)
            {
                LOG.warn("{}: incoming link from {} (QP 0x{}) refused: QP is {}", describe(), incoming.peer(),
                    Integer.toHexString(srcQpn), isClosed() ? "closed" : current);
                incoming.close();
            }
            else if (current == QpState.RESET || current == QpState.INIT)
            {
                if (pendingLink != null)
                {
                    pendingLink.close();
                }
                pendingLink = incoming;
                pendingSrcKey = srcKey;
                pendingSrcQpn = srcQpn;
            }
            else
            {
                pendingLink = incoming;
                pendingSrcKey = srcKey;
                pendingSrcQpn = srcQpn;
                adoptPendingLink();
            }
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Receives one UD datagram addressed to this QP (the device holds its UDP lock).
     */
    void deliverDatagram(final ByteBuffer datagram)
    {
        acquire();
        try
        {
            final QpState current = state;
            if ((current != QpState.RTR && current != QpState.RTS) || type != QpType.UD ||
                datagram.getInt(UD_QKEY_OFFSET) != qkey || rqHead == rqTail)
            {
                return; // UD drops silently: wrong state, Q_Key mismatch or no receive posted
            }
            final int slot = (int)(rqHead % rqCapacity);
            final int payload = datagram.getInt(UD_PAYLOAD_LENGTH_OFFSET);
            final int total = GRH_LENGTH + payload;
            WcStatus status = rSges.check(slot, device, pd, true);
            if (status == WcStatus.SUCCESS && total > rSges.total(slot))
            {
                status = WcStatus.LOC_LEN_ERR;
            }
            if (status != WcStatus.SUCCESS)
            {
                completeRecv(slot, status, WcOpcode.RECV, 0, 0, 0, 0, false);
                enterError();
                return;
            }
            grh.putInt(GRH_VERSION_OFFSET, GRH_VERSION_6);
            grh.putShort(GRH_PAYLOAD_LENGTH_OFFSET, (short)payload);
            grh.put(GRH_NEXT_HEADER_OFFSET, (byte)GRH_NEXT_HEADER_IBA);
            grh.put(GRH_HOP_LIMIT_OFFSET, (byte)1);
            final long datagramAddress = BufferUtil.address(datagram);
            UNSAFE.copyMemory(datagramAddress + UD_SRC_GID_OFFSET, grhAddress + GRH_SGID_OFFSET, Gid.LENGTH);
            UNSAFE.copyMemory(datagramAddress + UD_DST_GID_OFFSET, grhAddress + GRH_DGID_OFFSET, Gid.LENGTH);
            rSges.scatter(slot, 0, grhAddress, GRH_LENGTH);
            rSges.scatter(slot, GRH_LENGTH, datagramAddress + UD_HEADER_LENGTH, payload);
            final boolean withImm = datagram.get(UD_OPCODE_OFFSET) == OP_SEND_IMM;
            completeRecv(slot, WcStatus.SUCCESS, WcOpcode.RECV, total, withImm ? datagram.getInt(UD_IMM_OFFSET) : 0,
                datagram.getInt(UD_SRC_QPN_OFFSET), WcFlags.GRH | (withImm ? WcFlags.WITH_IMM : 0),
                (datagram.get(UD_FLAGS_OFFSET) & FLAG_SOLICITED) != 0);
        }
        finally
        {
            lock.unlock();
        }
    }

    @Override
    String describe()
    {
        return "QP 0x" + Integer.toHexString(qpn) + " (" + type + ")";
    }

    @Override
    int closeRank()
    {
        return 0;
    }

    @Override
    void release()
    {
        lock.lock();
        try
        {
            closeLinks();
            state = QpState.RESET;
        }
        finally
        {
            lock.unlock();
        }
        device.unregister(this);
        sendCq.detach(this);
        if (recvCq != sendCq)
        {
            recvCq.detach(this);
        }
        pd.removeChild(this);
    }

    private SoftCompletionQueue ownCq(final SoftProtectionDomain pd, final CompletionQueue cq, final String role)
    {
        if (!(cq instanceof SoftCompletionQueue) || cq.context() != pd.context())
        {
            throw new VerbsException(VerbsException.EINVAL, "cannot create a " + type + " QP in " + pd.describe() +
                ": its " + role + " CQ " + cq + " belongs to " + cq.context() + ", not to " + pd.context());
        }
        if (cq.isClosed())
        {
            throw new IllegalStateException("cannot create a QP: its " + role + " CQ " + cq + " is closed");
        }
        return (SoftCompletionQueue)cq;
    }

    private static void checkCap(final String name, final int value, final int max)
    {
        if (value > max)
        {
            throw new VerbsException(VerbsException.EINVAL, "QP capability " + name + "=" + value + " exceeds the " +
                SoftDevice.NAME + " maximum of " + max);
        }
    }

    private void applyAttributes(final QpAttr attr)
    {
        if (attr.has(QpAttrMask.ACCESS_FLAGS))
        {
            accessFlags = attr.accessFlags();
        }
        if (attr.has(QpAttrMask.QKEY))
        {
            qkey = attr.qkey();
        }
        if (attr.has(QpAttrMask.TIMEOUT))
        {
            timeout = attr.timeout();
        }
        if (attr.has(QpAttrMask.RETRY_CNT))
        {
            retryCnt = attr.retryCnt();
        }
        if (attr.has(QpAttrMask.RNR_RETRY))
        {
            rnrRetry = attr.rnrRetry();
        }
        if (attr.has(QpAttrMask.MIN_RNR_TIMER))
        {
            minRnrTimer = attr.minRnrTimer() & 0x1f;
        }
        if (attr.has(QpAttrMask.MAX_QP_RD_ATOMIC))
        {
            maxRdAtomic = Math.max(1, attr.maxRdAtomic());
        }
        if (attr.has(QpAttrMask.DEST_QPN))
        {
            destQpn = attr.destQpNum();
        }
        if (attr.has(QpAttrMask.RQ_PSN))
        {
            expectedPsn = attr.rqPsn();
        }
        if (attr.has(QpAttrMask.SQ_PSN))
        {
            nextPsn = attr.sqPsn();
        }
    }

    /**
     * At RTR: the side whose (endpoint, QPN) is lower opens the link; the other waits for it.
     */
    private void connect()
    {
        final long myKey = device.endpointKey();
        localPeer = myKey == remoteKey ? device.queuePair(destQpn) : null;
        final boolean connector = myKey < remoteKey || (myKey == remoteKey && qpn < destQpn);
        if (!connector)
        {
            adoptPendingLink();
            return;
        }
        try
        {
            link = SoftLink.connect(remoteAddress, device.ipv4(), device.port(), qpn, destQpn);
        }
        catch (final IOException ex)
        {
            LOG.warn("{}: cannot connect to {} for QP 0x{}: {}; QP to ERR", describe(), remoteAddress,
                Integer.toHexString(destQpn), ex.toString());
            enterError();
        }
    }

    private void adoptPendingLink()
    {
        final SoftLink incoming = pendingLink;
        if (incoming == null)
        {
            return;
        }
        pendingLink = null;
        if (link == null && pendingSrcKey == remoteKey && pendingSrcQpn == destQpn)
        {
            link = incoming;
        }
        else
        {
            LOG.warn("{}: incoming link from {} (QP 0x{}) does not match its remote QP 0x{} at {}; closed",
                describe(), incoming.peer(), Integer.toHexString(pendingSrcQpn), Integer.toHexString(destQpn),
                remoteAddress);
            incoming.close();
        }
    }

    private void checkSend(final SendWorkRequest wr, final int index)
    {
        final QpState current = state;
        if (current != QpState.RTS && current != QpState.ERR)
        {
            throw new PostException(VerbsException.EINVAL, index, describe() + " is in " + current +
                ": post_send needs RTS");
        }
        final SendOpcode opcode = wr.opcode();
        if ((type == QpType.UD && opcode != SendOpcode.SEND && opcode != SendOpcode.SEND_WITH_IMM) ||
            (type == QpType.UC && (opcode == SendOpcode.RDMA_READ || opcode.isAtomic())))
        {
            throw new PostException(VerbsException.EINVAL, index, "opcode " + opcode + " is not valid on a " + type +
                " QP (" + describe() + ")");
        }
        if (wr.numSge() > caps.maxSendSge())
        {
            throw new PostException(VerbsException.EINVAL, index, "num_sge=" + wr.numSge() + " exceeds max_send_sge=" +
                caps.maxSendSge() + " of " + describe());
        }
        if ((wr.sendFlags() & SendFlags.INLINE) != 0 && wr.totalLength() > caps.maxInlineData())
        {
            throw new PostException(VerbsException.EINVAL, index, "inline data of " + wr.totalLength() +
                " bytes exceeds max_inline_data=" + caps.maxInlineData() + " of " + describe());
        }
        if (wr.totalLength() > SoftDevice.MAX_MSG_SIZE)
        {
            throw new PostException(VerbsException.EINVAL, index, "message of " + wr.totalLength() +
                " bytes exceeds max_msg_sz=" + SoftDevice.MAX_MSG_SIZE);
        }
        if (type == QpType.UD && !(wr.ah() instanceof SoftAddressHandle))
        {
            throw new PostException(VerbsException.EINVAL, index, "UD send on " + describe() +
                " needs an address handle of this provider, got " + wr.ah());
        }
        if (sqTail - sqHead >= sqCapacity)
        {
            throw new PostException(VerbsException.ENOMEM, index, "send queue of " + describe() +
                " is full (max_send_wr=" + caps.maxSendWr() + ")");
        }
    }

    private void enqueueSend(final SendWorkRequest wr)
    {
        final int slot = (int)(sqTail % sqCapacity);
        sWrIds[slot] = wr.wrId();
        sOpcodes[slot] = wr.opcode();
        sFlags[slot] = wr.sendFlags();
        sImm[slot] = wr.immData();
        sRemoteAddrs[slot] = wr.remoteAddr();
        sRkeys[slot] = wr.rkey();
        sCompareAdds[slot] = wr.compareAdd();
        sSwaps[slot] = wr.swap();
        sResponded[slot] = false;
        sLengths[slot] = wr.opcode().isAtomic() ? Long.BYTES : wr.totalLength();
        final boolean inline = (wr.sendFlags() & SendFlags.INLINE) != 0 && !wr.opcode().isAtomic() &&
            wr.opcode() != SendOpcode.RDMA_READ;
        sInline[slot] = inline;
        if (inline)
        {
            long offset = inlineAddress + (long)slot * caps.maxInlineData();
            for (int i = 0, n = wr.numSge(); i < n; i++)
            {
                final ScatterGatherEntry sge = wr.sge(i);
                UNSAFE.copyMemory(sge.addr(), offset, sge.length());
                offset += sge.length();
            }
            sSges.clear(slot);
        }
        else
        {
            sSges.set(slot, wr);
        }
        if (type == QpType.UD)
        {
            sAhs[slot] = (SoftAddressHandle)wr.ah();
            sRemoteQpns[slot] = wr.remoteQpn();
            sRemoteQkeys[slot] = wr.remoteQkey();
        }
        sqTail++;
    }

    private void afterPost(final boolean send)
    {
        final QpState current = state;
        if (current == QpState.ERR)
        {
            flush();
        }
        else if (send && current == QpState.RTS)
        {
            final long now = System.nanoTime();
            if (type == QpType.UD)
            {
                transmitDatagrams();
            }
            else
            {
                transmitNow(now);
            }
        }
    }

    /**
     * The posting thread sends what it posted (and anything else queued) without reading the link.
     */
    private void transmitNow(final long now)
    {
        try
        {
            if (link != null && link.established())
            {
                transmit(now);
                link.flush();
            }
        }
        catch (final IOException ex)
        {
            linkFailed(ex.toString());
        }
    }

    private int progress(final long now)
    {
        try
        {
            if (link == null)
            {
                adoptPendingLink();
                if (link == null)
                {
                    return 0;
                }
            }
            if (!link.established())
            {
                return 0;
            }
            int work = receive(now);
            if (link == null)
            {
                return work + 1;
            }
            if (state == QpState.RTS)
            {
                work += transmit(now);
                checkTransportTimer(now);
            }
            if (link != null)
            {
                if (ackOwed && now - ackOwedSince >= ACK_DELAY_NANOS && link.ensureTxRoom(HEADER_LENGTH))
                {
                    writeAck(SYNDROME_ACK, (expectedPsn - 1) & PSN_MASK, 0);
                    work++;
                }
                link.flush();
            }
            return work;
        }
        catch (final IOException ex)
        {
            linkFailed(ex.toString());
            return 1;
        }
    }

    // ---------------------------------------------------------------- requester

    private int transmit(final long now) throws IOException
    {
        if (rnrDeadline != 0)
        {
            if (now - rnrDeadline < 0)
            {
                return 0;
            }
            rnrDeadline = 0;
        }
        int work = 0;
        while (sqTransmit < sqTail && state == QpState.RTS)
        {
            final int slot = (int)(sqTransmit % sqCapacity);
            final SendOpcode opcode = sOpcodes[slot];
            final boolean readOrAtomic = opcode == SendOpcode.RDMA_READ || opcode.isAtomic();
            if (txOffset == 0)
            {
                if ((readOrAtomic && outstandingReads >= maxRdAtomic) ||
                    ((sFlags[slot] & SendFlags.FENCE) != 0 && outstandingReads > 0))
                {
                    break;
                }
                if (!sInline[slot])
                {
                    final WcStatus status = sSges.check(slot, device, pd, readOrAtomic);
                    if (status != WcStatus.SUCCESS)
                    {
                        failSend(sqTransmit, status);
                        return work + 1;
                    }
                }
                sPsns[slot] = nextPsn;
            }
            if (!writeRequest(slot, opcode))
            {
                break;
            }
            work++;
            if (sqTransmit == sqHead)
            {
                lastAckProgress = now;
            }
            sqTransmit++;
            txOffset = 0;
            nextPsn = (nextPsn + 1) & PSN_MASK;
            if (readOrAtomic)
            {
                outstandingReads++;
            }
            if (type == QpType.UC)
            {
                completeSend(WcStatus.SUCCESS); // UC has no ACKs: a send completes once transmitted
            }
        }
        return work;
    }

    /**
     * Writes the frames of one request into the link's transmit buffer, resuming at {@link #txOffset}.
     *
     * @return false if the buffer filled up first.
     */
    private boolean writeRequest(final int slot, final SendOpcode opcode) throws IOException
    {
        final long length = sLengths[slot];
        final long payload = opcode == SendOpcode.RDMA_READ || opcode.isAtomic() ? 0 : length;
        final byte frameOpcode = FRAME_OPCODES[opcode.ordinal()];
        do
        {
            final int segment = (int)Math.min(payload - txOffset, MAX_SEGMENT_LENGTH);
            if (!link.ensureTxRoom(HEADER_LENGTH + segment))
            {
                return false;
            }
            final ByteBuffer tx = link.tx();
            final int at = tx.position();
            final boolean last = txOffset + segment == payload;
            putHeader(tx, at, frameOpcode, last && (sFlags[slot] & SendFlags.SOLICITED) != 0 ? FLAG_SOLICITED : 0,
                sPsns[slot], segment, txOffset, length);
            tx.putInt(at + IMM_OFFSET, sImm[slot]);
            tx.putInt(at + RKEY_OFFSET, sRkeys[slot]);
            tx.putLong(at + REMOTE_ADDR_OFFSET, sRemoteAddrs[slot]);
            tx.putLong(at + COMPARE_ADD_OFFSET, sCompareAdds[slot]);
            tx.putLong(at + SWAP_OFFSET, sSwaps[slot]);
            gather(slot, txOffset, link.txAddress() + at + HEADER_LENGTH, segment);
            tx.position(at + HEADER_LENGTH + segment);
            txOffset += segment;
        }
        while (txOffset < payload);
        return true;
    }

    private void gather(final int slot, final long offset, final long dstAddress, final int length)
    {
        if (sInline[slot])
        {
            UNSAFE.copyMemory(inlineAddress + (long)slot * caps.maxInlineData() + offset, dstAddress, length);
        }
        else
        {
            sSges.gather(slot, offset, dstAddress, length);
        }
    }

    private void putHeader(
        final ByteBuffer tx,
        final int at,
        final byte opcode,
        final int flags,
        final int psn,
        final int segment,
        final long offset,
        final long length)
    {
        tx.put(at + OPCODE_OFFSET, opcode);
        tx.put(at + FLAGS_OFFSET, (byte)flags);
        tx.put(at + SYNDROME_OFFSET, SYNDROME_ACK);
        tx.put(at + RNR_TIMER_OFFSET, (byte)0);
        tx.putInt(at + PSN_OFFSET, psn);
        tx.putInt(at + ACK_PSN_OFFSET, (expectedPsn - 1) & PSN_MASK);
        tx.putInt(at + SEGMENT_LENGTH_OFFSET, segment);
        tx.putInt(at + SEGMENT_OFFSET_OFFSET, (int)offset);
        tx.putInt(at + MESSAGE_LENGTH_OFFSET, (int)length);
        ackOwed = false; // every frame carries the cumulative ACK
    }

    private void transmitDatagrams()
    {
        while (sqTransmit < sqTail)
        {
            final int slot = (int)(sqTransmit % sqCapacity);
            if (!sInline[slot])
            {
                final WcStatus status = sSges.check(slot, device, pd, false);
                if (status != WcStatus.SUCCESS)
                {
                    failSend(sqTransmit, status);
                    return;
                }
            }
            final long length = sLengths[slot];
            // like rxe (IB C10-93.1.1): a UD message above the path MTU is not sent, yet completes successfully
            if (length <= device.activeMtu().bytes())
            {
                sendDatagram(slot, (int)length);
            }
            sqTransmit++;
            completeSend(WcStatus.SUCCESS);
        }
    }

    private void sendDatagram(final int slot, final int length)
    {
        final ByteBuffer tx = udTx;
        final SoftAddressHandle ah = sAhs[slot];
        final int remoteQkey = sRemoteQkeys[slot];
        tx.clear();
        tx.put(UD_OPCODE_OFFSET, FRAME_OPCODES[sOpcodes[slot].ordinal()]);
        tx.put(UD_FLAGS_OFFSET, (sFlags[slot] & SendFlags.SOLICITED) != 0 ? FLAG_SOLICITED : 0);
        tx.putInt(UD_SRC_QPN_OFFSET, qpn);
        tx.putInt(UD_DST_QPN_OFFSET, sRemoteQpns[slot]);
        tx.putInt(UD_QKEY_OFFSET, remoteQkey < 0 ? qkey : remoteQkey); // high bit set: use the QP's own Q_Key
        tx.putInt(UD_IMM_OFFSET, sImm[slot]);
        tx.putInt(UD_PAYLOAD_LENGTH_OFFSET, length);
        final Gid sgid = device.gid(ah.attr().sgidIndex() == 0 ? 0 : 1);
        final Gid dgid = ah.attr().dgid();
        for (int i = 0; i < Gid.LENGTH; i++)
        {
            tx.put(UD_SRC_GID_OFFSET + i, sgid.byteAt(i));
            tx.put(UD_DST_GID_OFFSET + i, dgid.byteAt(i));
        }
        gather(slot, 0, udTxAddress + UD_HEADER_LENGTH, length);
        tx.limit(UD_HEADER_LENGTH + length);
        try
        {
            device.udp().send(tx, ah.target()); // 0 when the socket buffer is full: lost, as UD may be
        }
        catch (final IOException ex)
        {
            LOG.debug("{}: UD datagram to {} lost: {}", describe(), ah.target(), ex.toString());
        }
    }

    /**
     * Completes the send WQE at the head of the queue.
     */
    private void completeSend(final WcStatus status)
    {
        final int slot = (int)(sqHead % sqCapacity);
        sqHead++;
        if (status != WcStatus.SUCCESS || sqSigAll || (sFlags[slot] & SendFlags.SIGNALED) != 0)
        {
            if (!sendCq.push(sWrIds[slot], status, sOpcodes[slot].completionOpcode(), (int)sLengths[slot], 0, qpn, 0,
                0, false) && status == WcStatus.SUCCESS)
            {
                enterError();
            }
        }
    }

    /**
     * Completes, in order, the sent WQEs the peer has acknowledged up to {@code ackPsn}.
     */
    private void acknowledge(final int ackPsn, final long now)
    {
        boolean progressed = false;
        while (sqHead < sqTransmit && state != QpState.ERR)
        {
            final int slot = (int)(sqHead % sqCapacity);
            final SendOpcode opcode = sOpcodes[slot];
            if (opcode == SendOpcode.RDMA_READ || opcode.isAtomic() ? !sResponded[slot] :
                psnDelta(ackPsn, sPsns[slot]) < 0)
            {
                break;
            }
            completeSend(WcStatus.SUCCESS);
            progressed = true;
        }
        if (progressed)
        {
            rnrRetriesLeft = rnrRetry;
            lastAckProgress = now;
        }
    }

    private void handleNak(final int syndrome, final int psn, final int rnrTimer, final long now)
    {
        final long index = findSent(psn);
        if (index < 0)
        {
            return; // a NAK for something no longer outstanding
        }
        if (syndrome != SYNDROME_RNR_NAK)
        {
            failSend(index, syndrome == SYNDROME_NAK_REMOTE_ACCESS ? WcStatus.REM_ACCESS_ERR :
                syndrome == SYNDROME_NAK_REMOTE_OPERATION ? WcStatus.REM_OP_ERR : WcStatus.REM_INV_REQ_ERR);
            return;
        }
        if (rnrRetry != RNR_RETRY_INFINITE)
        {
            if (rnrRetriesLeft == 0)
            {
                failSend(index, WcStatus.RNR_RETRY_EXC_ERR);
                return;
            }
            rnrRetriesLeft--;
        }
        for (long i = index; i < sqTransmit; i++)
        {
            final SendOpcode opcode = sOpcodes[(int)(i % sqCapacity)];
            if (opcode == SendOpcode.RDMA_READ || opcode.isAtomic())
            {
                outstandingReads--;
            }
        }
        sqTransmit = index;
        txOffset = 0;
        nextPsn = psn;
        rnrDeadline = now + RNR_TIMER_NANOS[rnrTimer & 0x1f];
        if (rnrDeadline == 0)
        {
            rnrDeadline = 1;
        }
        lastAckProgress = rnrDeadline;
    }

    private void handleReadResponse(
        final int psn, final int segment, final long offset, final long length, final long payloadAddress)
    {
        final long index = findSent(psn);
        final int slot = (int)(Math.max(0, index) % sqCapacity);
        if (index < 0 || sOpcodes[slot] != SendOpcode.RDMA_READ || length != sLengths[slot])
        {
            protocolError("READ response for PSN " + psn + " (length " + length + ") matches no outstanding READ");
            return;
        }
        sSges.scatter(slot, offset, payloadAddress, segment);
        if (offset + segment == length)
        {
            sResponded[slot] = true;
            outstandingReads--;
        }
    }

    private void handleAtomicResponse(final int psn, final long originalAddress)
    {
        final long index = findSent(psn);
        final int slot = (int)(Math.max(0, index) % sqCapacity);
        if (index < 0 || !sOpcodes[slot].isAtomic())
        {
            protocolError("atomic response for PSN " + psn + " matches no outstanding atomic");
            return;
        }
        sSges.scatter(slot, 0, originalAddress, Long.BYTES);
        sResponded[slot] = true;
        outstandingReads--;
    }

    private long findSent(final int psn)
    {
        for (long i = sqHead; i < sqTransmit; i++)
        {
            if (sPsns[(int)(i % sqCapacity)] == psn)
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * The WQE at {@code index} failed: it completes with {@code status} and the QP enters ERR, flushing
     * everything else.
     */
    private void failSend(final long index, final WcStatus status)
    {
        while (sqHead < index)
        {
            completeSend(WcStatus.WR_FLUSH_ERR);
        }
        completeSend(status);
        enterError();
    }

    private void checkTransportTimer(final long now)
    {
        if (type == QpType.RC && timeout != 0 && sqHead < sqTransmit && rnrDeadline == 0)
        {
            final long limit = Math.max(TRANSPORT_TIMER_UNIT_NANOS << Math.min(timeout, 31), MIN_TRANSPORT_TIMER_NANOS) *
                (retryCnt + 1L);
            if (now - lastAckProgress > limit)
            {
                LOG.warn("{}: no response from QP 0x{} at {} for {} ms (timeout={}, retry_cnt={}): RETRY_EXC_ERR",
                    describe(), Integer.toHexString(destQpn), remoteAddress, limit / 1_000_000, timeout, retryCnt);
                failSend(sqHead, WcStatus.RETRY_EXC_ERR);
            }
        }
    }

    // ---------------------------------------------------------------- responder

    /**
     * Reads and executes the frames the link has.
     */
    private int receive(final long now) throws IOException
    {
        int work = 0;
        boolean socketMayHaveMore = true;
        while (link != null && (state == QpState.RTR || state == QpState.RTS))
        {
            if (readActive && !pumpReadResponse())
            {
                break;
            }
            final int available = link.rxAvailable();
            final ByteBuffer rx = link.rx();
            final int at = link.rxStart();
            final int segment = available >= HEADER_LENGTH ? rx.getInt(at + SEGMENT_LENGTH_OFFSET) : 0;
            if (available >= HEADER_LENGTH && (segment < 0 || segment > MAX_SEGMENT_LENGTH))
            {
                protocolError("frame segment length " + segment + " outside 0.." + MAX_SEGMENT_LENGTH);
                break;
            }
            if (available < HEADER_LENGTH + segment)
            {
                if (!socketMayHaveMore)
                {
                    break; // one read per drive unless it filled the buffer: an empty read costs a syscall
                }
                final int read = link.read();
                if (read < 0)
                {
                    linkFailed("the peer closed the connection");
                    break;
                }
                if (read == 0)
                {
                    break;
                }
                socketMayHaveMore = link.rxFull();
                continue;
            }
            if (!link.ensureTxRoom(HEADER_LENGTH))
            {
                break; // room for the ACK, NAK or atomic response this frame may need
            }
            processFrame(rx, at, segment, now);
            if (link != null)
            {
                link.consume(HEADER_LENGTH + segment);
            }
            work++;
        }
        return work;
    }

    private void processFrame(final ByteBuffer rx, final int at, final int segment, final long now)
    {
        final byte opcode = rx.get(at + OPCODE_OFFSET);
        final int psn = rx.getInt(at + PSN_OFFSET);
        final long offset = rx.getInt(at + SEGMENT_OFFSET_OFFSET) & 0xffffffffL;
        final long length = rx.getInt(at + MESSAGE_LENGTH_OFFSET) & 0xffffffffL;
        if (!SoftFrameDescriptor.isValidOpcode(opcode) || offset + segment > length ||
            (type == QpType.UC && opcode != OP_SEND && opcode != OP_SEND_IMM && opcode != OP_WRITE &&
            opcode != OP_WRITE_IMM))
        {
            protocolError("invalid frame for a " + type + " QP: opcode=" + opcode + " psn=" + psn + " offset=" +
                offset + " segment=" + segment + " length=" + length);
            return;
        }
        final int ackPsn = rx.getInt(at + ACK_PSN_OFFSET);
        if (type == QpType.RC)
        {
            acknowledge(ackPsn, now);
        }
        final long payloadAddress = link.rxAddress() + at + HEADER_LENGTH;
        if (SoftFrameDescriptor.isRequest(opcode))
        {
            handleRequest(rx, at, opcode, psn, segment, offset, length, payloadAddress, now);
            return;
        }
        switch (opcode)
        {
            case OP_ACK:
                final byte syndrome = rx.get(at + SYNDROME_OFFSET);
                if (syndrome != SYNDROME_ACK)
                {
                    handleNak(syndrome, psn, rx.get(at + RNR_TIMER_OFFSET), now);
                }
                break;
            case OP_READ_RESPONSE:
                handleReadResponse(psn, segment, offset, length, payloadAddress);
                break;
            default:
                handleAtomicResponse(psn, link.rxAddress() + at + COMPARE_ADD_OFFSET);
                break;
        }
        if (state != QpState.ERR)
        {
            acknowledge(ackPsn, now);
        }
    }

    private void handleRequest(
        final ByteBuffer rx,
        final int at,
        final byte opcode,
        final int psn,
        final int segment,
        final long offset,
        final long length,
        final long payloadAddress,
        final long now)
    {
        if (offset == 0)
        {
            if (psn != expectedPsn)
            {
                return; // after an RNR NAK: drop until the NAKed message is sent again
            }
            if (!beginRequest(rx, at, opcode, psn, length))
            {
                return;
            }
        }
        else if (!rxActive || psn != rxPsn || offset != rxOffset)
        {
            return; // the rest of a message that was dropped or NAKed
        }
        if (rxIsWrite)
        {
            UNSAFE.copyMemory(payloadAddress, rxRemoteAddr + offset, segment);
        }
        else
        {
            rSges.scatter((int)(rqHead % rqCapacity), offset, payloadAddress, segment);
        }
        rxOffset = offset + segment;
        if (rxOffset == length)
        {
            rxActive = false;
            if (opcode != OP_WRITE)
            {
                final boolean withImm = opcode != OP_SEND;
                completeRecv((int)(rqHead % rqCapacity), WcStatus.SUCCESS,
                    opcode == OP_WRITE_IMM ? WcOpcode.RECV_RDMA_WITH_IMM : WcOpcode.RECV, (int)length,
                    withImm ? rx.getInt(at + IMM_OFFSET) : 0, destQpn, withImm ? WcFlags.WITH_IMM : 0,
                    (rx.get(at + FLAGS_OFFSET) & FLAG_SOLICITED) != 0);
            }
            executed(now);
        }
    }

    /**
     * Checks and starts a request at its first frame; executes READ and atomics entirely.
     *
     * @return whether payload follows to be placed.
     */
    private boolean beginRequest(final ByteBuffer rx, final int at, final byte opcode, final int psn, final long length)
    {
        final long remoteAddr = rx.getLong(at + REMOTE_ADDR_OFFSET);
        final int rkey = rx.getInt(at + RKEY_OFFSET);
        switch (opcode)
        {
            case OP_SEND:
            case OP_SEND_IMM:
            {
                if (!takeReceive(psn))
                {
                    return false;
                }
                final int slot = (int)(rqHead % rqCapacity);
                WcStatus status = rSges.check(slot, device, pd, true);
                if (status == WcStatus.SUCCESS && length > rSges.total(slot))
                {
                    status = WcStatus.LOC_LEN_ERR;
                }
                if (status != WcStatus.SUCCESS)
                {
                    completeRecv(slot, status, WcOpcode.RECV, 0, 0, destQpn, 0, false);
                    responderError(status == WcStatus.LOC_LEN_ERR ? SYNDROME_NAK_INVALID_REQUEST :
                        SYNDROME_NAK_REMOTE_OPERATION, psn);
                    return false;
                }
                startPlacing(psn, false, 0);
                return true;
            }
            case OP_WRITE:
            case OP_WRITE_IMM:
                if (!remoteAccessAllowed(AccessFlags.REMOTE_WRITE, rkey, remoteAddr, length))
                {
                    responderError(SYNDROME_NAK_REMOTE_ACCESS, psn);
                    return false;
                }
                if (opcode == OP_WRITE_IMM && !takeReceive(psn))
                {
                    return false;
                }
                startPlacing(psn, true, remoteAddr);
                return true;
            case OP_READ:
                if (!remoteAccessAllowed(AccessFlags.REMOTE_READ, rkey, remoteAddr, length))
                {
                    responderError(SYNDROME_NAK_REMOTE_ACCESS, psn);
                    return false;
                }
                expectedPsn = (expectedPsn + 1) & PSN_MASK;
                readActive = true;
                readPsn = psn;
                readAddr = remoteAddr;
                readLength = length;
                readOffset = 0;
                return false;
            default:
                executeAtomic(rx, at, opcode, psn, remoteAddr, rkey);
                return false;
        }
    }

    private boolean takeReceive(final int psn)
    {
        if (rqHead < rqTail)
        {
            return true;
        }
        if (type == QpType.RC)
        {
            writeAck(SYNDROME_RNR_NAK, psn, minRnrTimer);
        }
        else
        {
            expectedPsn = (expectedPsn + 1) & PSN_MASK; // UC: the message is silently dropped
        }
        return false;
    }

    private void startPlacing(final int psn, final boolean write, final long remoteAddr)
    {
        rxActive = true;
        rxIsWrite = write;
        rxPsn = psn;
        rxOffset = 0;
        rxRemoteAddr = remoteAddr;
    }

    private boolean remoteAccessAllowed(final int flag, final int rkey, final long addr, final long length)
    {
        if ((accessFlags & flag) == 0)
        {
            return false;
        }
        if (length == 0)
        {
            return true; // a zero-length access touches nothing, so no key is checked
        }
        final SoftMemoryRegion region = device.region(rkey);
        return region != null && region.softPd() == pd && (region.access() & flag) != 0 &&
            region.contains(addr, length);
    }

    private void executeAtomic(
        final ByteBuffer rx, final int at, final byte opcode, final int psn, final long addr, final int rkey)
    {
        if ((addr & (Long.BYTES - 1)) != 0)
        {
            responderError(SYNDROME_NAK_INVALID_REQUEST, psn); // misaligned atomic, as rxe
            return;
        }
        if (!remoteAccessAllowed(AccessFlags.REMOTE_ATOMIC, rkey, addr, Long.BYTES))
        {
            responderError(SYNDROME_NAK_REMOTE_ACCESS, psn);
            return;
        }
        atomicView.wrap(addr, Long.BYTES);
        final long operand = rx.getLong(at + COMPARE_ADD_OFFSET);
        long original;
        if (opcode == OP_FETCH_ADD)
        {
            original = atomicView.getAndAddLong(0, operand);
        }
        else
        {
            final long swap = rx.getLong(at + SWAP_OFFSET);
            do
            {
                original = atomicView.getLongVolatile(0);
            }
            while (original == operand && !atomicView.compareAndSetLong(0, original, swap));
        }
        expectedPsn = (expectedPsn + 1) & PSN_MASK;
        final ByteBuffer tx = link.tx();
        final int out = tx.position();
        putHeader(tx, out, OP_ATOMIC_RESPONSE, 0, psn, 0, 0, Long.BYTES);
        tx.putLong(out + COMPARE_ADD_OFFSET, original);
        tx.position(out + HEADER_LENGTH);
    }

    /**
     * Sends the current READ response, as far as the transmit buffer allows.
     *
     * @return whether it is complete.
     */
    private boolean pumpReadResponse() throws IOException
    {
        do
        {
            final int segment = (int)Math.min(readLength - readOffset, MAX_SEGMENT_LENGTH);
            if (!link.ensureTxRoom(HEADER_LENGTH + segment))
            {
                return false;
            }
            final ByteBuffer tx = link.tx();
            final int at = tx.position();
            putHeader(tx, at, OP_READ_RESPONSE, 0, readPsn, segment, readOffset, readLength);
            UNSAFE.copyMemory(readAddr + readOffset, link.txAddress() + at + HEADER_LENGTH, segment);
            tx.position(at + HEADER_LENGTH + segment);
            readOffset += segment;
        }
        while (readOffset < readLength);
        readActive = false;
        return true;
    }

    private void executed(final long now)
    {
        expectedPsn = (expectedPsn + 1) & PSN_MASK;
        if (type == QpType.RC && !ackOwed)
        {
            ackOwed = true;
            ackOwedSince = now;
        }
    }

    /**
     * A request failed at the responder: RC NAKs it and enters ERR; UC drops the message.
     */
    private void responderError(final byte syndrome, final int psn)
    {
        if (type == QpType.RC)
        {
            writeAck(syndrome, psn, 0);
            enterError();
        }
        else
        {
            expectedPsn = (expectedPsn + 1) & PSN_MASK;
        }
    }

    private void writeAck(final byte syndrome, final int psn, final int rnrTimer)
    {
        final ByteBuffer tx = link.tx();
        final int at = tx.position();
        putHeader(tx, at, OP_ACK, 0, psn, 0, 0, 0);
        tx.put(at + SYNDROME_OFFSET, syndrome);
        tx.put(at + RNR_TIMER_OFFSET, (byte)rnrTimer);
        tx.position(at + HEADER_LENGTH);
    }

    private void completeRecv(
        final int slot,
        final WcStatus status,
        final WcOpcode opcode,
        final int byteLen,
        final int imm,
        final int srcQp,
        final int flags,
        final boolean solicited)
    {
        rqHead++;
        if (!recvCq.push(rWrIds[slot], status, opcode, byteLen, imm, qpn, srcQp, flags, solicited) &&
            status == WcStatus.SUCCESS)
        {
            enterError();
        }
    }

    // ---------------------------------------------------------------- errors and state

    private void protocolError(final String what)
    {
        LOG.error("{}: garbage from peer {}: {}; closing the link, QP to ERR", describe(),
            link == null ? "?" : link.peer(), what);
        closeLinks();
        enterError();
    }

    private void linkFailed(final String reason)
    {
        LOG.warn("{}: link to QP 0x{} at {} lost ({}); QP to ERR", describe(), Integer.toHexString(destQpn),
            remoteAddress, reason);
        closeLinks();
        if (type == QpType.RC && sqHead < sqTail)
        {
            failSend(sqHead, WcStatus.RETRY_EXC_ERR);
        }
        else
        {
            enterError();
        }
    }

    /**
     * Enters ERR and flushes every outstanding work request with WR_FLUSH_ERR.
     */
    private void enterError()
    {
        if (state != QpState.ERR)
        {
            LOG.debug("{}: {} -> ERR", describe(), state);
        }
        state = QpState.ERR;
        flush();
    }

    private void flush()
    {
        while (sqHead < sqTail)
        {
            completeSend(WcStatus.WR_FLUSH_ERR);
        }
        sqTransmit = sqTail;
        txOffset = 0;
        outstandingReads = 0;
        rnrDeadline = 0;
        while (rqHead < rqTail)
        {
            completeRecv((int)(rqHead % rqCapacity), WcStatus.WR_FLUSH_ERR, WcOpcode.RECV, 0, 0, destQpn, 0, false);
        }
        rxActive = false;
        readActive = false;
        ackOwed = false;
    }

    private void reset()
    {
        closeLinks();
        localPeer = null;
        sqHead = sqTransmit = sqTail = 0;
        rqHead = rqTail = 0;
        txOffset = 0;
        outstandingReads = 0;
        rnrDeadline = 0;
        rxActive = false;
        readActive = false;
        ackOwed = false;
        state = QpState.RESET;
    }

    private void closeLinks()
    {
        if (link != null)
        {
            link.close();
            link = null;
        }
        if (pendingLink != null)
        {
            pendingLink.close();
            pendingLink = null;
        }
    }

    /**
     * Takes the QP lock. Holders never block, so spin on tryLock first (a contended lock() allocates); then
     * yield, in case the holder was preempted on a busy core; only then park.
     */
    private void acquire()
    {
        for (int attempt = 0; !lock.tryLock(); attempt++)
        {
            if (attempt < ACQUIRE_SPINS)
            {
                Thread.onSpinWait();
            }
            else if (attempt < ACQUIRE_SPINS + ACQUIRE_YIELDS)
            {
                Thread.yield();
            }
            else
            {
                lock.lock();
                return;
            }
        }
    }

    private static int psnDelta(final int a, final int b)
    {
        return ((a - b) << 8) >> 8;
    }
}
