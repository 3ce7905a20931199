package io.ibex.transport.channel;

/**
 * Layout of the proofs that a connection's two ends know the shared secret ({@link ConnectProof}), as blocks in
 * rdma_cm's private data at an offset the caller gives: 0 for RC and UD, {@link UcEndpoint#LENGTH} for UC, whose
 * endpoint comes first. Numbers are little-endian.
 * <p>
 * The source's request block, in the REQ (or SIDR REQ):
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |            Time: seconds since the epoch (u32)                |  0
 *  +---------------------------------------------------------------+
 *  |                                                               |  4
 *  +                    Nonce (8 random bytes)                     +
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                                                               | 12
 *  +                                                               +
 *  |          MAC: the first 12 bytes of an HMAC-SHA256            |
 *  +                                                               +
 *  |                                                               |
 *  +---------------------------------------------------------------+
 * </pre>
 * The target's reply block, in the REP (or SIDR REP):
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                                                               |  0
 *  +                                                               +
 *  |          MAC: the first 16 bytes of an HMAC-SHA256            |
 *  +                                                               +
 *  |                                                               |
 *  +                                                               +
 *  |                                                               |
 *  +---------------------------------------------------------------+
 * </pre>
 * rdma_cm delivers private data zero-padded to the IB CM's size, so a block of zeros is no proof.
 */
final class ConnectProofDescriptor
{
    /** Offset of the request's time in its block. */
    static final int TIME_OFFSET = 0;
    /** Offset of the request's nonce in its block. */
    static final int NONCE_OFFSET = TIME_OFFSET + Integer.BYTES;
    /** Offset of the request's MAC in its block. */
    static final int REQUEST_MAC_OFFSET = NONCE_OFFSET + Long.BYTES;
    /** Bytes of the request's MAC: 96 bits, all that fit beside the UC endpoint in a REQ's 56 bytes. */
    static final int REQUEST_MAC_LENGTH = 12;
    /** Length of the request block. */
    static final int REQUEST_LENGTH = REQUEST_MAC_OFFSET + REQUEST_MAC_LENGTH;
    /** Length of the reply block, all MAC: 128 bits. */
    static final int REPLY_LENGTH = 16;

    private ConnectProofDescriptor()
    {
    }
}
