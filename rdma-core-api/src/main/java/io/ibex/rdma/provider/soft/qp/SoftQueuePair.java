package io.ibex.rdma.provider.soft.qp;

import io.ibex.rdma.provider.soft.SoftCompletionQueue;
import io.ibex.rdma.provider.soft.SoftDevice;
import io.ibex.rdma.provider.soft.SoftProgressAgent;
import io.ibex.rdma.provider.soft.SoftProtectionDomain;
import io.ibex.rdma.provider.soft.wire.SoftLink;
import io.ibex.rdma.spi.ProviderChecks;
import io.ibex.rdma.spi.ProviderResource;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.Gid;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpAttrMask;
import io.ibex.rdma.verbs.QpCapabilities;
import io.ibex.rdma.verbs.QpInitAttr;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.VerbsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;

import static io.ibex.rdma.provider.soft.wire.SoftFrameDescriptor.*;

/**
 * A soft queue pair: the requester and responder of one QP. RC and UC run over the QP's {@link SoftLink}
 * (a TCP connection, or a pair of rings in memory to a QP of the same device); UD over the device's UDP socket.
 * <p>
 * Work requests are copied at post time into preallocated slots. The posting thread transmits at once, and
 * counts as driving the QP: it reads the link too when nobody has for {@link #POSTER_READ_INTERVAL_NANOS}. The
 * thread polling a CQ drives the QPs completing into it (receive, execute, acknowledge); the progress thread
 * drives a QP nobody else drove for a millisecond. One lock guards the QP: posters take it, drivers only try.
 * <p>
 * Reliability: TCP does not lose frames, so RC needs no retransmission except after an RNR NAK (go back to
 * the NAKed message once the RNR timer expires). One PSN per message. ACKs are cumulative, ride on every
 * frame, and are sent on their own only when owed for {@link SoftAcks#ACK_DELAY_NANOS} (in bulk for a stream
 * of messages whose requester asked for no prompt ACK).
 * <p>
 * The work is split: this class is the verbs face (posting, modify and its state machine, query, UD datagrams in),
 * and owns the {@link SoftQpLock} and the state; {@link SoftQpTransitions} checks a modify; the {@link SoftQpDriver}
 * drives the QP and the {@link SoftQpConnection} holds its link; the posted sends are in a {@link SoftSendQueue},
 * which the {@link SoftRequester} (RC/UC) or the {@link SoftDatagramSender} (UD) transmits; the {@link SoftResponder}
 * runs the receive side, with the posted receives in a {@link SoftReceiveQueue} and what is acknowledged in
 * {@link SoftAcks}. Those parts are created with the QP, belong to it, and run under its lock.
 * <p>
 * Posting allocates nothing; a modify, a query and the creation or loss of a link do.
 */
public final class SoftQueuePair extends ProviderResource implements QueuePair
{
    /**
     * How long a posting thread, which counts as driving the QP, may go without reading the link: past it, a post
     * drives the QP fully, so a QP whose application posts but never polls still executes its peer's requests.
     */
    public static final long POSTER_READ_INTERVAL_NANOS = 100_000;

    private static final Logger LOG = LoggerFactory.getLogger(SoftQueuePair.class);

    private final SoftProtectionDomain pd;
    private final SoftDevice device;
    private final SoftCompletionQueue sendCq;
    private final SoftCompletionQueue recvCq;
    private final QpType type;
    private final QpCapabilities caps;
    private final int qpn;
    /** Guards the QP and its parts: posters take it, drivers only try. */
    final SoftQpLock lock = new SoftQpLock();
    /** Read by the QP's parts too, which run under {@link #lock}. */
    volatile QpState state = QpState.RESET;

    private int qkey;
    private int destQpn;
    /** Package-private: the responder hands it the responses (ACK, NAK, READ, atomic) it reads. */
    final SoftRequester requester;
    /** Package-private: the connection fails its oldest request when the link is lost. */
    final SoftSendQueue sendQueue;
    /** UD only, else null. */
    private final SoftDatagramSender datagrams;
    /** Package-private: the connection publishes its access flags to a shared-memory peer. */
    final SoftResponder responder;
    private final SoftReceiveQueue receives;
    private final SoftAcks acks;
    private final SoftQpConnection connection;
    private final SoftQpDriver driver;

