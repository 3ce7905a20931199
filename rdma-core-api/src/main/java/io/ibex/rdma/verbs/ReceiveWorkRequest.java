package io.ibex.rdma.verbs;

/**
 * A receive work request, as {@code struct ibv_recv_wr}. Build once, post many times; {@link #next()}
 * chains requests into one post.
 */
public final class ReceiveWorkRequest extends WorkRequest
{
    private ReceiveWorkRequest next;

    /**
     * A request with one scatter/gather entry.
     */
    public ReceiveWorkRequest()
    {
        this(1);
    }

    /**
     * @param maxSge capacity of the scatter/gather list.
     */
    public ReceiveWorkRequest(final int maxSge)
    {
        super(maxSge);
    }

    @Override
    public ReceiveWorkRequest wrId(final long wrId)
    {
        super.wrId(wrId);
        return this;
    }

    @Override
    public ReceiveWorkRequest numSge(final int numSge)
    {
        super.numSge(numSge);
        return this;
    }

    /** @return the next request of the list, or null. */
    public ReceiveWorkRequest next()
    {
        return next;
    }

    /**
     * @param next the next request of the list, or null to end it.
     * @return this.
     */
    public ReceiveWorkRequest next(final ReceiveWorkRequest next)
    {
        this.next = next;
        return this;
    }
}
