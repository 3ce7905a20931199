package io.ibex.rdma.verbs;

/**
 * A queue pair, as {@code struct ibv_qp}. Created in {@link QpState#RESET} from a protection domain (or by
 * the connection manager), moved through INIT, RTR and RTS with {@link #modify(QpAttr)}.
 * <p>
 * Posting follows verbs: a post that breaks a rule (wrong state, queue full, too many SGEs, inline data too
 * long, opcode not allowed for the QP type) throws {@link PostException} with the errno verbs returns and the
 * position of the bad request; everything before it was posted. Errors found while executing a request
 * (protection, remote access, length) arrive as error completions instead. Posting allocates nothing.
 * <p>
 * Thread safety: one thread may post sends while another posts receives and a third polls.
 */
public interface QueuePair extends RdmaResource
{
    /** Length of a link token in bytes: see {@link #bindLinkToken(byte[])}. */
    int LINK_TOKEN_LENGTH = 16;

    /** @return the QP number. */
    int qpNum();

    /** @return the transport type. */
    QpType type();

    /** @return the current state, as {@code ibv_query_qp} reports it. */
    QpState state();

    /** @return the capabilities the QP actually got (may exceed what was asked for). */
    QpCapabilities capabilities();

    /** @return the protection domain. */
    ProtectionDomain pd();

    /** @return the send completion queue. */
    CompletionQueue sendCq();

    /** @return the receive completion queue. */
    CompletionQueue recvCq();

    /**
     * Modifies the QP, as {@code ibv_modify_qp}: applies the fields set in {@code attr}. An illegal
     * transition or a missing required attribute throws {@link VerbsException} (EINVAL) naming both.
     *
     * @param attr attributes and their mask.
     */
    void modify(QpAttr attr);

    /**
     * Queries the QP, as {@code ibv_query_qp}: its state, access flags, Q_Key, destination QP number, RNR NAK
     * timer, ACK timeout and retry counts (not the address vector, nor the PSNs, which devices report as they
     * advance or as they were set).
     *
     * @return a new attribute object with those fields and their mask bits set.
     */
    QpAttr query();

    /**
     * Posts a list of send requests chained by {@link SendWorkRequest#next()}, as {@code ibv_post_send}.
     *
     * @param wr the first request.
     * @throws PostException naming the errno and the first request not posted.
     */
    void postSend(SendWorkRequest wr);

    /**
     * Posts a list of receive requests chained by {@link ReceiveWorkRequest#next()}, as {@code ibv_post_recv}.
     *
     * @param wr the first request.
     * @throws PostException naming the errno and the first request not posted.
     */
    void postRecv(ReceiveWorkRequest wr);

    /**
     * Binds a secret that its peer binds too to this QP's next connection, for a QP connected by {@link #modify}
     * alone (out of band, as UC always is; rdma_cm binds one itself). The soft provider, which makes the link
     * between two QPs itself, then attaches no link whose peer does not present the same token; on hardware the
     * fabric carries the packets and the token is not used. Not a verbs call. Call before RTR.
     *
     * @param token {@link #LINK_TOKEN_LENGTH} random bytes, drawn for this connection and shared with the peer
     *              over a channel an attacker cannot read.
     * @throws IllegalArgumentException if the token has another length.
     */
    default void bindLinkToken(final byte[] token)
    {
        if (token.length != LINK_TOKEN_LENGTH)
        {
            throw new IllegalArgumentException("a link token has " + LINK_TOKEN_LENGTH + " bytes, not " +
                token.length);
        }
    }
}
