package io.ibex.rdma.verbs;

/**
 * One work completion, as {@code struct ibv_wc}. A mutable object the caller allocates once and passes to
 * {@link CompletionQueue#poll(WorkCompletion[])} again and again. On an error completion only
 * {@link #wrId()}, {@link #status()}, {@link #qpNum()} and {@link #vendorErr()} are valid, as in verbs.
 */
public final class WorkCompletion
{
    private long wrId;
    private WcStatus status = WcStatus.SUCCESS;
    private WcOpcode opcode = WcOpcode.SEND;
    private int vendorErr;
    private int byteLen;
    private int immData;
    private int qpNum;
    private int srcQp;
    private int wcFlags;
    private int pkeyIndex;
    private int slid;
    private int sl;
    private int dlidPathBits;

    /**
     * Fills every field; used by providers.
     *
     * @param wrId      work request id.
     * @param status    status.
     * @param opcode    operation.
     * @param vendorErr vendor error syndrome.
     * @param byteLen   bytes received (receives, RDMA READ) or 0.
     * @param immData   immediate data (host order) when {@link WcFlags#WITH_IMM} is set.
     * @param qpNum     local QP number.
     * @param srcQp     source QP number (UD receives).
     * @param wcFlags   {@link WcFlags}.
     * @param slid      source LID (receives).
     * @return this.
     */
    public WorkCompletion set(
        final long wrId,
        final WcStatus status,
        final WcOpcode opcode,
        final int vendorErr,
        final int byteLen,
        final int immData,
        final int qpNum,
        final int srcQp,
        final int wcFlags,
        final int slid)
    {
        this.wrId = wrId;
        this.status = status;
        this.opcode = opcode;
        this.vendorErr = vendorErr;
        this.byteLen = byteLen;
        this.immData = immData;
        this.qpNum = qpNum;
        this.srcQp = srcQp;
        this.wcFlags = wcFlags;
        this.pkeyIndex = 0;
        this.slid = slid;
        this.sl = 0;
        this.dlidPathBits = 0;
        return this;
    }

    /**
     * Fills what a receive reports about the path it came on (after {@link #set}, which clears them); used by
     * providers.
     *
     * @param pkeyIndex    P_Key index (UD).
     * @param sl           service level.
     * @param dlidPathBits destination LID path bits.
     * @return this.
     */
    public WorkCompletion setPath(final int pkeyIndex, final int sl, final int dlidPathBits)
    {
        this.pkeyIndex = pkeyIndex;
        this.sl = sl;
        this.dlidPathBits = dlidPathBits;
        return this;
    }

    /**
     * Copies another completion into this one.
     *
     * @param other the completion to copy.
     * @return this.
     */
    public WorkCompletion copyFrom(final WorkCompletion other)
    {
        set(other.wrId, other.status, other.opcode, other.vendorErr, other.byteLen, other.immData,
            other.qpNum, other.srcQp, other.wcFlags, other.slid);
        return setPath(other.pkeyIndex, other.sl, other.dlidPathBits);
    }

    /** @return the id of the work request that completed. */
    public long wrId()
    {
        return wrId;
    }

    /** @return the status. */
    public WcStatus status()
    {
        return status;
    }

    /** @return true if the status is {@link WcStatus#SUCCESS}. */
    public boolean isSuccess()
    {
        return status == WcStatus.SUCCESS;
    }

    /** @return the operation (valid on success only). */
    public WcOpcode opcode()
    {
        return opcode;
    }

    /** @return the vendor error syndrome. */
    public int vendorErr()
    {
        return vendorErr;
    }

    /** @return the number of bytes transferred (receives and RDMA READ). */
    public int byteLen()
    {
        return byteLen;
    }

    /** @return the immediate data (valid if {@link WcFlags#WITH_IMM} is set). */
    public int immData()
    {
        return immData;
    }

    /** @return the number of the local QP. */
    public int qpNum()
    {
        return qpNum;
    }

    /** @return the number of the remote QP that sent a UD message. */
    public int srcQp()
    {
        return srcQp;
    }

    /** @return the {@link WcFlags}. */
    public int wcFlags()
    {
        return wcFlags;
    }

    /** @return the P_Key index (UD). */
    public int pkeyIndex()
    {
        return pkeyIndex;
    }

    /** @return the source LID. */
    public int slid()
    {
        return slid;
    }

    /** @return the service level. */
    public int sl()
    {
        return sl;
    }

    /** @return the destination LID path bits. */
    public int dlidPathBits()
    {
        return dlidPathBits;
    }

    @Override
    public String toString()
    {
        return "WorkCompletion{wrId=" + wrId + ", status=" + status + ", opcode=" + opcode +
            ", byteLen=" + byteLen + ", immData=" + immData + ", qpNum=" + qpNum + ", srcQp=" + srcQp +
            ", wcFlags=" + wcFlags + '}';
    }
}
