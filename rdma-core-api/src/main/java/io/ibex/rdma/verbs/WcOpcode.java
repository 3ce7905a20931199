package io.ibex.rdma.verbs;

/**
 * The operation a work completion reports; {@link #value()} is the number of {@code enum ibv_wc_opcode}.
 */
public enum WcOpcode
{
    /** A SEND or SEND_WITH_IMM completed on the send queue. */
    SEND(0),
    /** An RDMA WRITE (with or without immediate) completed on the send queue. */
    RDMA_WRITE(1),
    /** An RDMA READ completed on the send queue. */
    RDMA_READ(2),
    /** An atomic compare-and-swap completed on the send queue. */
    COMP_SWAP(3),
    /** An atomic fetch-and-add completed on the send queue. */
    FETCH_ADD(4),
    /** A receive consumed by a SEND or SEND_WITH_IMM. */
    RECV(128),
    /** A receive consumed by an RDMA_WRITE_WITH_IMM. */
    RECV_RDMA_WITH_IMM(129);

    private final int value;

    WcOpcode(final int value)
    {
        this.value = value;
    }

    /**
     * @return the numeric value of {@code enum ibv_wc_opcode}.
     */
    public int value()
    {
        return value;
    }

    /**
     * @param value a numeric {@code enum ibv_wc_opcode}.
     * @return the opcode.
     * @throws IllegalArgumentException for an unknown value.
     */
    public static WcOpcode of(final int value)
    {
        for (final WcOpcode opcode : values())
        {
            if (opcode.value == value)
            {
                return opcode;
            }
        }
        throw new IllegalArgumentException("unknown ibv_wc_opcode " + value);
    }
}
