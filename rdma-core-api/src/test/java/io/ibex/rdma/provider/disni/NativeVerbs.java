package io.ibex.rdma.provider.disni;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;

import com.ibm.disni.util.MemoryUtils;
import com.ibm.disni.verbs.impl.NativeDispatcher;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Verbs objects made through IbexNative on one device, for tests that drive the natives directly: a PD, one
 * registered buffer, a CQ, and the QPs and AHs a test asks for, destroyed by {@link #close()} newest first.
 * Work requests are written as C structs into a direct buffer at the offsets the layout natives report, one
 * fixed-size slot per request (the request, then its one SGE), and completions are read back the same way.
 */
final class NativeVerbs implements AutoCloseable
{
    /** Bytes in the registered buffer. */
    static final int BUFFER_SIZE = 4096;
    /** ibv_access_flags: LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ | REMOTE_ATOMIC. */
    static final int ACCESS_ALL = 1 | 2 | 4 | 8;
    /** Work request slots in the request buffer. */
    static final int SLOTS = 4;

    private static final int[] SWR = IbexNative.sendWrLayout();
    private static final int[] RWR = IbexNative.recvWrLayout();
    private static final int[] WC = IbexNative.wcLayout();
    /** A slot holds the larger request struct, then one SGE, 64-byte aligned. */
    private static final int SLOT = (Math.max(SWR[IbexNative.SWR_SIZE], RWR[IbexNative.RWR_SIZE])
        + SWR[IbexNative.SGE_SIZE] + 63) & ~63;
    private static final int SGE_AT = SLOT - SWR[IbexNative.SGE_SIZE];
    private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(20);

    /** A destroy call. */
    private interface Destroy
    {
        void run() throws Exception;
    }

    /** What one ibv_wc said. */
    record Completion(long wrId, int status, int opcode, int byteLen, int imm, int qpNum, int srcQp, int wcFlags)
    {
    }

    private final Deque<Destroy> destroys = new ArrayDeque<>();
    private final ByteBuffer wrs = ByteBuffer.allocateDirect(SLOTS * SLOT).order(ByteOrder.nativeOrder());
    private final long wrsAddress = MemoryUtils.getAddress(wrs);
    private final ByteBuffer wcs = ByteBuffer.allocateDirect(SLOTS * WC[IbexNative.WC_SIZE])
        .order(ByteOrder.nativeOrder());
    private final long wcsAddress = MemoryUtils.getAddress(wcs);
    /** The registered buffer, native byte order. */
    final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_SIZE).order(ByteOrder.nativeOrder());
    /** Its address. */
    final long address = MemoryUtils.getAddress(buffer);
    final long context;
    final long pd;
    final int lkey;
    final int rkey;
    final long cq;

    /**
     * @param context an ibv_context* from IbexNative.contexts().
     * @throws Exception if a verbs call fails (everything made so far is destroyed).
     */
    NativeVerbs(final long context) throws Exception
    {
        this.context = context;
        try
        {
            final NativeDispatcher d = DisniPeer.dispatcher();
            final long newPd = d._allocPd(context);
            pd = newPd;
            destroys.push(() -> d._deallocPd(newPd));
            final ByteBuffer keys = ByteBuffer.allocateDirect(12).order(ByteOrder.nativeOrder());
            final long keysAddress = MemoryUtils.getAddress(keys);
            final long mr = d._regMr(newPd, address, BUFFER_SIZE, ACCESS_ALL, keysAddress, keysAddress + 4,
                keysAddress + 8);
            destroys.push(() -> d._deregMr(mr));
            lkey = keys.getInt(0);
            rkey = keys.getInt(4);
            final long newCq = IbexNative.createCq(context, 0, 4 * SLOTS, 0);
            cq = newCq;
            destroys.push(() -> IbexNative.destroyCq(newCq));
        }
        catch (final Exception | Error e)
        {
            close();
            throw e;
        }
    }

    /**
     * @param qpType enum ibv_qp_type.
     * @param caps   createQp's caps, updated to what the device granted.
     * @return a QP on this PD and CQ, destroyed on close.
     */
    long qp(final int qpType, final int[] caps)
    {
        final long qp = IbexNative.createQp(0, pd, cq, cq, qpType, caps, false);
        destroys.push(() -> IbexNative.destroyQp(0, qp));
        return qp;
    }

    /**
     * @param ah   AH attributes.
     * @param dgid the destination GID.
     * @return an address handle on this PD, destroyed on close.
     */
    long ah(final long[] ah, final byte[] dgid)
    {
        final long handle = IbexNative.createAh(pd, ah, dgid);
        destroys.push(() -> IbexNative.destroyAh(handle));
        return handle;
    }

    /**
     * Writes a send work request into a slot: one SGE over [offset, offset + length) of the buffer, signaled,
     * the end of its list.
     *
     * @param slot   request slot.
     * @param wrId   wr_id.
     * @param opcode enum ibv_wr_opcode.
     * @param offset buffer offset.
     * @param length bytes.
     * @return the request's address, for IbexNative.postSend.
     */
    long send(final int slot, final long wrId, final int opcode, final int offset, final int length)
    {
        final int at = request(slot, wrId, SWR[IbexNative.SWR_NEXT], SWR[IbexNative.SWR_SG_LIST],
            SWR[IbexNative.SWR_NUM_SGE], offset, length);
        wrs.putInt(at + SWR[IbexNative.SWR_OPCODE], opcode);
        wrs.putInt(at + SWR[IbexNative.SWR_SEND_FLAGS], 2 /* IBV_SEND_SIGNALED */);
        return wrsAddress + at;
    }

    /**
     * Writes a receive work request into a slot, one SGE over [offset, offset + length) of the buffer.
     *
     * @param slot   request slot.
     * @param wrId   wr_id.
     * @param offset buffer offset.
     * @param length bytes.
     * @return the request's address, for IbexNative.postRecv.
     */
    long recv(final int slot, final long wrId, final int offset, final int length)
    {
        return wrsAddress + request(slot, wrId, RWR[IbexNative.RWR_NEXT], RWR[IbexNative.RWR_SG_LIST],
            RWR[IbexNative.RWR_NUM_SGE], offset, length);
    }

    private int request(final int slot, final long wrId, final int next, final int sgList, final int numSge,
        final int offset, final int length)
    {
        final int at = slot * SLOT;
        for (int i = 0; i < SLOT; i += Long.BYTES)
        {
            wrs.putLong(at + i, 0);
        }
        wrs.putLong(at + SWR[IbexNative.SWR_WR_ID], wrId); // wr_id is first in both request structs
        wrs.putLong(at + next, 0);
        wrs.putLong(at + sgList, wrsAddress + at + SGE_AT);
        wrs.putInt(at + numSge, 1);
        wrs.putLong(at + SGE_AT + SWR[IbexNative.SGE_ADDR], address + offset);
        wrs.putInt(at + SGE_AT + SWR[IbexNative.SGE_LENGTH], length);
        wrs.putInt(at + SGE_AT + SWR[IbexNative.SGE_LKEY], lkey);
        return at;
    }

    /**
     * Chains the send request in slot to the one in next.
     *
     * @param slot a send request slot.
     * @param next the slot of the request that follows it.
     */
    void link(final int slot, final int next)
    {
        wrs.putLong(slot * SLOT + SWR[IbexNative.SWR_NEXT], wrsAddress + next * SLOT);
    }

    /**
     * @param slot  a send request slot.
     * @param flags its send_flags (enum ibv_send_flags bits).
     * @param lkey  its SGE's lkey (inline data needs none).
     */
    void flags(final int slot, final int flags, final int lkey)
    {
        wrs.putInt(slot * SLOT + SWR[IbexNative.SWR_SEND_FLAGS], flags);
        wrs.putInt(slot * SLOT + SGE_AT + SWR[IbexNative.SGE_LKEY], lkey);
    }

    /**
     * @param slot a send request slot.
     * @param imm  its imm_data, as the receiver's completion reads it back (both in native order).
     */
    void imm(final int slot, final int imm)
    {
        wrs.putInt(slot * SLOT + SWR[IbexNative.SWR_IMM_DATA], imm);
    }

    /**
     * @param slot   a send request slot.
     * @param numSge the request's num_sge (to make it invalid).
     */
    void numSge(final int slot, final int numSge)
    {
        wrs.putInt(slot * SLOT + SWR[IbexNative.SWR_NUM_SGE], numSge);
    }

    /**
     * @param slot   a send request slot.
     * @param offset the target's offset in this buffer (the peer QP shares it).
     */
    void rdma(final int slot, final int offset)
    {
        wrs.putLong(slot * SLOT + SWR[IbexNative.SWR_RDMA_REMOTE_ADDR], address + offset);
        wrs.putInt(slot * SLOT + SWR[IbexNative.SWR_RDMA_RKEY], rkey);
    }

    /**
     * @param slot       a send request slot.
     * @param offset     the 8-byte target's offset in this buffer.
     * @param compareAdd wr.atomic.compare_add.
     * @param swap       wr.atomic.swap.
     */
    void atomic(final int slot, final int offset, final long compareAdd, final long swap)
    {
        final int at = slot * SLOT;
        wrs.putLong(at + SWR[IbexNative.SWR_ATOMIC_REMOTE_ADDR], address + offset);
        wrs.putLong(at + SWR[IbexNative.SWR_ATOMIC_COMPARE_ADD], compareAdd);
        wrs.putLong(at + SWR[IbexNative.SWR_ATOMIC_SWAP], swap);
        wrs.putInt(at + SWR[IbexNative.SWR_ATOMIC_RKEY], rkey);
    }

    /**
     * @param slot a send request slot.
     * @param ah   ibv_ah*.
     * @param qpn  wr.ud.remote_qpn.
     * @param qkey wr.ud.remote_qkey.
     */
    void ud(final int slot, final long ah, final int qpn, final int qkey)
    {
        final int at = slot * SLOT;
        wrs.putLong(at + SWR[IbexNative.SWR_UD_AH], ah);
        wrs.putInt(at + SWR[IbexNative.SWR_UD_REMOTE_QPN], qpn);
        wrs.putInt(at + SWR[IbexNative.SWR_UD_REMOTE_QKEY], qkey);
    }

    /**
     * @return the next completion on this fixture's CQ, busy-polled with a deadline.
     */
    Completion await()
    {
        return await(cq);
    }

    /**
     * @param cq an ibv_cq*.
     * @return the next completion on it, busy-polled with a deadline.
     */
    Completion await(final long cq)
    {
        final long deadline = System.nanoTime() + TIMEOUT_NANOS;
        while (System.nanoTime() < deadline)
        {
            if (IbexNative.pollCq(cq, 1, wcsAddress) == 1)
            {
                return new Completion(wcs.getLong(WC[IbexNative.WC_WR_ID]), wcs.getInt(WC[IbexNative.WC_STATUS]),
                    wcs.getInt(WC[IbexNative.WC_OPCODE]), wcs.getInt(WC[IbexNative.WC_BYTE_LEN]),
                    wcs.getInt(WC[IbexNative.WC_IMM_DATA]),
                    wcs.getInt(WC[IbexNative.WC_QP_NUM]), wcs.getInt(WC[IbexNative.WC_SRC_QP]),
                    wcs.getInt(WC[IbexNative.WC_WC_FLAGS]));
            }
            Thread.onSpinWait();
        }
        return fail("no completion within " + TimeUnit.NANOSECONDS.toSeconds(TIMEOUT_NANOS) + " s");
    }

    @Override
    public void close() throws Exception
    {
        Exception first = null;
        while (!destroys.isEmpty())
        {
            try
            {
                destroys.pop().run();
            }
            catch (final Exception e)
            {
                if (first == null)
                {
                    first = e;
                }
                else
                {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null)
        {
            throw first;
        }
    }
}
