package io.ibex.rdma.provider.soft.qp;

import io.ibex.rdma.provider.soft.SoftCompletionQueue;
import io.ibex.rdma.provider.soft.SoftDevice;
import io.ibex.rdma.provider.soft.SoftMemoryRegion;
import io.ibex.rdma.provider.soft.SoftProtectionDomain;
import io.ibex.rdma.provider.soft.wire.SoftFrameDescriptor;
import io.ibex.rdma.provider.soft.wire.SoftLink;
import io.ibex.rdma.provider.soft.wire.SoftUnsafe;
import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.Gid;
import io.ibex.rdma.verbs.PostException;
import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpAttrMask;
import io.ibex.rdma.verbs.QpCapabilities;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.VerbsException;
import io.ibex.rdma.verbs.WcFlags;
import io.ibex.rdma.verbs.WcOpcode;
import io.ibex.rdma.verbs.WcStatus;
import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static io.ibex.rdma.provider.soft.wire.SoftFrameDescriptor.*;
import static io.ibex.rdma.provider.soft.wire.SoftUnsafe.UNSAFE;

/**
 * The receive side of a {@link SoftQueuePair}: the receive queue, reading frames off the link (responses go
 * to the {@link SoftRequester}), executing requests (SEND into a posted receive, WRITE, READ, atomics) after
 * checking remote access, and acknowledging them, plus delivery of UD datagrams.
 * <p>
 * It also owns the cumulative ACK every outgoing frame carries ({@link #putHeader}), so the requester's frames
 * acknowledge for free and an ACK goes out alone only when owed for {@link #ACK_DELAY_NANOS}; for messages whose
 * requester did not ask for a prompt ACK ({@link SoftFrameDescriptor#FLAG_ACK_REQUEST}), at most once every
 * {@link #UNREQUESTED_ACK_INTERVAL_NANOS}: each lone ACK costs both sides a system call, and a stream of
 * unsignaled SENDs needs none.
 * <p>
 * A request a peer may not make is refused as rxe refuses it, and logged with the reason: on RC with a NAK (the
 * requester's work request completes with the status {@link SoftRequester#nakStatus} gives) and this QP enters
 * ERR; on UC the message is dropped. The QP's access flags must allow the operation and an RDMA message be at most
 * {@link #MAX_RDMA_LENGTH} bytes (else "invalid request"); the rkey must name an open region of the QP's protection
 * domain whose access flags allow the operation and which holds the whole range (else "remote access error");
 * an atomic must be aligned (else "invalid request"). A message's later frames must agree with its first on the
 * message length, and its region must still be registered (rxe rechecks the MR of each READ response packet).
 * <p>
 * Every method runs with the QP lock held.
 */
public final class SoftResponder
{
    private static final Logger LOG = LoggerFactory.getLogger(SoftResponder.class);

    /** The longest RDMA WRITE or READ message: IB's 2^31 bytes, which rxe checks before the rkey. */
    static final long MAX_RDMA_LENGTH = 1L << 31;

    /** How long an ACK may wait for a frame to carry it before it is sent alone. */
    public static final long ACK_DELAY_NANOS = 5_000;
    /** The least time between two lone ACKs that no requester asked for (well below the 10 ms transport timer). */
    public static final long UNREQUESTED_ACK_INTERVAL_NANOS = 200_000;

    private final SoftQueuePair qp;
    private final SoftDevice device;
    private final SoftProtectionDomain pd;
    private final SoftCompletionQueue recvCq;
    private final QpType type;
    private final QpCapabilities caps;

    private int accessFlags;
    private int minRnrTimer;

    // receive queue: [rqHead, rqTail) posted and not yet consumed
    private final int rqCapacity;
    private final int rqMask; // a receive's slot is its index masked: the arrays round max_recv_wr up to a power of 2
    private final long[] rWrIds;
    private final SoftSgeTable rSges;
    private long rqHead;
    private long rqTail;

