package io.ibex.rdma.verbs;

/**
 * Queue-pair capabilities, as {@code struct ibv_qp_cap}: what is asked for at creation, and what the QP got.
 *
 * @param maxSendWr     outstanding send work requests.
 * @param maxRecvWr     outstanding receive work requests.
 * @param maxSendSge    scatter/gather entries per send work request.
 * @param maxRecvSge    scatter/gather entries per receive work request.
 * @param maxInlineData bytes a send may carry inline.
 */
public record QpCapabilities(int maxSendWr, int maxRecvWr, int maxSendSge, int maxRecvSge, int maxInlineData)
{
    /**
     * Checks the numbers are not negative.
     *
     * @param maxSendWr     outstanding send work requests.
     * @param maxRecvWr     outstanding receive work requests.
     * @param maxSendSge    scatter/gather entries per send work request.
     * @param maxRecvSge    scatter/gather entries per receive work request.
     * @param maxInlineData bytes a send may carry inline.
     */
    public QpCapabilities
    {
        if (maxSendWr < 0 || maxRecvWr < 0 || maxSendSge < 0 || maxRecvSge < 0 || maxInlineData < 0)
        {
            // not "+ this": the fields are not assigned yet in a compact constructor
            throw new IllegalArgumentException("negative QP capability in max_send_wr=" + maxSendWr +
                " max_recv_wr=" + maxRecvWr + " max_send_sge=" + maxSendSge + " max_recv_sge=" + maxRecvSge +
                " max_inline_data=" + maxInlineData);
        }
    }
}
