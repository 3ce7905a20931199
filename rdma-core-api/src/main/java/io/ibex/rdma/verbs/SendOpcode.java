package io.ibex.rdma.verbs;

/**
 * The operation of a send work request; {@link #value()} is the number of {@code enum ibv_wr_opcode}.
 */
public enum SendOpcode
{
    /** Write local memory into the peer's memory at remote address and rkey. */
    RDMA_WRITE(0, WcOpcode.RDMA_WRITE),
    /** RDMA WRITE that also consumes a receive at the peer and delivers 32 bits of immediate data. */
    RDMA_WRITE_WITH_IMM(1, WcOpcode.RDMA_WRITE),
    /** Send a message into the peer's next posted receive. */
    SEND(2, WcOpcode.SEND),
    /** SEND with 32 bits of immediate data. */
    SEND_WITH_IMM(3, WcOpcode.SEND),
    /** Read the peer's memory at remote address and rkey into local memory (RC only). */
    RDMA_READ(4, WcOpcode.RDMA_READ),
    /** 64-bit compare-and-swap at an 8-byte aligned remote address (RC only). */
    ATOMIC_CMP_AND_SWP(5, WcOpcode.COMP_SWAP),
    /** 64-bit fetch-and-add at an 8-byte aligned remote address (RC only). */
    ATOMIC_FETCH_AND_ADD(6, WcOpcode.FETCH_ADD);

    private final int value;
    private final WcOpcode completionOpcode;

    SendOpcode(final int value, final WcOpcode completionOpcode)
    {
        this.value = value;
        this.completionOpcode = completionOpcode;
    }

    /**
     * @return the numeric value of {@code enum ibv_wr_opcode}.
     */
    public int value()
    {
        return value;
    }

    /**
     * @return the opcode the requester's completion for this operation carries.
     */
    public WcOpcode completionOpcode()
    {
        return completionOpcode;
    }

    /**
     * @return true for operations that carry 32 bits of immediate data.
     */
    public boolean hasImmediate()
    {
        return this == RDMA_WRITE_WITH_IMM || this == SEND_WITH_IMM;
    }

    /**
     * @return true for the 64-bit atomic operations.
     */
    public boolean isAtomic()
    {
        return this == ATOMIC_CMP_AND_SWP || this == ATOMIC_FETCH_AND_ADD;
    }

    /**
     * @return true for operations that name a remote address and rkey.
     */
    public boolean isRemoteAccess()
    {
        return this != SEND && this != SEND_WITH_IMM;
    }
}
