package io.ibex.rdma.provider.disni;

import io.ibex.rdma.verbs.ReceiveWorkRequest;

import static io.ibex.rdma.provider.disni.VerbsLayout.RECV_NEXT;
import static io.ibex.rdma.provider.disni.VerbsLayout.RECV_NUM_SGE;
import static io.ibex.rdma.provider.disni.VerbsLayout.RECV_SG_LIST;
import static io.ibex.rdma.provider.disni.VerbsLayout.RECV_WR_ID;
import static io.ibex.rdma.provider.disni.VerbsLayout.RECV_WR_SIZE;

/**
 * struct ibv_recv_wr images: a receive is its id and its scatter/gather list.
 */
final class ReceiveRequestImages extends WorkRequestImages
{
    /**
     * @param slots  requests one post can carry.
     * @param maxSge scatter/gather entries per request.
     */
    ReceiveRequestImages(final int slots, final int maxSge)
    {
        super(slots, maxSge, RECV_WR_SIZE, RECV_WR_ID, RECV_NEXT, RECV_SG_LIST, RECV_NUM_SGE);
    }

    /**
     * @param slot the slot.
     * @param wr   a checked request.
     */
    void write(final int slot, final ReceiveWorkRequest wr)
    {
        writeCommon(slot, wr);
    }
}
