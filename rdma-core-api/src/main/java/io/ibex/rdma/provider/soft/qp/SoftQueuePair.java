package io.ibex.rdma.provider.soft.qp;

import io.ibex.rdma.provider.soft.SoftCompletionQueue;
import io.ibex.rdma.provider.soft.SoftDevice;
import io.ibex.rdma.provider.soft.SoftProgressAgent;
import io.ibex.rdma.provider.soft.SoftProtectionDomain;
import io.ibex.rdma.provider.soft.wire.SoftGidDescriptor;
import io.ibex.rdma.provider.soft.wire.SoftLink;
import io.ibex.rdma.provider.soft.wire.SoftLinkToken;
import io.ibex.rdma.provider.soft.wire.SoftPeerRegions;
import io.ibex.rdma.provider.soft.wire.SoftSharedMemoryWire;
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
import io.ibex.rdma.verbs.WcStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.locks.ReentrantLock;

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
 * The work is split: this class is the verbs face (posting, modify and its state machine), the lock, who drives
 * the QP, the link and error handling; the {@link SoftRequester} runs the send side, the {@link SoftResponder} the
 * receive side, with the posted receives in a {@link SoftReceiveQueue} and what is acknowledged in
 * {@link SoftAcks}; {@link SoftQpTransitions} checks a modify.
 * <p>
 * One class, though long: the lock, the state, the link and who drives the QP change together (a link is adopted,
 * fails or is handed to the progress thread under the lock, in a given state), and each verbs call takes part in
 * them.
 */
public final class SoftQueuePair extends ProviderResource implements QueuePair
{
    /** How long a peer QP of the same device must go undriven before a poller of this QP drives it too. */
    static final long NEIGHBOUR_IDLE_NANOS = 20_000;
    /**
     * How long a posting thread, which counts as driving the QP, may go without reading the link: past it, a post
     * drives the QP fully, so a QP whose application posts but never polls still executes its peer's requests.
     */
    public static final long POSTER_READ_INTERVAL_NANOS = 100_000;
    /**
     * How stale the mark of the application's last drive may be. Other threads only ask whether the QP went undriven
     * for {@link #NEIGHBOUR_IDLE_NANOS} or longer, and a store on every poll of a spinning thread would move the
     * mark's cache line to that thread's core and back on every poll of the asker.
     */
    private static final long APP_DRIVE_MARK_NANOS = 2_000;

    private static final Logger LOG = LoggerFactory.getLogger(SoftQueuePair.class);
    private static final int ACQUIRE_SPINS = 100;
    private static final int ACQUIRE_YIELDS = 100;

    private final SoftProtectionDomain pd;
    private final SoftDevice device;
    private final SoftCompletionQueue sendCq;
    private final SoftCompletionQueue recvCq;
    private final QpType type;
    private final QpCapabilities caps;
    private final int qpn;
    private final ReentrantLock lock = new ReentrantLock();
    /** Read by the requester and responder too, which run under {@link #lock}. */
    volatile QpState state = QpState.RESET;
    private volatile long lastAppDrive;
    private long lastProgress; // under the lock
    private SoftLink watchedLink; // progress thread only

    private int qkey;
    private int destQpn;
    private long remoteKey;
    private InetSocketAddress remoteAddress;
    /** The RC/UC connection; null until connected and after it failed. */
    SoftLink link;
    private SoftLink pendingLink;
    private volatile SoftQueuePair localPeer;
    private long pendingSrcKey;
    private int pendingSrcQpn;
    /** The token the pending link's HELLO carried; null for a link this device made (no HELLO). */
    private byte[] pendingToken;
    /** What the HELLO of this QP's link must carry; bound by the connection manager. */
    private final SoftLinkToken linkToken = new SoftLinkToken();
    /** Package-private: the responder hands it the responses (ACK, NAK, READ, atomic) it reads. */
    final SoftRequester requester;
    private final SoftResponder responder;
    private final SoftReceiveQueue receives;
    private final SoftAcks acks;

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
        responder = new SoftResponder(this, device, pd, receives, acks, type);
        requester = new SoftRequester(this, acks, device, pd, sendCq, type, cap, init.sqSigAll());
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
        final SoftLink current = link;
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

