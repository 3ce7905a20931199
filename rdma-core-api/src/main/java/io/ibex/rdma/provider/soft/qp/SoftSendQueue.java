package io.ibex.rdma.provider.soft.qp;

import io.ibex.rdma.provider.soft.SoftAddressHandle;
import io.ibex.rdma.provider.soft.SoftCompletionQueue;
import io.ibex.rdma.provider.soft.SoftDevice;
import io.ibex.rdma.provider.soft.SoftMemoryRegion;
import io.ibex.rdma.provider.soft.SoftProtectionDomain;
import io.ibex.rdma.spi.ProviderChecks;
import io.ibex.rdma.verbs.PostException;
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

import java.nio.ByteBuffer;

import static io.ibex.rdma.provider.soft.wire.SoftUnsafe.UNSAFE;

/**
 * The send queue of a {@link SoftQueuePair}: posted send requests, checked and copied into preallocated slots
 * (inline data copied, scatter/gather entries by reference), and their completions into the send CQ, in order.
 * The {@link SoftRequester} and the {@link SoftDatagramSender} transmit from it and read a request's fields straight
 * from its arrays, by slot.
 * <p>
 * Not thread-safe: the QP lock guards it. Allocates nothing after construction.
 */
final class SoftSendQueue
{
    // [head, transmit) sent and awaiting completion, [transmit, tail) not yet sent; a request's slot is its index
    // masked (the arrays round max_send_wr up to a power of two: no division on the hot path)
    long head;
    long transmit;
    long tail;
    final int capacity;
    final int mask;
    final long[] wrIds;
    final SendOpcode[] opcodes;
    final int[] flags;
    final int[] imm;
    final long[] remoteAddrs;
    final int[] rkeys;
    final long[] compareAdds;
    final long[] swaps;
    final int[] psns;
    final long[] lengths;
    final boolean[] inline;
    final boolean[] responded;
    final SoftAddressHandle[] ahs;
    final int[] remoteQpns;
    final int[] remoteQkeys;
    final SoftSgeTable sges;

    private final SoftQueuePair qp;
    private final SoftDevice device;
    private final SoftProtectionDomain pd;
    private final SoftCompletionQueue sendCq;
    private final QpType type;
    private final QpCapabilities caps;
    private final boolean sqSigAll;
    /** Holds the inline data of each slot; referenced so that its memory lives as long as the queue. */
    private final ByteBuffer inlineData;
    private final long inlineAddress;

    SoftSendQueue(
        final SoftQueuePair qp,
        final SoftDevice device,
        final SoftProtectionDomain pd,
        final SoftCompletionQueue sendCq,
        final QpType type,
        final QpCapabilities caps,
        final boolean sqSigAll)
    {
        this.qp = qp;
        this.device = device;
        this.pd = pd;
        this.sendCq = sendCq;
        this.type = type;
        this.caps = caps;
        this.sqSigAll = sqSigAll;
        capacity = Math.max(1, caps.maxSendWr());
        final int slots = BitUtil.findNextPositivePowerOfTwo(capacity);
        mask = slots - 1;
        wrIds = new long[slots];
        opcodes = new SendOpcode[slots];
        flags = new int[slots];
        imm = new int[slots];
        remoteAddrs = new long[slots];
        rkeys = new int[slots];
        compareAdds = new long[slots];
        swaps = new long[slots];
        psns = new int[slots];
        lengths = new long[slots];
        inline = new boolean[slots];
        responded = new boolean[slots];
        ahs = new SoftAddressHandle[slots];
        remoteQpns = new int[slots];
        remoteQkeys = new int[slots];
        sges = new SoftSgeTable(slots, caps.maxSendSge());
        inlineData = ByteBuffer.allocateDirect(Math.max(1, slots * caps.maxInlineData()));
        inlineAddress = BufferUtil.address(inlineData);
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
        if (tail - head >= capacity)
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
        final int slot = (int)(tail & mask);
        wrIds[slot] = wr.wrId();
        opcodes[slot] = wr.opcode();
        flags[slot] = wr.sendFlags();
        imm[slot] = wr.immData();
        remoteAddrs[slot] = wr.remoteAddr();
        rkeys[slot] = wr.rkey();
        compareAdds[slot] = wr.compareAdd();
        swaps[slot] = wr.swap();
        responded[slot] = false;
        lengths[slot] = wr.opcode().isAtomic() ? Long.BYTES : totalLength;
        final boolean inlined = (wr.sendFlags() & SendFlags.INLINE) != 0 && !wr.opcode().isAtomic() &&
            wr.opcode() != SendOpcode.RDMA_READ;
        inline[slot] = inlined;
        if (inlined)
        {
            long offset = inlineAddress + (long)slot * caps.maxInlineData();
            for (int i = 0, n = wr.numSge(); i < n; i++)
            {
                final ScatterGatherEntry sge = wr.sge(i);
                UNSAFE.copyMemory(sge.addr(), offset, sge.length());
                offset += sge.length();
            }
            sges.clear(slot);
        }
        else
        {
            sges.set(slot, wr);
        }
        if (type == QpType.UD)
        {
            ahs[slot] = (SoftAddressHandle)wr.ah();
            remoteQpns[slot] = wr.remoteQpn();
            remoteQkeys[slot] = wr.remoteQkey();
        }
        tail++;
    }

