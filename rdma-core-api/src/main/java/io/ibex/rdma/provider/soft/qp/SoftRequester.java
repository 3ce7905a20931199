package io.ibex.rdma.provider.soft.qp;

import io.ibex.rdma.provider.soft.SoftAddressHandle;
import io.ibex.rdma.provider.soft.SoftCompletionQueue;
import io.ibex.rdma.provider.soft.SoftDevice;
import io.ibex.rdma.provider.soft.SoftMemoryRegion;
import io.ibex.rdma.provider.soft.SoftProtectionDomain;
import io.ibex.rdma.provider.soft.wire.SoftLink;
import io.ibex.rdma.provider.soft.wire.SoftPeerRegions;
import io.ibex.rdma.provider.soft.wire.SoftSharedMemoryWire;
import io.ibex.rdma.spi.ProviderChecks;
import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.Gid;
import io.ibex.rdma.verbs.Mtu;
import io.ibex.rdma.verbs.PostException;
import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpAttrMask;
import io.ibex.rdma.verbs.QpCapabilities;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.ScatterGatherEntry;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.VerbsException;
import io.ibex.rdma.verbs.WcStatus;
import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static io.ibex.rdma.provider.soft.wire.SoftFrameDescriptor.*;
import static io.ibex.rdma.provider.soft.wire.SoftUnsafe.UNSAFE;

