package io.ibex.rdma.verbs;

/**
 * A send work request, as {@code struct ibv_send_wr} with its {@code wr.rdma}, {@code wr.atomic} and
 * {@code wr.ud} members. Build once, post many times: only the fields that change need setting between
 * posts, and posting allocates nothing. {@link #next()} chains requests into one post.
 */
public final class SendWorkRequest extends WorkRequest
{
    private SendOpcode opcode = SendOpcode.SEND;
    private int sendFlags;
    private int immData;
    private long remoteAddr;
    private int rkey;
    private long compareAdd;
    private long swap;
    private AddressHandle ah;
    private int remoteQpn;
    private int remoteQkey;
    private SendWorkRequest next;

    /**
     * A request with one scatter/gather entry.
     */
    public SendWorkRequest()
    {
        this(1);
    }

    /**
     * @param maxSge capacity of the scatter/gather list.
     */
    public SendWorkRequest(final int maxSge)
    {
        super(maxSge);
    }

    @Override
    public SendWorkRequest wrId(final long wrId)
    {
        super.wrId(wrId);
        return this;
    }

    @Override
    public SendWorkRequest numSge(final int numSge)
    {
        super.numSge(numSge);
        return this;
    }

    /** @return the operation. */
    public SendOpcode opcode()
    {
        return opcode;
    }

    /**
     * @param opcode the operation.
     * @return this.
     */
    public SendWorkRequest opcode(final SendOpcode opcode)
    {
        this.opcode = opcode;
        return this;
    }

    /** @return the {@link SendFlags}. */
    public int sendFlags()
    {
        return sendFlags;
    }

    /**
     * @param sendFlags a combination of {@link SendFlags}.
     * @return this.
     */
    public SendWorkRequest sendFlags(final int sendFlags)
    {
        this.sendFlags = sendFlags;
        return this;
    }

    /** @return the immediate data (host order). */
    public int immData()
    {
        return immData;
    }

    /**
     * @param immData immediate data for the *_WITH_IMM opcodes.
     * @return this.
     */
    public SendWorkRequest immData(final int immData)
    {
        this.immData = immData;
        return this;
    }

    /** @return the remote address (RDMA and atomic operations). */
    public long remoteAddr()
    {
        return remoteAddr;
    }

    /** @return the remote key (RDMA and atomic operations). */
    public int rkey()
    {
        return rkey;
    }

    /**
     * Sets the target of an RDMA or atomic operation ({@code wr.rdma} / {@code wr.atomic}).
     *
     * @param remoteAddr address in the peer's memory region.
     * @param rkey       the peer region's remote key.
     * @return this.
     */
    public SendWorkRequest remote(final long remoteAddr, final int rkey)
    {
        this.remoteAddr = remoteAddr;
        this.rkey = rkey;
        return this;
    }

    /** @return the value to compare (compare-and-swap) or to add (fetch-and-add). */
    public long compareAdd()
    {
        return compareAdd;
    }

    /** @return the value to swap in (compare-and-swap). */
    public long swap()
    {
        return swap;
    }

    /**
     * Sets the operands of an atomic operation ({@code wr.atomic}).
     *
     * @param compareAdd value compared (CMP_AND_SWP) or added (FETCH_AND_ADD).
     * @param swap       value written if the compare matched (CMP_AND_SWP).
     * @return this.
     */
    public SendWorkRequest atomic(final long compareAdd, final long swap)
    {
        this.compareAdd = compareAdd;
        this.swap = swap;
        return this;
    }

    /** @return the UD destination, or null. */
    public AddressHandle ah()
    {
        return ah;
    }

    /** @return the UD destination QP number. */
    public int remoteQpn()
    {
        return remoteQpn;
    }

    /** @return the UD destination Q_Key. */
    public int remoteQkey()
    {
        return remoteQkey;
    }

    /**
     * Sets the destination of a UD send ({@code wr.ud}).
     *
     * @param ah         address handle of the destination port.
     * @param remoteQpn  destination QP number.
     * @param remoteQkey destination Q_Key.
     * @return this.
     */
    public SendWorkRequest ud(final AddressHandle ah, final int remoteQpn, final int remoteQkey)
    {
        this.ah = ah;
        this.remoteQpn = remoteQpn;
        this.remoteQkey = remoteQkey;
        return this;
    }

    /** @return the next request of the list, or null. */
    public SendWorkRequest next()
    {
        return next;
    }

    /**
     * @param next the next request of the list, or null to end it.
     * @return this.
     */
    public SendWorkRequest next(final SendWorkRequest next)
    {
        this.next = next;
        return this;
    }
}
