package io.ibex.rdma.provider.disni;

import io.ibex.rdma.verbs.SendWorkRequest;

import java.nio.ByteOrder;

import static io.ibex.rdma.provider.disni.VerbsLayout.ATOMIC_COMPARE_ADD;
import static io.ibex.rdma.provider.disni.VerbsLayout.ATOMIC_REMOTE_ADDR;
import static io.ibex.rdma.provider.disni.VerbsLayout.ATOMIC_RKEY;
import static io.ibex.rdma.provider.disni.VerbsLayout.ATOMIC_SWAP;
import static io.ibex.rdma.provider.disni.VerbsLayout.RDMA_REMOTE_ADDR;
import static io.ibex.rdma.provider.disni.VerbsLayout.RDMA_RKEY;
import static io.ibex.rdma.provider.disni.VerbsLayout.SEND_FLAGS;
import static io.ibex.rdma.provider.disni.VerbsLayout.SEND_IMM_DATA;
import static io.ibex.rdma.provider.disni.VerbsLayout.SEND_NEXT;
import static io.ibex.rdma.provider.disni.VerbsLayout.SEND_NUM_SGE;
import static io.ibex.rdma.provider.disni.VerbsLayout.SEND_OPCODE;
import static io.ibex.rdma.provider.disni.VerbsLayout.SEND_SG_LIST;
import static io.ibex.rdma.provider.disni.VerbsLayout.SEND_WR_ID;
import static io.ibex.rdma.provider.disni.VerbsLayout.SEND_WR_SIZE;
import static io.ibex.rdma.provider.disni.VerbsLayout.UD_AH;
import static io.ibex.rdma.provider.disni.VerbsLayout.UD_REMOTE_QKEY;
import static io.ibex.rdma.provider.disni.VerbsLayout.UD_REMOTE_QPN;

/**
 * struct ibv_send_wr images, with the one member of the {@code wr} union the request needs: {@code ud} on a
 * UD QP, {@code atomic} for atomics, {@code rdma} otherwise. imm_data is big-endian in C and host order in
 * the API.
 */
final class SendRequestImages extends WorkRequestImages
{
    private final boolean ud;

    /**
     * @param slots  requests one post can carry.
     * @param maxSge scatter/gather entries per request.
     * @param ud     whether the QP is UD.
     */
    SendRequestImages(final int slots, final int maxSge, final boolean ud)
    {
        super(slots, maxSge, SEND_WR_SIZE, SEND_WR_ID, SEND_NEXT, SEND_SG_LIST, SEND_NUM_SGE);
        this.ud = ud;
    }

    /**
     * @param slot the slot.
     * @param wr   a checked request.
     * @param ah   the ibv_ah* of a UD request, else 0.
     */
    void write(final int slot, final SendWorkRequest wr, final long ah)
    {
        final int at = writeCommon(slot, wr);
        buffer.putInt(at + SEND_OPCODE, wr.opcode().value());
        buffer.putInt(at + SEND_FLAGS, wr.sendFlags());
        buffer.putInt(at + SEND_IMM_DATA, wr.immData(), ByteOrder.BIG_ENDIAN);
        if (ud)
        {
            buffer.putLong(at + UD_AH, ah);
            buffer.putInt(at + UD_REMOTE_QPN, wr.remoteQpn());
            buffer.putInt(at + UD_REMOTE_QKEY, wr.remoteQkey());
        }
        else if (wr.opcode().isAtomic())
        {
            buffer.putLong(at + ATOMIC_REMOTE_ADDR, wr.remoteAddr());
            buffer.putLong(at + ATOMIC_COMPARE_ADD, wr.compareAdd());
            buffer.putLong(at + ATOMIC_SWAP, wr.swap());
            buffer.putInt(at + ATOMIC_RKEY, wr.rkey());
        }
        else
        {
            buffer.putLong(at + RDMA_REMOTE_ADDR, wr.remoteAddr());
            buffer.putInt(at + RDMA_RKEY, wr.rkey());
        }
    }
}