    // the request being executed
    private int expectedPsn;
    private boolean ackOwed;
    private long ackDue;
    private long lastLoneAck = System.nanoTime() - UNREQUESTED_ACK_INTERVAL_NANOS;
    private boolean rxActive;
    private boolean rxIsWrite;
    private int rxPsn;
    private long rxOffset;
    private long rxLength;
    private long rxRemoteAddr;
    private int rxRkey;
    private SoftMemoryRegion rxRegion;
    private boolean readActive;
    private int readPsn;
    private long readAddr;
    private long readLength;
    private long readOffset;
    private int readRkey;
    private SoftMemoryRegion readRegion;

    // the region the last access check passed, and why the last one failed
    private SoftMemoryRegion checkedRegion;
    private String refusal;
    private final UnsafeBuffer atomicView = new UnsafeBuffer(0, 0);

    // UD: the global route header that precedes every datagram's payload in the receive buffer
    private final ByteBuffer grh;
    private final long grhAddress;

    SoftResponder(
        final SoftQueuePair qp,
        final SoftDevice device,
        final SoftProtectionDomain pd,
        final SoftCompletionQueue recvCq,
        final QpType type,
        final QpCapabilities caps)
    {
        this.qp = qp;
        this.device = device;
        this.pd = pd;
        this.recvCq = recvCq;
        this.type = type;
        this.caps = caps;
        rqCapacity = Math.max(1, caps.maxRecvWr());
        final int slots = BitUtil.findNextPositivePowerOfTwo(rqCapacity);
        rqMask = slots - 1;
        rWrIds = new long[slots];
        rSges = new SoftSgeTable(slots, caps.maxRecvSge());
        if (type == QpType.UD)
        {
            grh = ByteBuffer.allocateDirect(GRH_LENGTH).order(ByteOrder.BIG_ENDIAN);
            grhAddress = BufferUtil.address(grh);
        }
        else
        {
            grh = null;
            grhAddress = 0;
        }
    }

    int accessFlags()
    {
        return accessFlags;
    }

    void applyAttributes(final QpAttr attr)
    {
        if (attr.has(QpAttrMask.ACCESS_FLAGS))
        {
            accessFlags = attr.accessFlags();
        }
        if (attr.has(QpAttrMask.MIN_RNR_TIMER))
        {
            minRnrTimer = attr.minRnrTimer() & 0x1f;
        }
        if (attr.has(QpAttrMask.RQ_PSN))
        {
            expectedPsn = attr.rqPsn();
        }
    }

    /** For query: the attributes applyAttributes keeps that verbs report. */
    void report(final QpAttr attr)
    {
        attr.accessFlags(accessFlags).minRnrTimer(minRnrTimer);
    }

    /**
     * Checks one posted receive request and copies it into the next slot.
     */
    void post(final ReceiveWorkRequest wr, final int index)
    {
        final QpState current = qp.state;
        if (current == QpState.RESET)
        {
            throw new PostException(VerbsException.EINVAL, index, qp + " is in RESET: post_recv " +
                "needs INIT or later");
        }
        if (wr.numSge() > caps.maxRecvSge())
        {
            throw new PostException(VerbsException.EINVAL, index, "num_sge=" + wr.numSge() +
                " exceeds max_recv_sge=" + caps.maxRecvSge() + " of " + qp);
        }
        if (rqTail - rqHead >= rqCapacity)
        {
            throw new PostException(VerbsException.ENOMEM, index, "receive queue of " + qp +
                " is full (max_recv_wr=" + caps.maxRecvWr() + ")");
        }
        final int slot = (int)(rqTail & rqMask);
        rWrIds[slot] = wr.wrId();
        rSges.set(slot, wr);
        rqTail++;
    }

