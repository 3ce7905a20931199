package io.ibex.rdma.verbs;

/**
 * Queue-pair transport type; {@link #value()} is the number of {@code enum ibv_qp_type}.
 */
public enum QpType
{
    /** Reliable connected: acknowledged, ordered, all opcodes. */
    RC(2),
    /** Unreliable connected: SEND and RDMA WRITE, no acknowledgements, errors dropped silently. */
    UC(3),
    /** Unreliable datagram: SEND only, one MTU per message, addressed per request by an address handle. */
    UD(4);

    private final int value;

    QpType(final int value)
    {
        this.value = value;
    }

    /**
     * @return the numeric value of {@code enum ibv_qp_type}.
     */
    public int value()
    {
        return value;
    }
}
