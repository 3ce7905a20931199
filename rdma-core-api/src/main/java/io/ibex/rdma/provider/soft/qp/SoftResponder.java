package io.ibex.rdma.provider.soft.qp;

import io.ibex.rdma.provider.soft.SoftDevice;
import io.ibex.rdma.provider.soft.SoftMemoryRegion;
import io.ibex.rdma.provider.soft.SoftProtectionDomain;
import io.ibex.rdma.provider.soft.wire.SoftFrameDescriptor;
import io.ibex.rdma.provider.soft.wire.SoftLink;
import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpAttrMask;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.WcFlags;
import io.ibex.rdma.verbs.WcOpcode;
import io.ibex.rdma.verbs.WcStatus;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;

import static io.ibex.rdma.provider.soft.wire.SoftFrameDescriptor.*;
import static io.ibex.rdma.provider.soft.wire.SoftUnsafe.UNSAFE;

/**
 * The receive side of a {@link SoftQueuePair}: reads frames off the link (responses go to the
 * {@link SoftRequester}), executes requests (SEND into a posted receive, WRITE, READ, atomics) after checking
 * remote access, and answers them (READ responses, atomic responses, NAKs).
 * The posted receives are the {@link SoftReceiveQueue}'s; what is acknowledged, and when, is {@link SoftAcks}'.
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
 * <p>
 * One class, though long: the per-opcode steps share the request in progress (its placement, or the READ response
 * being sent) and the access check's outcome, and each may end in a NAK that resets them.
 */
public final class SoftResponder
{
    private static final Logger LOG = LoggerFactory.getLogger(SoftResponder.class);

    /** The longest RDMA WRITE or READ message: IB's 2^31 bytes, which rxe checks before the rkey. */
    static final long MAX_RDMA_LENGTH = 1L << 31;

    private final SoftQueuePair qp;
    private final SoftQpConnection connection;
    private final SoftDevice device;
    private final SoftProtectionDomain pd;
    private final QpType type;

    private int accessFlags;
    private int minRnrTimer;

    private final SoftReceiveQueue receives;
    private final SoftAcks acks;

    // the request being executed
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

    SoftResponder(
        final SoftQueuePair qp,
        final SoftQpConnection connection,
        final SoftDevice device,
        final SoftProtectionDomain pd,
        final SoftReceiveQueue receives,
        final SoftAcks acks,
        final QpType type)
    {
        this.qp = qp;
        this.connection = connection;
        this.device = device;
        this.pd = pd;
        this.type = type;
        this.receives = receives;
        this.acks = acks;
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
            acks.expect(attr.rqPsn());
        }
    }

    /** For query: the attributes applyAttributes keeps that verbs report. */
    void report(final QpAttr attr)
    {
        attr.accessFlags(accessFlags).minRnrTimer(minRnrTimer);
    }

    /**
     * Reads and executes the frames the link has.
     */
    int receive(final long now) throws IOException
    {
        int work = 0;
        boolean socketMayHaveMore = true;
        for (SoftLink link = connection.link; link != null && SoftQueuePair.isConnected(qp.state);
            link = connection.link)
        {
            if (readActive && !pumpReadResponse(link))
            {
                break;
            }
            final int available = link.rxAvailable();
            final ByteBuffer rx = link.rx();
            final int at = link.rxStart();
            final int segment = available >= HEADER_LENGTH ? rx.getInt(at + SEGMENT_LENGTH_OFFSET) : 0;
            if (available >= HEADER_LENGTH && !isValidSegment(segment))
            {
                connection.protocolError("frame segment length " + segment + " outside 0.." + MAX_SEGMENT_LENGTH);
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
                    connection.linkFailed("the peer closed the connection");
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
            if (connection.link != null)
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
            connection.protocolError("invalid frame for a " + type + " QP: opcode=" + opcode + " psn=" + psn + " offset=" +
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
                connection.peerLeft();
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
            if (psn != acks.expectedPsn() && (type == QpType.RC || psnDelta(psn, acks.expectedPsn()) < 0))
            {
                return; // RC: after an RNR NAK, until the NAKed message comes again, or lost frames; a duplicate
            }
            acks.expect(psn); // UC: messages were lost (a partial one is dropped), this one starts afresh
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
            receives.scatter(offset, payloadAddress, segment);
        }
        rxOffset = offset + segment;
        if (rxOffset == length)
        {
            rxActive = false;
            rxRegion = null; // not to keep a region that is closed later reachable
            if (opcode != OP_WRITE)
            {
                final boolean withImm = opcode != OP_SEND;
                receives.complete(WcStatus.SUCCESS,
                    opcode == OP_WRITE_IMM ? WcOpcode.RECV_RDMA_WITH_IMM : WcOpcode.RECV, (int)length,
                    withImm ? rx.getInt(at + IMM_OFFSET) : 0, qp.destQpn(), withImm ? WcFlags.WITH_IMM : 0,
                    (rx.get(at + FLAGS_OFFSET) & FLAG_SOLICITED) != 0);
            }
            acks.executed(now, (rx.get(at + FLAGS_OFFSET) & FLAG_ACK_REQUEST) != 0);
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
                final WcStatus status = receives.checkHead(length);
                if (status != WcStatus.SUCCESS)
                {
                    receives.complete(status, WcOpcode.RECV, 0, 0, qp.destQpn(), 0, false);
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
                acks.advance();
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
        if (receives.hasReceive())
        {
            return true;
        }
        if (type == QpType.RC)
        {
            acks.writeAck(link, SYNDROME_RNR_NAK, psn, minRnrTimer);
        }
        else
        {
            acks.advance(); // UC: the message is silently dropped
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
        acks.advance();
        final ByteBuffer tx = link.tx();
        final int out = tx.position();
        acks.putHeader(tx, out, OP_ATOMIC_RESPONSE, 0, psn, 0, 0, Long.BYTES);
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
            acks.putHeader(tx, at, OP_READ_RESPONSE, 0, readPsn, segment, readOffset, readLength);
            UNSAFE.copyMemory(readAddr + readOffset, link.txAddress() + at + HEADER_LENGTH, segment);
            tx.position(at + HEADER_LENGTH + segment);
            readOffset += segment;
        }
        while (readOffset < readLength);
        readActive = false;
        readRegion = null;
        return true;
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
            acks.writeAck(link, syndrome, psn, 0);
            qp.enterError();
        }
        else
        {
            acks.advance();
        }
    }

    /**
     * Completes every posted receive with WR_FLUSH_ERR and abandons the request in progress.
     */
    void flush()
    {
        receives.flush();
        rxActive = false;
        readActive = false;
        rxRegion = null;
        readRegion = null;
        acks.forget();
    }

    void reset()
    {
        receives.reset();
        rxActive = false;
        readActive = false;
        rxRegion = null;
        readRegion = null;
        acks.forget();
    }
}