    /**
     * Reads and executes the frames the link has.
     */
    int receive(final long now) throws IOException
    {
        int work = 0;
        boolean socketMayHaveMore = true;
        for (SoftLink link = qp.link; link != null && SoftQueuePair.isConnected(qp.state);
            link = qp.link)
        {
            if (readActive && !pumpReadResponse(link))
            {
                break;
            }
            final int available = link.rxAvailable();
            final ByteBuffer rx = link.rx();
            final int at = link.rxStart();
            final int segment = available >= HEADER_LENGTH ? rx.getInt(at + SEGMENT_LENGTH_OFFSET) : 0;
            if (available >= HEADER_LENGTH && !SoftFrameDescriptor.isValidSegment(segment))
            {
                qp.protocolError("frame segment length " + segment + " outside 0.." + MAX_SEGMENT_LENGTH);
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
                    qp.linkFailed("the peer closed the connection");
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
            processFrame(link, at, segment, now);
            if (qp.link != null)
            {
                link.consume(HEADER_LENGTH + segment);
            }
            work++;
        }
        return work;
    }

    private void processFrame(final SoftLink link, final int at, final int segment, final long now)
    {
        final ByteBuffer rx = link.rx();
        final long rxAddress = link.rxAddress();
        final byte opcode = rx.get(at + OPCODE_OFFSET);
        final int psn = rx.getInt(at + PSN_OFFSET);
        final long offset = rx.getInt(at + SEGMENT_OFFSET_OFFSET) & 0xffffffffL;
        final long length = rx.getInt(at + MESSAGE_LENGTH_OFFSET) & 0xffffffffL;
        if (!SoftFrameDescriptor.isValidOpcode(opcode) || offset + segment > length ||
            (type == QpType.UC && opcode != OP_SEND && opcode != OP_SEND_IMM && opcode != OP_WRITE &&
            opcode != OP_WRITE_IMM && opcode != OP_GOODBYE))
        {
            qp.protocolError("invalid frame for a " + type + " QP: opcode=" + opcode + " psn=" + psn + " offset=" +
                offset + " segment=" + segment + " length=" + length);
            return;
        }
        final SoftRequester requester = qp.requester;
        final int ackPsn = rx.getInt(at + ACK_PSN_OFFSET);
        if (type == QpType.RC)
        {
            requester.acknowledge(ackPsn, now);
        }
        final long payloadAddress = rxAddress + at + HEADER_LENGTH;
        if (SoftFrameDescriptor.isRequest(opcode))
        {
            handleRequest(link, rx, at, opcode, psn, segment, offset, length, payloadAddress, now);
            return;
        }
        switch (opcode)
        {
            case OP_ACK:
                final byte syndrome = rx.get(at + SYNDROME_OFFSET);
                if (syndrome != SYNDROME_ACK)
                {
                    requester.handleNak(syndrome, psn, rx.get(at + RNR_TIMER_OFFSET), now);
                }
                break;
            case OP_READ_RESPONSE:
                requester.handleReadResponse(psn, segment, offset, length, payloadAddress);
                break;
            case OP_GOODBYE:
                qp.peerLeft();
                return;
            default:
                requester.handleAtomicResponse(psn, rxAddress + at + COMPARE_ADD_OFFSET);
                break;
        }
        if (qp.state != QpState.ERR)
        {
            requester.acknowledge(ackPsn, now);
        }
    }

    private void handleRequest(
        final SoftLink link,
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
            if (psn != expectedPsn && (type == QpType.RC || psnDelta(psn, expectedPsn) < 0))
            {
                return; // RC: after an RNR NAK, until the NAKed message comes again, or lost frames; a duplicate
            }
            expectedPsn = psn; // UC: messages were lost (a partial one is dropped), this one starts afresh
            rxActive = false;
            if (!beginRequest(link, rx, at, opcode, psn, length))
            {
                return;
            }
        }
        else if (!rxActive || psn != rxPsn || offset != rxOffset)
        {
            return; // the rest of a message that was dropped or NAKed
        }
        else if (length != rxLength)
        {
            // its first frame's length is the one the bounds were checked for
            refuse(link, opcode, psn, SYNDROME_NAK_INVALID_REQUEST, rxRkey, rxRemoteAddr, length,
                "a later frame says the message is " + length + " bytes, its first said " + rxLength);
            return;
        }
        else if (rxIsWrite && rxRegion != null && device.region(rxRkey) != rxRegion)
        {
            refuse(link, opcode, psn, SYNDROME_NAK_REMOTE_ACCESS, rxRkey, rxRemoteAddr, length,
                "its region was deregistered while the message arrived");
            return;
        }
        if (rxIsWrite)
        {
            UNSAFE.copyMemory(payloadAddress, rxRemoteAddr + offset, segment);
        }
        else
        {
            rSges.scatter((int)(rqHead & rqMask), offset, payloadAddress, segment);
        }
        rxOffset = offset + segment;
        if (rxOffset == length)
        {
            rxActive = false;
            rxRegion = null; // not to keep a region that is closed later reachable
            if (opcode != OP_WRITE)
            {
                final boolean withImm = opcode != OP_SEND;
                completeRecv((int)(rqHead & rqMask), WcStatus.SUCCESS,
                    opcode == OP_WRITE_IMM ? WcOpcode.RECV_RDMA_WITH_IMM : WcOpcode.RECV, (int)length,
                    withImm ? rx.getInt(at + IMM_OFFSET) : 0, qp.destQpn(), withImm ? WcFlags.WITH_IMM : 0,
                    (rx.get(at + FLAGS_OFFSET) & FLAG_SOLICITED) != 0);
            }
            executed(now, (rx.get(at + FLAGS_OFFSET) & FLAG_ACK_REQUEST) != 0);
        }
    }

