package io.ibex.rdma.provider.disni;

import io.ibex.rdma.verbs.ScatterGatherEntry;
import io.ibex.rdma.verbs.WorkRequest;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import static io.ibex.rdma.provider.disni.VerbsLayout.SGE_ADDR;
import static io.ibex.rdma.provider.disni.VerbsLayout.SGE_LENGTH;
import static io.ibex.rdma.provider.disni.VerbsLayout.SGE_LKEY;
import static io.ibex.rdma.provider.disni.VerbsLayout.SGE_SIZE;

/**
 * A flyweight writing a list of work request images (struct ibv_send_wr or ibv_recv_wr) into a direct buffer
 * for one ibv_post_send or ibv_post_recv: slot {@code i} holds the request, its scatter/gather entries right
 * after it, and {@code next} points at slot {@code i + 1} until {@link #end(int)} closes the list. Written
 * in place on every post, so posting allocates nothing; the fields are the C structs', at the offsets
 * {@link VerbsLayout} has from the library.
 */
abstract class WorkRequestImages
{
    /** The images. */
    protected final UnsafeBuffer buffer;
    private final int slots;
    private final int slotSize;
    private final int wrSize;
    private final int wrIdOffset;
    private final int nextOffset;
    private final int sgListOffset;
    private final int numSgeOffset;

    /**
     * @param slots        requests one post can carry.
     * @param maxSge       scatter/gather entries per request.
     * @param wrSize       sizeof the request struct.
     * @param wrIdOffset   offsetof wr_id.
     * @param nextOffset   offsetof next.
     * @param sgListOffset offsetof sg_list.
     * @param numSgeOffset offsetof num_sge.
     */
    WorkRequestImages(
        final int slots,
        final int maxSge,
        final int wrSize,
        final int wrIdOffset,
        final int nextOffset,
        final int sgListOffset,
        final int numSgeOffset)
    {
        this.slots = slots;
        this.slotSize = VerbsLayout.align8(wrSize + maxSge * SGE_SIZE);
        this.wrSize = wrSize;
        this.wrIdOffset = wrIdOffset;
        this.nextOffset = nextOffset;
        this.sgListOffset = sgListOffset;
        this.numSgeOffset = numSgeOffset;
        this.buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(slots * slotSize, 64));
    }

    /**
     * @return how many requests one post can carry.
     */
    final int slots()
    {
        return slots;
    }

    /**
     * @param slot a slot.
     * @return the address of its request, for the native call.
     */
    final long address(final int slot)
    {
        return buffer.addressOffset() + (long)slot * slotSize;
    }

    /**
     * Ends the list at a slot: its {@code next} is NULL.
     *
     * @param slot the last slot of the list.
     */
    final void end(final int slot)
    {
        buffer.putLong(slot * slotSize + nextOffset, 0);
    }

    /**
     * Writes what both kinds of request have: wr_id, the link to the next slot, and the scatter/gather list
     * (the caller checked it has at most the slot's entries).
     *
     * @param slot the slot.
     * @param wr   the request.
     * @return the offset of the slot's request in {@link #buffer}, for the rest of the fields.
     */
    protected final int writeCommon(final int slot, final WorkRequest wr)
    {
        final int at = slot * slotSize;
        final long address = address(slot);
        final int numSge = wr.numSge();
        buffer.putLong(at + wrIdOffset, wr.wrId());
        buffer.putLong(at + nextOffset, address + slotSize);
        buffer.putLong(at + sgListOffset, address + wrSize);
        buffer.putInt(at + numSgeOffset, numSge);
        for (int i = 0; i < numSge; i++)
        {
            final ScatterGatherEntry sge = wr.sge(i);
            final int sgeAt = at + wrSize + i * SGE_SIZE;
            buffer.putLong(sgeAt + SGE_ADDR, sge.addr());
            buffer.putInt(sgeAt + SGE_LENGTH, sge.length());
            buffer.putInt(sgeAt + SGE_LKEY, sge.lkey());
        }
        return at;
    }
}
