package io.ibex.rdma.provider.soft.qp;

import io.ibex.rdma.provider.soft.SoftDevice;
import io.ibex.rdma.provider.soft.SoftProtectionDomain;
import io.ibex.rdma.provider.soft.wire.SoftLink;
import io.ibex.rdma.provider.soft.wire.SoftPeerRegions;
import io.ibex.rdma.provider.soft.wire.SoftSharedMemoryWire;
import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpAttrMask;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.WcStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;

import static io.ibex.rdma.provider.soft.wire.SoftFrameDescriptor.*;

/**
 * The RC/UC send side of a {@link SoftQueuePair} (rxe's requester and completer): transmits the requests of its
 * {@link SoftSendQueue} as frames on the link, one PSN per message, within the READ/atomic credit and fences (an
 * RDMA WRITE or READ into a peer's shared region is a direct copy instead); and takes what the peer answers: ACKs
 * complete the requests they cover, an RNR NAK rewinds to the NAKed message once the RNR timer expires, another NAK
 * fails it, READ and atomic responses land in the request's buffers; the transport timer fails a request the peer
 * leaves unanswered. UD requests go out through the {@link SoftDatagramSender}.
 * <p>
 * Every method runs with the QP lock held. Allocates nothing.
 */
public final class SoftRequester
{
    private static final Logger LOG = LoggerFactory.getLogger(SoftRequester.class);
    private static final int RNR_RETRY_INFINITE = 7;
    private static final long TRANSPORT_TIMER_UNIT_NANOS = 4096;
    /**
     * Floor of the transport timer's period. A soft peer's "HCA" is its JVM's threads, which the OS or a collection
     * may stop for hundreds of milliseconds, where an HCA would go on acknowledging; and over TCP no frame is lost,
     * and a peer that dies closes the link at once. So the timer has only a peer to catch that stopped answering
     * with its socket open, and must not take a stalled one for it: it waits (retry_cnt + 1) seconds at least.
     */
    private static final long MIN_TRANSPORT_TIMER_NANOS = 1_000_000_000L;
    /** Frame opcode of each {@link SendOpcode}, by ordinal. */
    private static final byte[] FRAME_OPCODES = {OP_WRITE, OP_WRITE_IMM, OP_SEND, OP_SEND_IMM, OP_READ, OP_CMP_SWAP,
        OP_FETCH_ADD};
    /** The IB minimum RNR NAK timer table, in nanoseconds, by encoded value (0 means 655.36 ms). */
    private static final long[] RNR_TIMER_NANOS = {
        655_360_000L, 10_000L, 20_000L, 30_000L, 40_000L, 60_000L, 80_000L, 120_000L, 160_000L, 240_000L,
        320_000L, 480_000L, 640_000L, 960_000L, 1_280_000L, 1_920_000L, 2_560_000L, 3_840_000L, 5_120_000L,
        7_680_000L, 10_240_000L, 15_360_000L, 20_480_000L, 30_720_000L, 40_960_000L, 61_440_000L, 81_920_000L,
        122_880_000L, 163_840_000L, 245_760_000L, 327_680_000L, 491_520_000L};

    private final SoftQueuePair qp;
    private final SoftQpConnection connection;
    private final SoftSendQueue sq;
    private final SoftAcks acks;
    private final SoftDevice device;
    private final SoftProtectionDomain pd;
    private final QpType type;

    private int timeout;
    private int retryCnt;
    private int rnrRetry;
    private int maxRdAtomic = 1;

    private long txOffset;
    private int nextPsn;
    private int outstandingReads;
    private int rnrRetriesLeft;
    private long directCopies;
    private long rnrDeadline;
    private long lastAckProgress;

    SoftRequester(
        final SoftQueuePair qp,
        final SoftQpConnection connection,
        final SoftSendQueue sq,
        final SoftAcks acks,
        final SoftDevice device,
        final SoftProtectionDomain pd,
        final QpType type)
    {
        this.qp = qp;
        this.connection = connection;
        this.sq = sq;
        this.acks = acks;
        this.device = device;
        this.pd = pd;
        this.type = type;
    }