    /**
     * Checks and starts a request at its first frame; executes READ and atomics entirely.
     *
     * @return whether payload follows to be placed.
     */
    private boolean beginRequest(
        final SoftLink link, final ByteBuffer rx, final int at, final byte opcode, final int psn, final long length)
    {
        final long remoteAddr = rx.getLong(at + REMOTE_ADDR_OFFSET);
        final int rkey = rx.getInt(at + RKEY_OFFSET);
        switch (opcode)
        {
            case OP_SEND:
            case OP_SEND_IMM:
            {
                if (!takeReceive(link, psn))
                {
                    return false;
                }
                final int slot = (int)(rqHead & rqMask);
                WcStatus status = rSges.check(slot, device, pd, true);
                if (status == WcStatus.SUCCESS && length > rSges.total(slot))
                {
                    status = WcStatus.LOC_QP_OP_ERR; // as rxe: the copy into the receive fails (malformed WQE)
                }
                if (status != WcStatus.SUCCESS)
                {
                    completeRecv(slot, status, WcOpcode.RECV, 0, 0, qp.destQpn(), 0, false);
                    responderError(link, SYNDROME_NAK_REMOTE_OPERATION, psn);
                    return false;
                }
                startPlacing(psn, length, false, 0, 0, null);
                return true;
            }
            case OP_WRITE:
            case OP_WRITE_IMM:
            {
                final byte syndrome = checkRemoteAccess(AccessFlags.REMOTE_WRITE, rkey, remoteAddr, length);
                if (syndrome != SYNDROME_ACK)
                {
                    refuse(link, opcode, psn, syndrome, rkey, remoteAddr, length, refusal);
                    return false;
                }
                if (opcode == OP_WRITE_IMM && !takeReceive(link, psn))
                {
                    return false;
                }
                startPlacing(psn, length, true, remoteAddr, rkey, checkedRegion);
                return true;
            }
            case OP_READ:
            {
                final byte syndrome = checkRemoteAccess(AccessFlags.REMOTE_READ, rkey, remoteAddr, length);
                if (syndrome != SYNDROME_ACK)
                {
                    refuse(link, opcode, psn, syndrome, rkey, remoteAddr, length, refusal);
                    return false;
                }
                expectedPsn = (expectedPsn + 1) & PSN_MASK;
                readActive = true;
                readPsn = psn;
                readAddr = remoteAddr;
                readLength = length;
                readOffset = 0;
                readRkey = rkey;
                readRegion = checkedRegion;
                return false;
            }
            default:
                executeAtomic(link, rx, at, opcode, psn, remoteAddr, rkey);
                return false;
        }
    }

