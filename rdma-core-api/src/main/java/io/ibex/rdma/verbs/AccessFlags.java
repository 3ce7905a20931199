package io.ibex.rdma.verbs;

/**
 * Memory-region and queue-pair access flags, with the values of {@code enum ibv_access_flags}.
 */
public final class AccessFlags
{
    /** The local HCA may write into the region (needed for receives and RDMA READ targets). */
    public static final int LOCAL_WRITE = 1;
    /** A remote peer may RDMA WRITE into the region. */
    public static final int REMOTE_WRITE = 1 << 1;
    /** A remote peer may RDMA READ from the region. */
    public static final int REMOTE_READ = 1 << 2;
    /** A remote peer may perform atomic operations on the region. */
    public static final int REMOTE_ATOMIC = 1 << 3;

    /** Every flag this API knows. */
    public static final int ALL = LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ | REMOTE_ATOMIC;

    private AccessFlags()
    {
    }

    /**
     * @param flags a combination of access flags.
     * @return the flags as text, for example {@code LOCAL_WRITE|REMOTE_READ}.
     */
    public static String toString(final int flags)
    {
        final StringBuilder sb = new StringBuilder();
        append(sb, flags, LOCAL_WRITE, "LOCAL_WRITE");
        append(sb, flags, REMOTE_WRITE, "REMOTE_WRITE");
        append(sb, flags, REMOTE_READ, "REMOTE_READ");
        append(sb, flags, REMOTE_ATOMIC, "REMOTE_ATOMIC");
        final int unknown = flags & ~ALL;
        if (unknown != 0)
        {
            sb.append(sb.length() > 0 ? "|" : "").append("0x").append(Integer.toHexString(unknown));
        }
        return sb.length() == 0 ? "0" : sb.toString();
    }

    private static void append(final StringBuilder sb, final int flags, final int flag, final String name)
    {
        if ((flags & flag) != 0)
        {
            sb.append(sb.length() > 0 ? "|" : "").append(name);
        }
    }
}
