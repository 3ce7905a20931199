package io.ibex.rdma.provider.soft.qp;

import io.ibex.rdma.provider.soft.SoftCompletionQueue;
import io.ibex.rdma.provider.soft.SoftDevice;
import io.ibex.rdma.provider.soft.SoftProtectionDomain;
import io.ibex.rdma.verbs.Gid;
import io.ibex.rdma.verbs.PostException;
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

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static io.ibex.rdma.provider.soft.wire.SoftFrameDescriptor.*;
import static io.ibex.rdma.provider.soft.wire.SoftUnsafe.UNSAFE;

/**
 * The receive queue of a {@link SoftQueuePair}: posted receives, copied into preallocated slots, consumed in order
 * by the messages that arrive (the receive at the head) and completed into the receive CQ; and the delivery of a
 * UD datagram into the head receive behind its GRH. Not thread-safe: the QP lock guards it. Allocates nothing after
 * construction.
 */
final class SoftReceiveQueue
{
    private final SoftQueuePair qp;
    private final SoftDevice device;
    private final SoftProtectionDomain pd;
    private final SoftCompletionQueue recvCq;
    private final QpCapabilities caps;

    // [head, tail) posted and not yet consumed
    private final int capacity;
    private final int mask; // a receive's slot is its index masked: the arrays round max_recv_wr up to a power of 2
    private final long[] wrIds;
    private final SoftSgeTable sges;
    private long head;
    private long tail;

    // UD: the global route header that precedes every datagram's payload in the receive buffer
    private final ByteBuffer grh;
    private final long grhAddress;

    SoftReceiveQueue(
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
        this.caps = caps;
        capacity = Math.max(1, caps.maxRecvWr());
        final int slots = BitUtil.findNextPositivePowerOfTwo(capacity);
        mask = slots - 1;
        wrIds = new long[slots];
        sges = new SoftSgeTable(slots, caps.maxRecvSge());
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
        if (tail - head >= capacity)
        {
            throw new PostException(VerbsException.ENOMEM, index, "receive queue of " + qp +
                " is full (max_recv_wr=" + caps.maxRecvWr() + ")");
        }
        final int slot = (int)(tail & mask);
        wrIds[slot] = wr.wrId();
        sges.set(slot, wr);
        tail++;
    }

    /**
     * @return whether a receive is posted.
     */
    boolean hasReceive()
    {
        return head < tail;
    }

    /**
     * Checks the head receive for a message of {@code length} bytes, as rxe does when it starts to copy into it.
     *
     * @return SUCCESS, or the status to complete the receive with: its memory is not all registered locally
     *         writable in the QP's PD, or it is too short (LOC_QP_OP_ERR, a malformed WQE).
     */
    WcStatus checkHead(final long length)
    {
        final int slot = (int)(head & mask);
        final WcStatus status = sges.check(slot, device, pd, true);
        return status == WcStatus.SUCCESS && length > sges.total(slot) ? WcStatus.LOC_QP_OP_ERR : status;
    }

    /**
     * Copies {@code length} bytes from {@code address} into the head receive, at {@code offset} in its buffers.
     */
    void scatter(final long offset, final long address, final int length)
    {
        sges.scatter((int)(head & mask), offset, address, length);
    }

    /**
     * Consumes the head receive with a completion; the QP enters ERR if a successful one finds the CQ full.
     */
    void complete(
        final WcStatus status,
        final WcOpcode opcode,
        final int byteLen,
        final int imm,
        final int srcQp,
        final int flags,
        final boolean solicited)
    {
        final int slot = (int)(head & mask);
        head++;
        if (!recvCq.push(wrIds[slot], status, opcode, byteLen, imm, qp.qpNum(), srcQp, flags, solicited) &&
            status == WcStatus.SUCCESS)
        {
            qp.enterError();
        }
    }

    /**
     * Receives one UD datagram the QP accepted (right state and Q_Key): into the head receive, behind a GRH, as
     * verbs do; dropped if no receive is posted.
     */
    void deliverDatagram(final ByteBuffer datagram)
    {
        if (!hasReceive())
        {
            return; // UD drops silently: no receive posted
        }
        final int payload = datagram.getInt(UD_PAYLOAD_LENGTH_OFFSET);
        final int total = GRH_LENGTH + payload;
        final WcStatus status = checkHead(total);
        if (status != WcStatus.SUCCESS)
        {
            complete(status, WcOpcode.RECV, 0, 0, 0, 0, false);
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
        scatter(0, grhAddress, GRH_LENGTH);
        scatter(GRH_LENGTH, datagramAddress + UD_HEADER_LENGTH, payload);
        final boolean withImm = datagram.get(UD_OPCODE_OFFSET) == OP_SEND_IMM;
        complete(WcStatus.SUCCESS, WcOpcode.RECV, total, withImm ? datagram.getInt(UD_IMM_OFFSET) : 0,
            datagram.getInt(UD_SRC_QPN_OFFSET), WcFlags.GRH | (withImm ? WcFlags.WITH_IMM : 0),
            (datagram.get(UD_FLAGS_OFFSET) & FLAG_SOLICITED) != 0);
    }

    /**
     * Completes every posted receive with WR_FLUSH_ERR.
     */
    void flush()
    {
        while (hasReceive())
        {
            complete(WcStatus.WR_FLUSH_ERR, WcOpcode.RECV, 0, 0, qp.destQpn(), 0, false);
        }
    }

    /**
     * Forgets every posted receive, without completions: the QP went to RESET.
     */
    void reset()
    {
        head = tail = 0;
    }
}