    /**
     * A message that consumes a receive found none posted: RC answers with an RNR NAK, UC drops it.
     *
     * @return whether a receive is posted.
     */
    private boolean takeReceive(final SoftLink link, final int psn)
    {
        if (rqHead < rqTail)
        {
            return true;
        }
        if (type == QpType.RC)
        {
            writeAck(link, SYNDROME_RNR_NAK, psn, minRnrTimer);
        }
        else
        {
            expectedPsn = (expectedPsn + 1) & PSN_MASK; // UC: the message is silently dropped
        }
        return false;
    }

    private void startPlacing(
        final int psn,
        final long length,
        final boolean write,
        final long remoteAddr,
        final int rkey,
        final SoftMemoryRegion region)
    {
        rxActive = true;
        rxIsWrite = write;
        rxPsn = psn;
        rxOffset = 0;
        rxLength = length;
        rxRemoteAddr = remoteAddr;
        rxRkey = rkey;
        rxRegion = region;
    }

    /**
     * Checks a remote access in rxe's order: the QP's access flags and an RDMA message's length, then the rkey,
     * the region's access flags and bounds.
     *
     * @return {@link SoftFrameDescriptor#SYNDROME_ACK} when allowed ({@link #checkedRegion} is then the region, or
     *         null for a zero-length access, which touches nothing and so checks no key), else the syndrome to NAK
     *         with, {@link #refusal} saying why.
     */
    private byte checkRemoteAccess(final int flag, final int rkey, final long addr, final long length)
    {
        checkedRegion = null;
        if ((accessFlags & flag) == 0)
        {
            refusal = "the QP's access flags lack " + AccessFlags.toString(flag);
            return SYNDROME_NAK_INVALID_REQUEST;
        }
        if (flag != AccessFlags.REMOTE_ATOMIC && length > MAX_RDMA_LENGTH)
        {
            refusal = "longer than the 2^31 bytes of an RDMA message";
            return SYNDROME_NAK_INVALID_REQUEST;
        }
        if (length == 0)
        {
            return SYNDROME_ACK;
        }
        final SoftMemoryRegion region = device.region(rkey);
        if (region == null)
        {
            refusal = "no open region has this rkey";
            return SYNDROME_NAK_REMOTE_ACCESS;
        }
        if (region.softPd() != pd)
        {
            refusal = region + " is of another protection domain";
            return SYNDROME_NAK_REMOTE_ACCESS;
        }
        if ((region.access() & flag) == 0)
        {
            refusal = region + " lacks " + AccessFlags.toString(flag);
            return SYNDROME_NAK_REMOTE_ACCESS;
        }
        if (!region.contains(addr, length))
        {
            refusal = "not inside " + region;
            return SYNDROME_NAK_REMOTE_ACCESS;
        }
        checkedRegion = region;
        return SYNDROME_ACK;
    }

