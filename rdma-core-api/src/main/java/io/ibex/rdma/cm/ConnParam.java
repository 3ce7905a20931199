package io.ibex.rdma.cm;

/**
 * Connection parameters, as {@code struct rdma_conn_param}.
 *
 * @param privateData        bytes delivered to the peer with the request, reply or rejection (at most 56
 *                           bytes on connect, 196 on accept, as the IB CM allows); may be empty, not null.
 * @param responderResources RDMA READ/atomic operations this side answers at once.
 * @param initiatorDepth     RDMA READ/atomic operations this side may have outstanding.
 * @param retryCount         transport retries (0..7).
 * @param rnrRetryCount      receiver-not-ready retries (0..7, 7 = forever).
 */
public record ConnParam(byte[] privateData, int responderResources, int initiatorDepth, int retryCount,
    int rnrRetryCount)
{
    /** Most private-data bytes a connect request carries. */
    public static final int MAX_CONNECT_PRIVATE_DATA = 56;
    /** Most private-data bytes an accept carries. */
    public static final int MAX_ACCEPT_PRIVATE_DATA = 196;
    /** Most private-data bytes a rejection carries. */
    public static final int MAX_REJECT_PRIVATE_DATA = 148;

    private static final byte[] NONE = new byte[0];

    /**
     * Checks the ranges.
     *
     * @param privateData        bytes delivered to the peer with the request, reply or rejection (at most 56
     *                           bytes on connect, 196 on accept, as the IB CM allows); may be empty, not null.
     * @param responderResources RDMA READ/atomic operations this side answers at once.
     * @param initiatorDepth     RDMA READ/atomic operations this side may have outstanding.
     * @param retryCount         transport retries (0..7).
     * @param rnrRetryCount      receiver-not-ready retries (0..7, 7 = forever).
     */
    public ConnParam
    {
        privateData = privateData == null ? NONE : privateData.clone();
        if (retryCount < 0 || retryCount > 7 || rnrRetryCount < 0 || rnrRetryCount > 7)
        {
            throw new IllegalArgumentException(
                "retryCount=" + retryCount + " and rnrRetryCount=" + rnrRetryCount + " must be in 0..7");
        }
    }

    /**
     * Parameters that never lose a send to a late receive: rnr_retry 7 (forever), retry 7, one outstanding
     * RDMA READ or atomic each way. DiSNI defaults both retry counts to 0; ibex does not.
     *
     * @param privateData bytes for the peer, or null.
     * @return the parameters.
     */
    public static ConnParam of(final byte[] privateData)
    {
        return new ConnParam(privateData, 1, 1, 7, 7);
    }

    /** @return a copy of the private data; empty if none. */
    @Override
    public byte[] privateData()
    {
        return privateData.clone();
    }
}