    public SoftQueuePair(final SoftProtectionDomain pd, final QpInitAttr init)
    {
        super(pd);
        this.pd = pd;
        this.device = pd.softContext().softDevice();
        this.type = init.type();
        this.sendCq = ProviderChecks.completionQueueOf(pd, init.sendCq(), SoftCompletionQueue.class, "send");
        this.recvCq = ProviderChecks.completionQueueOf(pd, init.recvCq(), SoftCompletionQueue.class, "receive");
        final QpCapabilities cap = init.cap();
        checkCap("max_send_wr", cap.maxSendWr(), SoftDevice.MAX_QP_WR);
        checkCap("max_recv_wr", cap.maxRecvWr(), SoftDevice.MAX_QP_WR);
        checkCap("max_send_sge", cap.maxSendSge(), SoftDevice.MAX_SGE);
        checkCap("max_recv_sge", cap.maxRecvSge(), SoftDevice.MAX_SGE);
        checkCap("max_inline_data", cap.maxInlineData(), SoftDevice.MAX_INLINE_DATA);
        this.caps = cap;
        receives = new SoftReceiveQueue(this, device, pd, recvCq, type, cap);
        acks = new SoftAcks(type == QpType.RC);
        connection = new SoftQpConnection(this, device);
        responder = new SoftResponder(this, connection, device, pd, receives, acks, type);
        sendQueue = new SoftSendQueue(this, device, pd, sendCq, type, cap, init.sqSigAll());
        requester = new SoftRequester(this, connection, sendQueue, acks, device, pd, type);
        datagrams = type == QpType.UD ? new SoftDatagramSender(this, sendQueue, device, pd) : null;
        driver = new SoftQpDriver(this, connection, requester, responder, acks, sendCq, recvCq);
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

    /**
     * @return whom the link goes to and through what ({@link SoftLink#peer}), or null while there is no link.
     */
    public String linkPeer()
    {
        final SoftLink current = connection.link;
        return current == null ? null : current.peer();
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

    int destQpn()
    {
        return destQpn;
    }

    int pdHandle()
    {
        return pd.handle();
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
            final Gid dgid = SoftQpTransitions.checkPath(describe(), type, from, to, attr);
            if (dgid != null)
            {
                connection.aim(dgid);
            }
            applyAttributes(attr);
            switch (to)
            {
                case RESET:
                    driver.stopDriving(true);
                    reset();
                    break;
                case ERR:
                    driver.takeWhatArrived(from);
                    driver.stopDriving(false);
                    enterError();
                    break;
                case RTR:
                    state = QpState.RTR;
                    if (from == QpState.INIT && type != QpType.UD)
                    {
                        connection.connect();
                    }
                    break;
                case RTS:
                    if (from == QpState.RTR)
                    {
                        requester.start(System.nanoTime());
                    }
                    state = QpState.RTS;
                    break;
                default:
                    state = to;
                    break;
            }
            connection.publishGate(); // a modify applies to the requests that follow it, the direct ones too
        }
        finally
        {
            lock.unlock();
        }
    }

    @Override
    public QpAttr query()
    {
        ensureOpen();
        lock.lock();
        try
        {
            final QpAttr attr = new QpAttr().state(state).qkey(qkey).destQpNum(destQpn);
            requester.report(attr);
            responder.report(attr);
            return attr;
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
        lock.acquire();
        try
        {
            int index = 0;
            for (SendWorkRequest wr = first; wr != null; wr = wr.next())
            {
                sendQueue.post(wr, index);
                index++;
            }
        }
        finally
        {
            final long now = System.nanoTime();
            driver.markAppDrive(now); // the poster drives the QP (afterPostSend): no one else needs to while it posts
            afterPostSend(now);
            lock.unlock();
        }
    }

    @Override
    public void postRecv(final ReceiveWorkRequest first)
    {
        ensureOpen();
        lock.acquire();
        try
        {
            int index = 0;
            for (ReceiveWorkRequest wr = first; wr != null; wr = wr.next())
            {
                receives.post(wr, index);
                index++;
            }
        }
        finally
        {
            if (state == QpState.ERR)
            {
                flush();
            }
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
    public int drive(final boolean byApp)
    {
        return driver.drive(byApp);
    }

    /**
     * The progress thread's turn: drives the QP if no application thread has for {@code idleNanos}, and has
     * its link wake the progress thread exactly then.
     *
     * @return the amount of work done.
     */
    public int driveIfIdle(final long now, final long idleNanos, final SoftProgressAgent progress)
    {
        return driver.driveIfIdle(now, idleNanos, progress);
    }

    /**
     * @return whether no application thread drove the QP (posted or polled) for more than {@code idleNanos}.
     */
    public boolean idleSince(final long now, final long idleNanos)
    {
        return driver.idleSince(now, idleNanos);
    }

    /**
     * The application is about to block on a completion channel: the progress thread drives the QP at once.
     */
    public void handOverToProgress()
    {
        driver.handOverToProgress();
    }

    @Override
    public void bindLinkToken(final byte[] token)
    {
        QueuePair.super.bindLinkToken(token);
        lock.lock();
        try
        {
            connection.bindToken(token);
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * @return the QP's RC/UC link, to which the device attaches the links peers open.
     */
    public SoftQpConnection connection()
    {
        return connection;
    }

    /**
     * Receives one UD datagram addressed to this QP (the device holds its UDP lock).
     */
    public void deliverDatagram(final ByteBuffer datagram)
    {
        lock.acquire();
        try
        {
            final QpState current = state;
            if (!isConnected(current) || type != QpType.UD ||
                datagram.getInt(UD_QKEY_OFFSET) != qkey)
            {
                return; // UD drops silently: wrong state or Q_Key mismatch
            }
            receives.deliverDatagram(datagram);
        }
        finally
        {
            lock.unlock();
        }
    }

    @Override
    protected String describe()
    {
        return "QP 0x" + Integer.toHexString(qpn) + " (" + type + ")";
    }

    @Override
    protected int closeRank()
    {
        return 0;
    }

    @Override
    protected void release()
    {
        lock.lock();
        try
        {
            driver.stopDriving(true);
            connection.close();
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
        if (attr.has(QpAttrMask.QKEY))
        {
            qkey = attr.qkey();
        }
        if (attr.has(QpAttrMask.DEST_QPN))
        {
            destQpn = attr.destQpNum();
        }
        requester.applyAttributes(attr);
        responder.applyAttributes(attr);
    }

    /**
     * Sends what was posted: UD at once; RC and UC through the {@link SoftQpDriver}. ERR flushes it instead.
     */
    private void afterPostSend(final long now)
    {
        final QpState current = state;
        if (current == QpState.ERR)
        {
            flush();
        }
        else if (current == QpState.RTS)
        {
            if (type == QpType.UD)
            {
                datagrams.transmit(qkey);
            }
            else
            {
                driver.posted(now);
            }
        }
    }

    /**
     * Enters ERR and flushes every outstanding work request with WR_FLUSH_ERR.
     */
    void enterError()
    {
        if (state != QpState.ERR)
        {
            LOG.debug("{}: {} -> ERR", describe(), state);
        }
        state = QpState.ERR;
        connection.publishGate();
        flush();
    }

    /**
     * @return the RDMA WRITEs and READs this QP copied directly into or out of a peer's shared region.
     */
    public long directCopies()
    {
        return requester.directCopies();
    }

    /**
     * @param state a QP state.
     * @return whether a QP in it takes incoming requests and answers: RTR, RTS and SQD (which only stops new sends).
     */
    static boolean isConnected(final QpState state)
    {
        return state == QpState.RTR || state == QpState.RTS || state == QpState.SQD;
    }

    private void flush()
    {
        requester.flush();
        responder.flush();
    }

    private void reset()
    {
        connection.reset();
        requester.reset();
        responder.reset();
        state = QpState.RESET;
    }
}