    void applyAttributes(final QpAttr attr)
    {
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
            rnrRetriesLeft = rnrRetry;
        }
        if (attr.has(QpAttrMask.MAX_QP_RD_ATOMIC))
        {
            maxRdAtomic = Math.max(1, attr.maxRdAtomic());
        }
        if (attr.has(QpAttrMask.SQ_PSN))
        {
            nextPsn = attr.sqPsn();
        }
    }

    /** For query: the attributes applyAttributes keeps that verbs report. */
    void report(final QpAttr attr)
    {
        attr.timeout(timeout).retryCnt(retryCnt).rnrRetry(rnrRetry);
    }

    /**
     * RTR to RTS: the RNR retry budget and the transport timer start afresh.
     */
    void start(final long now)
    {
        rnrRetriesLeft = rnrRetry;
        lastAckProgress = now;
    }

    /**
     * @return whether an RNR retry waits and comes due within {@code windowNanos} from {@code now} (not already).
     */
    boolean rnrRetryDueWithin(final long now, final long windowNanos)
    {
        return rnrDeadline != 0 && rnrDeadline - now > 0 && rnrDeadline - now <= windowNanos;
    }

    /**
     * Writes queued requests to the link's transmit buffer while it has room, the RNR timer allows and the
     * READ/atomic credit and fences permit.
     *
     * @return the number of requests written.
     */
    int transmit(final SoftLink link, final long now) throws IOException
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
        while (sq.transmit < sq.tail && qp.state == QpState.RTS)
        {
            final int slot = (int)(sq.transmit & sq.mask);
            final SendOpcode opcode = sq.opcodes[slot];
            final boolean readOrAtomic = opcode == SendOpcode.RDMA_READ || opcode.isAtomic();
            if (txOffset == 0)
            {
                if ((readOrAtomic && outstandingReads >= maxRdAtomic) ||
                    ((sq.flags[slot] & SendFlags.FENCE) != 0 && outstandingReads > 0))
                {
                    break;
                }
                if (!sq.inline[slot])
                {
                    final WcStatus status = sq.sges.check(slot, device, pd, readOrAtomic);
                    if (status != WcStatus.SUCCESS)
                    {
                        sq.fail(sq.transmit, status);
                        return work + 1;
                    }
                }
                if (sq.transmit == sq.head && copyDirectly(link, slot, opcode))
                {
                    work++;
                    sq.transmit++;
                    sq.complete(WcStatus.SUCCESS);
                    continue;
                }
                sq.psns[slot] = nextPsn;
            }
            if (!writeRequest(link, slot, opcode))
            {
                break;
            }
            work++;
            if (sq.transmit == sq.head)
            {
                lastAckProgress = now;
            }
            sq.transmit++;
            txOffset = 0;
            nextPsn = (nextPsn + 1) & PSN_MASK;
            if (readOrAtomic)
            {
                outstandingReads++;
            }
            if (type == QpType.UC)
            {
                sq.complete(WcStatus.SUCCESS); // UC has no ACKs: a send completes once transmitted
            }
        }
        return work;
    }

    /**
     * One-sided stays one-sided: an RDMA WRITE or READ into a region the peer's process allocated in shared memory is
     * a copy into or out of it, complete at once, as an HCA's is once the peer acknowledges it. Only when nothing
     * sent before is unacknowledged, so that it cannot overtake a request of this QP still in the ring (RC order);
     * it takes no PSN, as nothing goes on the wire. See {@link SoftPeerRegions} for the checks.
     *
     * @return whether it was copied; false: it goes through the ring.
     */
    private boolean copyDirectly(final SoftLink link, final int slot, final SendOpcode opcode)
    {
        final boolean write = opcode == SendOpcode.RDMA_WRITE;
        final SoftSharedMemoryWire shared;
        if ((!write && opcode != SendOpcode.RDMA_READ) || (shared = link.sharedMemory()) == null)
        {
            return false;
        }
        final SoftPeerRegions peer = shared.peerRegions();
        final long length = sq.lengths[slot];
        final long address = peer.enter(shared.peerGate(), sq.rkeys[slot], sq.remoteAddrs[slot], length,
            write ? AccessFlags.REMOTE_WRITE : AccessFlags.REMOTE_READ);
        if (address == 0)
        {
            return false;
        }
        try
        {
            if (write)
            {
                sq.gather(slot, 0, address, (int)length); // enter bounds it by a mapping, which is shorter than 2^31
            }
            else
            {
                sq.sges.scatter(slot, 0, address, (int)length);
            }
        }
        finally
        {
            peer.leave();
        }
        directCopies++;
        return true;
    }

    /**
     * Writes the frames of one request into the link's transmit buffer, resuming at {@link #txOffset}.
     *
     * @return false if the buffer filled up first.
     */
    private boolean writeRequest(final SoftLink link, final int slot, final SendOpcode opcode) throws IOException
    {
        final long length = sq.lengths[slot];
        final long payload = opcode == SendOpcode.RDMA_READ || opcode.isAtomic() ? 0 : length;
        final byte frameOpcode = frameOpcode(opcode);
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
            acks.putHeader(tx, at, frameOpcode, last ? lastFrameFlags(slot) : 0, sq.psns[slot], segment, txOffset,
                length);
            tx.putInt(at + IMM_OFFSET, sq.imm[slot]);
            tx.putInt(at + RKEY_OFFSET, sq.rkeys[slot]);
            tx.putLong(at + REMOTE_ADDR_OFFSET, sq.remoteAddrs[slot]);
            tx.putLong(at + COMPARE_ADD_OFFSET, sq.compareAdds[slot]);
            tx.putLong(at + SWAP_OFFSET, sq.swaps[slot]);
            sq.gather(slot, txOffset, link.txAddress() + at + HEADER_LENGTH, segment);
            tx.position(at + HEADER_LENGTH + segment);
            txOffset += segment;
        }
        while (txOffset < payload);
        return true;
    }

    /**
     * The flags of a message's last frame: SOLICITED as posted; ACK_REQUEST when the application will wait for this
     * completion or for room in the send queue, so only a stream of unsignaled messages is acknowledged in bulk.
     */
    private int lastFrameFlags(final int slot)
    {
        final int flags = sq.flags[slot];
        final boolean ackRequest = type == QpType.RC && (sq.signaled(slot) || sq.halfFull());
        return ((flags & SendFlags.SOLICITED) != 0 ? FLAG_SOLICITED : 0) | (ackRequest ? FLAG_ACK_REQUEST : 0);
    }

    /**
     * Completes, in order, the sent WQEs the peer has acknowledged up to {@code ackPsn}.
     */
    void acknowledge(final int ackPsn, final long now)
    {
        boolean progressed = false;
        while (sq.head < sq.transmit && qp.state != QpState.ERR)
        {
            final int slot = (int)(sq.head & sq.mask);
            final SendOpcode opcode = sq.opcodes[slot];
            if (opcode == SendOpcode.RDMA_READ || opcode.isAtomic() ? !sq.responded[slot] :
                psnDelta(ackPsn, sq.psns[slot]) < 0)
            {
                break;
            }
            sq.complete(WcStatus.SUCCESS);
            progressed = true;
        }
        if (progressed)
        {
            rnrRetriesLeft = rnrRetry;
            lastAckProgress = now;
        }
    }

    /**
     * A NAK for {@code psn}: an RNR NAK rewinds to that message once the RNR timer expires (while retries
     * last); any other NAK fails it.
     */
    void handleNak(final int syndrome, final int psn, final int rnrTimer, final long now)
    {
        final long index = sq.findSent(psn);
        if (index < 0)
        {
            return; // a NAK for something no longer outstanding
        }
        if (syndrome != SYNDROME_RNR_NAK)
        {
            sq.fail(index, nakStatus(syndrome));
            return;
        }
        if (rnrRetry != RNR_RETRY_INFINITE)
        {
            if (rnrRetriesLeft == 0)
            {
                sq.fail(index, WcStatus.RNR_RETRY_EXC_ERR);
                return;
            }
            rnrRetriesLeft--;
        }
        for (long i = index; i < sq.transmit; i++)
        {
            final SendOpcode opcode = sq.opcodes[(int)(i & sq.mask)];
            if (opcode == SendOpcode.RDMA_READ || opcode.isAtomic())
            {
                outstandingReads--;
            }
        }
        sq.transmit = index;
        txOffset = 0;
        nextPsn = psn;
        rnrDeadline = now + RNR_TIMER_NANOS[rnrTimer & 0x1f];
        if (rnrDeadline == 0)
        {
            rnrDeadline = 1;
        }
        lastAckProgress = rnrDeadline;
    }

    /**
     * @return the frame opcode that carries {@code opcode}.
     */
    static byte frameOpcode(final SendOpcode opcode)
    {
        return FRAME_OPCODES[opcode.ordinal()];
    }

    /**
     * @param syndrome a NAK's syndrome other than RNR.
     * @return the status of the work request it fails.
     */
    static WcStatus nakStatus(final int syndrome)
    {
        return switch (syndrome)
        {
            case SYNDROME_NAK_REMOTE_ACCESS -> WcStatus.REM_ACCESS_ERR;
            case SYNDROME_NAK_REMOTE_OPERATION -> WcStatus.REM_OP_ERR;
            default -> WcStatus.REM_INV_REQ_ERR;
        };
    }

    void handleReadResponse(
        final int psn, final int segment, final long offset, final long length, final long payloadAddress)
    {
        final long index = sq.findSent(psn);
        final int slot = (int)(Math.max(0, index) & sq.mask);
        if (index < 0 || sq.opcodes[slot] != SendOpcode.RDMA_READ || length != sq.lengths[slot])
        {
            connection.protocolError("READ response for PSN " + psn + " (length " + length +
                ") matches no outstanding READ");
            return;
        }
        sq.sges.scatter(slot, offset, payloadAddress, segment);
        if (offset + segment == length)
        {
            sq.responded[slot] = true;
            outstandingReads--;
        }
    }

    void handleAtomicResponse(final int psn, final long originalAddress)
    {
        final long index = sq.findSent(psn);
        final int slot = (int)(Math.max(0, index) & sq.mask);
        if (index < 0 || !sq.opcodes[slot].isAtomic())
        {
            connection.protocolError("atomic response for PSN " + psn + " matches no outstanding atomic");
            return;
        }
        sq.sges.scatter(slot, 0, originalAddress, Long.BYTES);
        sq.responded[slot] = true;
        outstandingReads--;
    }

    /**
     * @return the RDMA WRITEs and READs this QP copied directly into or out of a peer's shared region.
     */
    long directCopies()
    {
        return directCopies;
    }

    /**
     * RC: fails the oldest unacknowledged request with RETRY_EXC_ERR once the peer has been silent for the
     * transport timeout times (retry_cnt + 1).
     */
    void checkTransportTimer(final long now)
    {
        if (type == QpType.RC && timeout != 0 && sq.head < sq.transmit && rnrDeadline == 0)
        {
            final long limit = Math.max(TRANSPORT_TIMER_UNIT_NANOS << Math.min(timeout, 31), MIN_TRANSPORT_TIMER_NANOS) *
                (retryCnt + 1L);
            if (now - lastAckProgress > limit)
            {
                LOG.warn("{}: no response from QP 0x{} at {} for {} ms (timeout={}, retry_cnt={}): RETRY_EXC_ERR",
                    qp, Integer.toHexString(qp.destQpn()), connection.remoteAddress(), limit / 1_000_000, timeout,
                    retryCnt);
                sq.fail(sq.head, WcStatus.RETRY_EXC_ERR);
            }
        }
    }

    /**
     * Completes every queued WQE with WR_FLUSH_ERR and forgets what was in flight.
     */
    void flush()
    {
        sq.flush();
        txOffset = 0;
        outstandingReads = 0;
        rnrDeadline = 0;
    }

    void reset()
    {
        sq.reset();
        txOffset = 0;
        outstandingReads = 0;
        rnrDeadline = 0;
    }
}
