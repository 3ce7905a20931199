package io.ibex.rdma.provider.disni;

import io.ibex.rdma.verbs.WcOpcode;
import io.ibex.rdma.verbs.WcStatus;
import io.ibex.rdma.verbs.WorkCompletion;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

import static io.ibex.rdma.provider.disni.VerbsLayout.WC_BYTE_LEN;
import static io.ibex.rdma.provider.disni.VerbsLayout.WC_DLID_PATH_BITS;
import static io.ibex.rdma.provider.disni.VerbsLayout.WC_FLAGS;
import static io.ibex.rdma.provider.disni.VerbsLayout.WC_IMM_DATA;
import static io.ibex.rdma.provider.disni.VerbsLayout.WC_OPCODE;
import static io.ibex.rdma.provider.disni.VerbsLayout.WC_PKEY_INDEX;
import static io.ibex.rdma.provider.disni.VerbsLayout.WC_QP_NUM;
import static io.ibex.rdma.provider.disni.VerbsLayout.WC_SIZE;
import static io.ibex.rdma.provider.disni.VerbsLayout.WC_SL;
import static io.ibex.rdma.provider.disni.VerbsLayout.WC_SLID;
import static io.ibex.rdma.provider.disni.VerbsLayout.WC_SRC_QP;
import static io.ibex.rdma.provider.disni.VerbsLayout.WC_STATUS;
import static io.ibex.rdma.provider.disni.VerbsLayout.WC_VENDOR_ERR;
import static io.ibex.rdma.provider.disni.VerbsLayout.WC_WR_ID;

/**
 * A flyweight reading struct ibv_wc images that ibv_poll_cq wrote into a direct buffer, into the caller's
 * {@link WorkCompletion}s, without allocating: status and opcode map to the enums through arrays.
 */
final class CompletionImages
{
    private static final WcStatus[] STATUSES = WcStatus.values();
    /** enum ibv_wc_opcode value to WcOpcode (the receive opcodes start at 128). */
    private static final WcOpcode[] OPCODES = new WcOpcode[WcOpcode.RECV_RDMA_WITH_IMM.value() + 1];

    static
    {
        for (final WcOpcode opcode : WcOpcode.values())
        {
            OPCODES[opcode.value()] = opcode;
        }
    }

    private final UnsafeBuffer buffer;
    private final int capacity;

    /**
     * @param capacity completions one poll can read.
     */
    CompletionImages(final int capacity)
    {
        this.capacity = capacity;
        this.buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(capacity * WC_SIZE, 64));
    }

    /**
     * @return completions one poll can read.
     */
    int capacity()
    {
        return capacity;
    }

    /**
     * @return the address ibv_poll_cq writes to.
     */
    long address()
    {
        return buffer.addressOffset();
    }

    /**
     * Copies one completion. An error completion's opcode is not defined (verbs leaves it to the provider), so
     * one the API does not know reads as SEND there; on a successful completion it is a provider bug.
     *
     * @param index which completion of the last poll.
     * @param wc    where to copy it.
     */
    void read(final int index, final WorkCompletion wc)
    {
        final int at = index * WC_SIZE;
        final int statusValue = buffer.getInt(at + WC_STATUS);
        final WcStatus status = statusValue >= 0 && statusValue < STATUSES.length ? STATUSES[statusValue] :
            WcStatus.GENERAL_ERR;
        final int opcodeValue = buffer.getInt(at + WC_OPCODE);
        WcOpcode opcode = opcodeValue >= 0 && opcodeValue < OPCODES.length ? OPCODES[opcodeValue] : null;
        if (opcode == null)
        {
            if (status == WcStatus.SUCCESS)
            {
                throw new IllegalStateException("ibv_poll_cq reported ibv_wc_opcode " + opcodeValue +
                    ", which no request of this API can produce");
            }
            opcode = WcOpcode.SEND;
        }
        wc.set(buffer.getLong(at + WC_WR_ID), status, opcode, buffer.getInt(at + WC_VENDOR_ERR),
            buffer.getInt(at + WC_BYTE_LEN), buffer.getInt(at + WC_IMM_DATA, ByteOrder.BIG_ENDIAN),
            buffer.getInt(at + WC_QP_NUM), buffer.getInt(at + WC_SRC_QP), buffer.getInt(at + WC_FLAGS),
            buffer.getShort(at + WC_SLID) & 0xffff);
        wc.setPath(buffer.getShort(at + WC_PKEY_INDEX) & 0xffff, buffer.getByte(at + WC_SL) & 0xff,
            buffer.getByte(at + WC_DLID_PATH_BITS) & 0xff);
    }
}