    /**
     * @return whether the request in {@code slot} completes even on success: signaled, or every request is.
     */
    boolean signaled(final int slot)
    {
        return sqSigAll || (flags[slot] & SendFlags.SIGNALED) != 0;
    }

    /**
     * @return whether half the queue or more is taken, so the application may soon wait for room in it.
     */
    boolean halfFull()
    {
        return 2 * (tail - head) >= capacity;
    }

    boolean hasQueued()
    {
        return head < tail;
    }

    /**
     * Copies {@code length} bytes of the request's payload, from {@code offset} on, to {@code dstAddress}.
     */
    void gather(final int slot, final long offset, final long dstAddress, final int length)
    {
        if (inline[slot])
        {
            UNSAFE.copyMemory(inlineAddress + (long)slot * caps.maxInlineData() + offset, dstAddress, length);
        }
        else
        {
            sges.gather(slot, offset, dstAddress, length);
        }
    }

    /**
     * @return the index of the sent request that carries {@code psn}, or -1 if none is outstanding.
     */
    long findSent(final int psn)
    {
        for (long i = head; i < transmit; i++)
        {
            if (psns[(int)(i & mask)] == psn)
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * Completes the request at the head of the queue; a completion the send CQ has no room for moves the QP to ERR.
     */
    void complete(final WcStatus status)
    {
        final int slot = (int)(head & mask);
        head++;
        if (status != WcStatus.SUCCESS || signaled(slot))
        {
            if (!sendCq.push(wrIds[slot], status, opcodes[slot].completionOpcode(), (int)lengths[slot], 0,
                qp.qpNum(), 0, 0, false) && status == WcStatus.SUCCESS)
            {
                qp.enterError();
            }
        }
    }

    /**
     * The request at {@code index} failed: it completes with {@code status} and the QP enters ERR, flushing
     * everything else.
     */
    void fail(final long index, final WcStatus status)
    {
        while (head < index)
        {
            complete(WcStatus.WR_FLUSH_ERR);
        }
        complete(status);
        qp.enterError();
    }

    /**
     * The oldest queued request completes with {@code status}; the QP enters ERR.
     */
    void failOldest(final WcStatus status)
    {
        fail(head, status);
    }

    /**
     * Completes every queued request with WR_FLUSH_ERR.
     */
    void flush()
    {
        while (head < tail)
        {
            complete(WcStatus.WR_FLUSH_ERR);
        }
        transmit = tail;
    }

    void reset()
    {
        head = transmit = tail = 0;
    }
}