    private void executeAtomic(
        final SoftLink link,
        final ByteBuffer rx,
        final int at,
        final byte opcode,
        final int psn,
        final long addr,
        final int rkey)
    {
        byte syndrome = checkRemoteAccess(AccessFlags.REMOTE_ATOMIC, rkey, addr, Long.BYTES);
        if (syndrome == SYNDROME_ACK && (addr & (Long.BYTES - 1)) != 0)
        {
            refusal = "misaligned"; // checked after the key and bounds, as rxe does
            syndrome = SYNDROME_NAK_INVALID_REQUEST;
        }
        if (syndrome != SYNDROME_ACK)
        {
            refuse(link, opcode, psn, syndrome, rkey, addr, Long.BYTES, refusal);
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
    private boolean pumpReadResponse(final SoftLink link) throws IOException
    {
        do
        {
            final int segment = (int)Math.min(readLength - readOffset, MAX_SEGMENT_LENGTH);
            if (!link.ensureTxRoom(HEADER_LENGTH + segment))
            {
                return false;
            }
            if (readRegion != null && device.region(readRkey) != readRegion)
            {
                readActive = false;
                refuse(link, OP_READ, readPsn, SYNDROME_NAK_REMOTE_ACCESS, readRkey, readAddr, readLength,
                    "its region was deregistered while the response was sent");
                return true;
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
        readRegion = null;
        return true;
    }

    private void executed(final long now, final boolean ackRequested)
    {
        expectedPsn = (expectedPsn + 1) & PSN_MASK;
        if (type == QpType.RC)
        {
            long due = now + ACK_DELAY_NANOS;
            final long nextUnrequested = lastLoneAck + UNREQUESTED_ACK_INTERVAL_NANOS;
            if (!ackRequested && nextUnrequested - due > 0)
            {
                due = nextUnrequested;
            }
            if (!ackOwed || due - ackDue < 0)
            {
                ackDue = due;
            }
            ackOwed = true;
        }
    }

    /**
     * Refuses a request a peer may not make: logs why (RC at WARN, once, as the QP then enters ERR; UC, which drops
     * it and goes on, at DEBUG) and NAKs it or drops it.
     */
    private void refuse(
        final SoftLink link,
        final byte opcode,
        final int psn,
        final byte syndrome,
        final int rkey,
        final long addr,
        final long length,
        final String reason)
    {
        rxActive = false;
        if (type == QpType.RC ? LOG.isWarnEnabled() : LOG.isDebugEnabled())
        {
            final String format = "{}: refused {} PSN {} from {} ({} bytes at 0x{}, rkey 0x{}): {}; {}";
            final Object[] args = { qp, opcodeName(opcode), psn, link.peer(), length, Long.toHexString(addr),
                Integer.toHexString(rkey), reason, type == QpType.RC ? "NAK " +
                SoftRequester.nakStatus(syndrome) + ", QP to ERR" : "message dropped" };
            if (type == QpType.RC)
            {
                LOG.warn(format, args);
            }
            else
            {
                LOG.debug(format, args);
            }
        }
        responderError(link, syndrome, psn);
    }

    private static String opcodeName(final byte opcode)
    {
        return switch (opcode)
        {
            case OP_SEND -> "SEND";
            case OP_SEND_IMM -> "SEND with immediate";
            case OP_WRITE -> "RDMA WRITE";
            case OP_WRITE_IMM -> "RDMA WRITE with immediate";
            case OP_READ -> "RDMA READ";
            case OP_CMP_SWAP -> "atomic compare and swap";
            default -> "atomic fetch and add";
        };
    }

    /**
     * A request failed at the responder: RC NAKs it and enters ERR; UC drops the message.
     */
    private void responderError(final SoftLink link, final byte syndrome, final int psn)
    {
        if (type == QpType.RC)
        {
            writeAck(link, syndrome, psn, 0);
            qp.enterError();
        }
        else
        {
            expectedPsn = (expectedPsn + 1) & PSN_MASK;
        }
    }

    /**
     * @return whether an ACK is owed and comes due within {@code windowNanos} from {@code now} (not already: one
     *         that is due and still owed waits for room on the link).
     */
    boolean ackDueWithin(final long now, final long windowNanos)
    {
        return ackOwed && ackDue - now > 0 && ackDue - now <= windowNanos;
    }

    /**
     * Sends the ACK no frame has carried by the time it is due, if the transmit buffer has room.
     *
     * @return whether it was written.
     */
    boolean writeOwedAck(final SoftLink link, final long now) throws IOException
    {
        if (ackOwed && now - ackDue >= 0 && writeOwedAckNow(link))
        {
            lastLoneAck = now;
            return true;
        }
        return false;
    }

    /**
     * Sends the ACK still owed at once, delay or not: for a QP about to stop driving its link, which an HCA
     * would have acknowledged on.
     *
     * @return whether it was written.
     */
    boolean writeOwedAckNow(final SoftLink link) throws IOException
    {
        if (ackOwed && link.ensureTxRoom(HEADER_LENGTH))
        {
            writeAck(link, SYNDROME_ACK, (expectedPsn - 1) & PSN_MASK, 0);
            return true;
        }
        return false;
    }

    /**
     * Ends the link for a QP being destroyed or reset: the goodbye carries the ACK still owed, as every frame does.
     *
     * @return whether it was written.
     */
    boolean writeGoodbye(final SoftLink link) throws IOException
    {
        if (!link.ensureTxRoom(HEADER_LENGTH))
        {
            return false;
        }
        putHeaderFrame(link, OP_GOODBYE, 0);
        return true;
    }

    private void writeAck(final SoftLink link, final byte syndrome, final int psn, final int rnrTimer)
    {
        final int at = putHeaderFrame(link, OP_ACK, psn);
        link.tx().put(at + SYNDROME_OFFSET, syndrome).put(at + RNR_TIMER_OFFSET, (byte)rnrTimer);
    }

    /**
     * Appends a frame that is a header alone (an ACK, a goodbye) to the transmit buffer, which has room for it.
     *
     * @return where it starts.
     */
    private int putHeaderFrame(final SoftLink link, final byte opcode, final int psn)
    {
        final ByteBuffer tx = link.tx();
        final int at = tx.position();
        putHeader(tx, at, opcode, 0, psn, 0, 0, 0);
        tx.position(at + HEADER_LENGTH);
        return at;
    }

    /**
     * Writes a frame header at {@code at}, carrying the cumulative ACK of what this responder has executed.
     */
    void putHeader(
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

    /**
     * Receives one UD datagram the QP accepted (right state and Q_Key): into the next posted receive, behind a
     * GRH, as verbs do; dropped if no receive is posted.
     */
    void deliverDatagram(final ByteBuffer datagram)
    {
        if (rqHead == rqTail)
        {
            return; // UD drops silently: no receive posted
        }
        final int slot = (int)(rqHead & rqMask);
        final int payload = datagram.getInt(UD_PAYLOAD_LENGTH_OFFSET);
        final int total = GRH_LENGTH + payload;
        WcStatus status = rSges.check(slot, device, pd, true);
        if (status == WcStatus.SUCCESS && total > rSges.total(slot))
        {
            status = WcStatus.LOC_QP_OP_ERR; // as rxe: the copy into the receive fails (malformed WQE)
        }
        if (status != WcStatus.SUCCESS)
        {
            completeRecv(slot, status, WcOpcode.RECV, 0, 0, 0, 0, false);
            qp.enterError();
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
        if (!recvCq.push(rWrIds[slot], status, opcode, byteLen, imm, qp.qpNum(), srcQp, flags, solicited) &&
            status == WcStatus.SUCCESS)
        {
            qp.enterError();
        }
    }

    /**
     * Completes every posted receive with WR_FLUSH_ERR and abandons the request in progress.
     */
    void flush()
    {
        while (rqHead < rqTail)
        {
            completeRecv((int)(rqHead & rqMask), WcStatus.WR_FLUSH_ERR, WcOpcode.RECV, 0, 0, qp.destQpn(), 0,
                false);
        }
        rxActive = false;
        readActive = false;
        rxRegion = null;
        readRegion = null;
        ackOwed = false;
    }

    void reset()
    {
        rqHead = rqTail = 0;
        rxActive = false;
        readActive = false;
        rxRegion = null;
        readRegion = null;
        ackOwed = false;
    }
}
