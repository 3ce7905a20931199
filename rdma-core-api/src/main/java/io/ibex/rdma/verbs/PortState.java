package io.ibex.rdma.verbs;

/**
 * Logical port state; {@link #value()} is the number of {@code enum ibv_port_state}.
 */
public enum PortState
{
    /** No state change. */
    NOP,
    /** The link is down. */
    DOWN,
    /** The link is up, not yet configured by the subnet manager. */
    INIT,
    /** Configured, not yet active. */
    ARMED,
    /** Ready for traffic. */
    ACTIVE,
    /** Active, deferring. */
    ACTIVE_DEFER;

    /**
     * @return the numeric value of {@code enum ibv_port_state}.
     */
    public int value()
    {
        return ordinal();
    }
}