    InetSocketAddress remoteAddress()
    {
        return remoteAddress;
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
                    stopDriving(true);
                    reset();
                    break;
                case ERR:
                    takeWhatArrived(from);
                    stopDriving(false);
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
                        requester.start(System.nanoTime());
                    }
                    state = QpState.RTS;
                    break;
                default:
                    state = to;
                    break;
            }
            if (link != null)
            {
                publishGate(); // a modify applies to the requests that follow it, the direct ones too
            }
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
        acquire();
        try
        {
            int index = 0;
            for (SendWorkRequest wr = first; wr != null; wr = wr.next())
            {
                requester.post(wr, index);
                index++;
            }
        }
        finally
        {
            final long now = System.nanoTime();
            markAppDrive(now); // the poster drives the QP (afterPost): no one else needs to while it posts
            afterPostSend(now);
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
        final long now = System.nanoTime();
        if (byApp)
        {
            markAppDrive(now);
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
     * its link wake the progress thread exactly then.
     *
     * @return the amount of work done.
     */
    public int driveIfIdle(final long now, final long idleNanos, final SoftProgressAgent progress)
    {
        if (!idleSince(now, idleNanos))
        {
            watch(null); // an application drives it: never wake the progress thread for its packets
            return 0;
        }
        if (type == QpType.UD || !lock.tryLock())
        {
            return 0;
        }
        try
        {
            final QpState current = state;
            watch(isConnected(current) ? link : null);
            if (watchedLink != null)
            {
                watchedLink.watch(progress);
            }
            final int work = driveLocked(now);
            if (acks.dueWithin(now, SoftProgressAgent.TIMER_SPIN_NANOS) ||
                requester.rnrRetryDueWithin(now, SoftProgressAgent.TIMER_SPIN_NANOS))
            {
                progress.timerDueSoon(); // a 5 us ACK or an RNR retry must not wait for the 1 ms tick
            }
            return work;
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

    /**
     * Stops watching the link the progress thread watched unless it is {@code watched}, which it watches from now
     * on (none if null). Progress thread only.
     */
    private void watch(final SoftLink watched)
    {
        if (watchedLink != null && watchedLink != watched)
        {
            watchedLink.unwatch();
        }
        watchedLink = watched;
    }

    private int driveLocked(final long now)
    {
        if (!isConnected(state))
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

    private void markAppDrive(final long now)
    {
        if (now - lastAppDrive >= APP_DRIVE_MARK_NANOS)
        {
            lastAppDrive = now;
        }
    }

    public boolean idleSince(final long now, final long idleNanos)
    {
        return now - lastAppDrive > idleNanos;
    }

    public void handOverToProgress()
    {
        lastAppDrive = 0;
    }

    @Override
    public void bindLinkToken(final byte[] token)
    {
        QueuePair.super.bindLinkToken(token);
        lock.lock();
        try
        {
            linkToken.set(token);
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Whether a HELLO carrying {@code token} is refused already: a token is bound and this is not it. With none bound
     * yet (a connection manager may bind one before RTR) the check waits for the link's adoption.
     */
    public boolean refusesLink(final byte[] token)
    {
        lock.lock();
        try
        {
            return linkToken.bound() && !linkToken.admits(token);
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Attaches a link a peer opened to this QP (its HELLO named this QP), or keeps it until RTR.
     *
     * @param token the token the HELLO carried, or null for a link this device made between two of its QPs.
     */
    public void offerIncomingLink(final SoftLink incoming, final long srcKey, final int srcQpn, final byte[] token)
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
                pendingToken = token;
            }
            else
            {
                pendingLink = incoming;
                pendingSrcKey = srcKey;
                pendingSrcQpn = srcQpn;
                pendingToken = token;
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
    public void deliverDatagram(final ByteBuffer datagram)
    {
        acquire();
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
            stopDriving(true);
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
        final SoftQueuePair peer = localPeer;
        if (peer != null && device.memoryLocalLinks())
        {
            // the peer's lock is taken inside this one's: only ever from the lower QPN to the higher, no cycle
            final SoftLink[] ends = SoftLink.inMemory(qpn, destQpn, device::faults);
            link = ends[0];
            peer.offerIncomingLink(ends[1], myKey, qpn, null);
            return;
        }
        try
        {
            link = SoftLink.connect(remoteAddress, device.ipv4(), device.port(), qpn, destQpn, linkToken,
                device.offersSharedMemoryTo(remoteAddress, peer != null) ? device::offerSharedMemory : null,
                device::faults);
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
        final byte[] token = pendingToken;
        pendingToken = null;
        if (token != null && !linkToken.admits(token))
        {
            LOG.warn("{}: incoming link from {} (QP 0x{}) refused: its HELLO lacks its connection's token; closed",
                describe(), incoming.peer(), Integer.toHexString(pendingSrcQpn));
            incoming.close();
        }
        else if (link == null && pendingSrcKey == remoteKey && pendingSrcQpn == destQpn)
        {
            if (incoming.closedByPeer())
            {
                // kept from before the peer's QP was reset: its reconnection is the live link, still to come
                LOG.debug("{}: incoming link from {} was closed by the peer before it was adopted; dropped",
                    describe(), incoming.peer());
                incoming.close();
            }
            else
            {
                link = incoming;
            }
        }
        else
        {
            LOG.warn("{}: incoming link from {} (QP 0x{}) does not match its remote QP 0x{} at {}; closed",
                describe(), incoming.peer(), Integer.toHexString(pendingSrcQpn), Integer.toHexString(destQpn),
                remoteAddress);
            incoming.close();
        }
    }

    /**
     * The poster sends what it posted, and drives the QP fully (reads its link too) when nobody has for
     * {@link #POSTER_READ_INTERVAL_NANOS}: a post counts as driving, so no one else reads the link while it posts.
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
                requester.transmitDatagrams(qkey);
            }
            else if (now - lastProgress >= POSTER_READ_INTERVAL_NANOS)
            {
                progress(now);
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
                requester.transmit(link, now);
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
        lastProgress = now;
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
            publishGate();
            int work = responder.receive(now);
            if (link == null)
            {
                return work + 1;
            }
            if (state == QpState.RTS)
            {
                work += requester.transmit(link, now);
                requester.checkTransportTimer(now);
            }
            if (link != null)
            {
                if (acks.writeOwed(link, now))
                {
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

    /**
     * The peer sent something this protocol never sends: the link cannot be trusted any more.
     */
    void protocolError(final String what)
    {
        LOG.error("{}: garbage from peer {}: {}; closing the link, QP to ERR", describe(),
            link == null ? "?" : link.peer(), what);
        closeLinks();
        enterError();
    }

    /**
     * The link broke: RC fails the oldest queued request with RETRY_EXC_ERR, as a real transport would.
     */
    void linkFailed(final String reason)
    {
        LOG.warn("{}: link to QP 0x{} at {} lost ({}); QP to ERR", describe(), Integer.toHexString(destQpn),
            remoteAddress, reason);
        dropLink();
    }

    /**
     * The peer's QP said goodbye (destroyed or reset): the link ends as a lost one does, but that is worth a warning
     * only if requests of this QP were still unanswered, which then fail.
     */
    void peerLeft()
    {
        if (awaitsAnswers())
        {
            LOG.warn("{}: QP 0x{} at {} left (destroyed or reset) before answering this QP's requests; QP to ERR",
                describe(), Integer.toHexString(destQpn), remoteAddress);
        }
        else
        {
            LOG.debug("{}: QP 0x{} at {} left (destroyed or reset); QP to ERR", describe(),
                Integer.toHexString(destQpn), remoteAddress);
        }
        dropLink();
    }

    /** @return whether requests of this QP wait for the peer's answer (RC; UC's complete as they go out). */
    private boolean awaitsAnswers()
    {
        return type == QpType.RC && requester.hasQueued();
    }

    private void dropLink()
    {
        closeLinks();
        if (awaitsAnswers())
        {
            requester.failOldest(WcStatus.RETRY_EXC_ERR);
        }
        else
        {
            enterError();
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
        if (link != null)
        {
            publishGate();
        }
        flush();
    }

    /**
     * Tells a peer process on a shared-memory link whether it may copy RDMA WRITEs and READs into and out of this
     * QP's shared regions directly, and under which PD and access flags (see {@link SoftPeerRegions}).
     */
    private void publishGate()
    {
        final SoftSharedMemoryWire shared = link.sharedMemory();
        if (shared != null)
        {
            final QpState current = state;
            shared.gate(isConnected(current) ?
                ((long)pd.handle() << 32) | (responder.accessFlags() & 0xffffffffL) : 0);
        }
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

    /**
     * An HCA executes frames as they arrive; soft only when a thread drives the QP. A QP sent to ERR (say on a
     * disconnect its application learned of without polling) first takes what already arrived, so an ACK its peer
     * sent before disconnecting completes the sends it acknowledges rather than have them flushed.
     */
    private void takeWhatArrived(final QpState from)
    {
        if (isConnected(from) && link != null)
        {
            try
            {
                if (link.established())
                {
                    responder.receive(System.nanoTime()); // receives only: nothing new goes out on the way to ERR
                }
            }
            catch (final IOException ex)
            {
                linkFailed(ex.toString());
            }
        }
    }

    /**
     * An HCA acknowledges a request as it executes it; soft delays a lone ACK so a response can carry it. A QP
     * that stops driving its link sends the ACK it still owes, so the peer's completed requests do not fail for
     * want of it: alone on the way to ERR; in a goodbye when destroyed or reset, which also tells the peer's QP that
     * this one left (a bare close of the link looks like a process that died).
     *
     * @param leaving whether the link closes now (destroy, reset).
     */
    private void stopDriving(final boolean leaving)
    {
        if (link == null || (!leaving && state == QpState.ERR))
        {
            return;
        }
        try
        {
            if (link.established() && (leaving ? acks.writeGoodbye(link) : acks.writeOwedNow(link)))
            {
                link.flush();
            }
        }
        catch (final IOException ex)
        {
            LOG.debug("{}: {} not sent before stopping: {}", describe(), leaving ? "goodbye" : "owed ACK",
                ex.toString());
        }
    }

    private void flush()
    {
        requester.flush();
        responder.flush();
    }

    private void reset()
    {
        closeLinks();
        localPeer = null;
        linkToken.clear(); // the token was the connection's, which the reset ended
        requester.reset();
        responder.reset();
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
            pendingToken = null;
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
}
