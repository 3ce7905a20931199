package io.ibex.rdma.verbs;

/**
 * Work-completion flags, with the values of {@code enum ibv_wc_flags}.
 */
public final class WcFlags
{
    /** The receive buffer starts with a 40-byte GRH (UD). */
    public static final int GRH = 1;
    /** The completion carries immediate data. */
    public static final int WITH_IMM = 1 << 1;

    private WcFlags()
    {
    }
}
