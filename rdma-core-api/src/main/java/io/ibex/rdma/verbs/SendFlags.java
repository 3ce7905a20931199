package io.ibex.rdma.verbs;

/**
 * Send work-request flags, with the values of {@code enum ibv_send_flags}.
 */
public final class SendFlags
{
    /** Wait for prior RDMA READ and atomic operations to complete before this one starts. */
    public static final int FENCE = 1;
    /** Generate a completion for this request (otherwise only on error, unless sq_sig_all). */
    public static final int SIGNALED = 1 << 1;
    /** Ask the receiver's CQ to raise a solicited event. */
    public static final int SOLICITED = 1 << 2;
    /**
     * Copy the payload into the work request, so the buffer may be reused at once. Unlike verbs, which ignore an
     * inline entry's lkey, each entry must lie inside the region its lkey names, an open region of the QP's
     * protection domain (else EINVAL): the payload is copied from the address without the device checking it.
     */
    public static final int INLINE = 1 << 3;

    private SendFlags()
    {
    }
}