/**
 * The send side of a {@link SoftQueuePair}: the send queue, transmission of requests (RC/UC frames on the
 * link, UD datagrams on the device's socket), and what the peer answers: ACKs, NAKs (RNR: go back and resend
 * once the RNR timer expires), READ and atomic responses, plus the transport timer.
 * <p>
 * Every method runs with the QP lock held. Work requests are copied into preallocated slots at post time, so
 * posting and transmitting allocate nothing.
 * <p>
 * One class, though long: the send queue's slots, the PSNs and the retry state are one state machine (rxe's
 * requester and completer), which every step here reads and moves; split, each part would reach into the other's
 * arrays.
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
    private final SoftAcks acks;
    private final SoftDevice device;
    private final SoftProtectionDomain pd;
    private final SoftCompletionQueue sendCq;
    private final QpType type;
    private final QpCapabilities caps;
    private final boolean sqSigAll;

    private int timeout;
    private int retryCnt;
    private int rnrRetry;
    private int maxRdAtomic = 1;

    // send queue: [sqHead, sqTransmit) sent and awaiting completion, [sqTransmit, sqTail) not yet sent; a request's
    // slot is its index masked (the arrays round max_send_wr up to a power of two: no division on the hot path)
    private final int sqCapacity;
    private final int sqMask;
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
    private long directCopies;
    private long rnrDeadline;
    private long lastAckProgress;

    // UD: one datagram is built at a time
    private final ByteBuffer udTx;
    private final long udTxAddress;

    SoftRequester(
        final SoftQueuePair qp,
        final SoftQpConnection connection,
        final SoftAcks acks,
        final SoftDevice device,
        final SoftProtectionDomain pd,
        final SoftCompletionQueue sendCq,
        final QpType type,
        final QpCapabilities caps,
        final boolean sqSigAll)
    {
        this.qp = qp;
        this.connection = connection;
        this.acks = acks;
        this.device = device;
        this.pd = pd;
        this.sendCq = sendCq;
        this.type = type;
        this.caps = caps;
        this.sqSigAll = sqSigAll;
        sqCapacity = Math.max(1, caps.maxSendWr());
        final int slots = BitUtil.findNextPositivePowerOfTwo(sqCapacity);
        sqMask = slots - 1;
        sWrIds = new long[slots];
        sOpcodes = new SendOpcode[slots];
        sFlags = new int[slots];
        sImm = new int[slots];
        sRemoteAddrs = new long[slots];
        sRkeys = new int[slots];
        sCompareAdds = new long[slots];
        sSwaps = new long[slots];
        sPsns = new int[slots];
        sLengths = new long[slots];
        sInline = new boolean[slots];
        sResponded = new boolean[slots];
        sAhs = new SoftAddressHandle[slots];
        sRemoteQpns = new int[slots];
        sRemoteQkeys = new int[slots];
        sSges = new SoftSgeTable(slots, caps.maxSendSge());
        inlineData = ByteBuffer.allocateDirect(Math.max(1, slots * caps.maxInlineData()));
        inlineAddress = BufferUtil.address(inlineData);
        if (type == QpType.UD)
        {
            udTx = ByteBuffer.allocateDirect(UD_HEADER_LENGTH + Mtu.MTU_4096.bytes()).order(ByteOrder.LITTLE_ENDIAN);
            udTxAddress = BufferUtil.address(udTx);
        }
        else
        {
            udTx = null;
            udTxAddress = 0;
        }
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
     * Checks one posted send request and copies it into the next slot.
     */
    void post(final SendWorkRequest wr, final int index)
    {
        final long totalLength = wr.totalLength(); // once: a walk of the entries, each an object of its own
        check(wr, index, totalLength);
        enqueue(wr, totalLength);
    }

    private void check(final SendWorkRequest wr, final int index, final long totalLength)
    {
        final QpState current = qp.state;
        if (current != QpState.RTS && current != QpState.ERR)
        {
            throw new PostException(VerbsException.EINVAL, index, qp + " is in " + current +
                ": post_send needs RTS");
        }
        final SendOpcode opcode = wr.opcode();
        if ((type == QpType.UD && opcode != SendOpcode.SEND && opcode != SendOpcode.SEND_WITH_IMM) ||
            (type == QpType.UC && (opcode == SendOpcode.RDMA_READ || opcode.isAtomic())))
        {
            throw new PostException(VerbsException.EINVAL, index, "opcode " + opcode + " is not valid on a " + type +
                " QP (" + qp + ")");
        }
        if (wr.numSge() > caps.maxSendSge())
        {
            throw new PostException(VerbsException.EINVAL, index, "num_sge=" + wr.numSge() + " exceeds max_send_sge=" +
                caps.maxSendSge() + " of " + qp);
        }
        if ((wr.sendFlags() & SendFlags.INLINE) != 0 && totalLength > caps.maxInlineData())
        {
            throw new PostException(VerbsException.EINVAL, index, "inline data of " + totalLength +
                " bytes exceeds max_inline_data=" + caps.maxInlineData() + " of " + qp);
        }
        if ((wr.sendFlags() & SendFlags.INLINE) != 0)
        {
            for (int i = 0, n = wr.numSge(); i < n; i++)
            {
                final ScatterGatherEntry sge = wr.sge(i);
                final SoftMemoryRegion region = device.region(sge.lkey());
                final String problem = ProviderChecks.inlineProblem(sge, region != null && region.softPd() == pd ?
                    region : null);
                if (problem != null)
                {
                    throw new PostException(VerbsException.EINVAL, index, problem + " (" + qp + ")");
                }
            }
        }
        if (totalLength > SoftDevice.MAX_MSG_SIZE)
        {
            throw new PostException(VerbsException.EINVAL, index, "message of " + totalLength +
                " bytes exceeds max_msg_sz=" + SoftDevice.MAX_MSG_SIZE);
        }
        if (type == QpType.UD && (!(wr.ah() instanceof SoftAddressHandle) || wr.ah().isClosed() ||
            wr.ah().pd() != pd))
        {
            throw new PostException(VerbsException.EINVAL, index, "UD send on " + qp +
                " needs an open address handle of " + pd + ", got " + wr.ah());
        }
        if (sqTail - sqHead >= sqCapacity)
        {
            throw new PostException(VerbsException.ENOMEM, index, "send queue of " + qp +
                " is full (max_send_wr=" + caps.maxSendWr() + ")");
        }
    }

    /**
     * Copies a checked work request into the next slot: inline data now, scatter/gather entries by reference.
     */
    private void enqueue(final SendWorkRequest wr, final long totalLength)
    {
        final int slot = (int)(sqTail & sqMask);
        sWrIds[slot] = wr.wrId();
        sOpcodes[slot] = wr.opcode();
        sFlags[slot] = wr.sendFlags();
        sImm[slot] = wr.immData();
        sRemoteAddrs[slot] = wr.remoteAddr();
        sRkeys[slot] = wr.rkey();
        sCompareAdds[slot] = wr.compareAdd();
        sSwaps[slot] = wr.swap();
        sResponded[slot] = false;
        sLengths[slot] = wr.opcode().isAtomic() ? Long.BYTES : totalLength;
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
        while (sqTransmit < sqTail && qp.state == QpState.RTS)
        {
            final int slot = (int)(sqTransmit & sqMask);
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
                if (sqTransmit == sqHead && copyDirectly(link, slot, opcode))
                {
                    work++;
                    sqTransmit++;
                    completeSend(WcStatus.SUCCESS);
                    continue;
                }
                sPsns[slot] = nextPsn;
            }
            if (!writeRequest(link, slot, opcode))
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
        final long length = sLengths[slot];
        final long address = peer.enter(shared.peerGate(), sRkeys[slot], sRemoteAddrs[slot], length,
            write ? AccessFlags.REMOTE_WRITE : AccessFlags.REMOTE_READ);
        if (address == 0)
        {
            return false;
        }
        try
        {
            if (write)
            {
                gather(slot, 0, address, (int)length); // enter bounds it by a mapping, which is shorter than 2^31
            }
            else
            {
                sSges.scatter(slot, 0, address, (int)length);
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
            acks.putHeader(tx, at, frameOpcode, last ? lastFrameFlags(slot) : 0, sPsns[slot], segment, txOffset,
                length);
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

    /**
     * The flags of a message's last frame: SOLICITED as posted; ACK_REQUEST when the application will wait for this
     * completion or for room in the send queue, so only a stream of unsignaled messages is acknowledged in bulk.
     */
    private int lastFrameFlags(final int slot)
    {
        final int flags = sFlags[slot];
        final boolean ackRequest = type == QpType.RC &&
            (sqSigAll || (flags & SendFlags.SIGNALED) != 0 || 2 * (sqTail - sqHead) >= sqCapacity);
        return ((flags & SendFlags.SOLICITED) != 0 ? FLAG_SOLICITED : 0) | (ackRequest ? FLAG_ACK_REQUEST : 0);
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

    /**
     * UD: sends every queued request as one datagram and completes it at once (UD has no ACKs).
     *
     * @param qkey the QP's own Q_Key, for requests that ask for it.
     */
    void transmitDatagrams(final int qkey)
    {
        while (sqTransmit < sqTail)
        {
            final int slot = (int)(sqTransmit & sqMask);
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
                sendDatagram(slot, (int)length, qkey);
            }
            sqTransmit++;
            completeSend(WcStatus.SUCCESS);
        }
    }

    private void sendDatagram(final int slot, final int length, final int qkey)
    {
        final ByteBuffer tx = udTx;
        final SoftAddressHandle ah = sAhs[slot];
        final int remoteQkey = sRemoteQkeys[slot];
        tx.clear();
        tx.put(UD_OPCODE_OFFSET, FRAME_OPCODES[sOpcodes[slot].ordinal()]);
        tx.put(UD_FLAGS_OFFSET, (sFlags[slot] & SendFlags.SOLICITED) != 0 ? FLAG_SOLICITED : 0);
        tx.putInt(UD_SRC_QPN_OFFSET, qp.qpNum());
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
            LOG.debug("{}: UD datagram to {} lost: {}", qp, ah.target(), ex.toString());
        }
    }

    /**
     * Completes the send WQE at the head of the queue.
     */
    private void completeSend(final WcStatus status)
    {
        final int slot = (int)(sqHead & sqMask);
        sqHead++;
        if (status != WcStatus.SUCCESS || sqSigAll || (sFlags[slot] & SendFlags.SIGNALED) != 0)
        {
            if (!sendCq.push(sWrIds[slot], status, sOpcodes[slot].completionOpcode(), (int)sLengths[slot], 0,
                qp.qpNum(), 0, 0, false) && status == WcStatus.SUCCESS)
            {
                qp.enterError();
            }
        }
    }

    /**
     * Completes, in order, the sent WQEs the peer has acknowledged up to {@code ackPsn}.
     */
    void acknowledge(final int ackPsn, final long now)
    {
        boolean progressed = false;
        while (sqHead < sqTransmit && qp.state != QpState.ERR)
        {
            final int slot = (int)(sqHead & sqMask);
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

    /**
     * A NAK for {@code psn}: an RNR NAK rewinds to that message once the RNR timer expires (while retries
     * last); any other NAK fails it.
     */
    void handleNak(final int syndrome, final int psn, final int rnrTimer, final long now)
    {
        final long index = findSent(psn);
        if (index < 0)
        {
            return; // a NAK for something no longer outstanding
        }
        if (syndrome != SYNDROME_RNR_NAK)
        {
            failSend(index, nakStatus(syndrome));
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
            final SendOpcode opcode = sOpcodes[(int)(i & sqMask)];
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
        final long index = findSent(psn);
        final int slot = (int)(Math.max(0, index) & sqMask);
        if (index < 0 || sOpcodes[slot] != SendOpcode.RDMA_READ || length != sLengths[slot])
        {
            connection.protocolError("READ response for PSN " + psn + " (length " + length +
                ") matches no outstanding READ");
            return;
        }
        sSges.scatter(slot, offset, payloadAddress, segment);
        if (offset + segment == length)
        {
            sResponded[slot] = true;
            outstandingReads--;
        }
    }

    void handleAtomicResponse(final int psn, final long originalAddress)
    {
        final long index = findSent(psn);
        final int slot = (int)(Math.max(0, index) & sqMask);
        if (index < 0 || !sOpcodes[slot].isAtomic())
        {
            connection.protocolError("atomic response for PSN " + psn + " matches no outstanding atomic");
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
            if (sPsns[(int)(i & sqMask)] == psn)
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
        qp.enterError();
    }

    /**
     * @return the RDMA WRITEs and READs this QP copied directly into or out of a peer's shared region.
     */
    long directCopies()
    {
        return directCopies;
    }

    boolean hasQueued()
    {
        return sqHead < sqTail;
    }

    /**
     * The oldest queued WQE completes with {@code status}; the QP enters ERR.
     */
    void failOldest(final WcStatus status)
    {
        failSend(sqHead, status);
    }

    /**
     * RC: fails the oldest unacknowledged request with RETRY_EXC_ERR once the peer has been silent for the
     * transport timeout times (retry_cnt + 1).
     */
    void checkTransportTimer(final long now)
    {
        if (type == QpType.RC && timeout != 0 && sqHead < sqTransmit && rnrDeadline == 0)
        {
            final long limit = Math.max(TRANSPORT_TIMER_UNIT_NANOS << Math.min(timeout, 31), MIN_TRANSPORT_TIMER_NANOS) *
                (retryCnt + 1L);
            if (now - lastAckProgress > limit)
            {
                LOG.warn("{}: no response from QP 0x{} at {} for {} ms (timeout={}, retry_cnt={}): RETRY_EXC_ERR",
                    qp, Integer.toHexString(qp.destQpn()), connection.remoteAddress(), limit / 1_000_000, timeout,
                    retryCnt);
                failSend(sqHead, WcStatus.RETRY_EXC_ERR);
            }
        }
    }

    /**
     * Completes every queued WQE with WR_FLUSH_ERR and forgets what was in flight.
     */
    void flush()
    {
        while (sqHead < sqTail)
        {
            completeSend(WcStatus.WR_FLUSH_ERR);
        }
        sqTransmit = sqTail;
        txOffset = 0;
        outstandingReads = 0;
        rnrDeadline = 0;
    }

    void reset()
    {
        sqHead = sqTransmit = sqTail = 0;
        txOffset = 0;
        outstandingReads = 0;
        rnrDeadline = 0;
    }
}
