package io.ibex.rdma.provider.soft.wire;

/**
 * Layout of what soft devices send each other. All integers are little-endian.
 * <p>
 * A connected (RC/UC) QP's link is a TCP connection (or, between two QPs of one device, a {@link SoftMemoryWire},
 * which carries the same frames without the HELLO). The connecting side first sends a HELLO:
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                         magic 'IBXS'                          |  0
 *  +---------------------------------------------------------------+
 *  |                           version                             |  4
 *  +---------------------------------------------------------------+
 *  |              source IPv4 address (big-endian value)           |  8
 *  +---------------------------------------------------------------+
 *  |                         source port                           | 12
 *  +---------------------------------------------------------------+
 *  |                         source QPN                            | 16
 *  +---------------------------------------------------------------+
 *  |                       destination QPN                         | 20
 *  +---------------------------------------------------------------+
 *  |          flags (bit 0: a shared-memory link is offered)       | 24
 *  +---------------------------------------------------------------+
 *  |                           reserved                            | 28
 *  +---------------------------------------------------------------+
 *  |                   offering process id (64)                    | 32
 *  +---------------------------------------------------------------+
 *  |           link number: names the file, with the pid (64)      | 40
 *  +---------------------------------------------------------------+
 *  |                the file's nonce (64, random)                  | 48
 *  +---------------------------------------------------------------+
 *  |              host's boot id (128, the kernel's UUID)          | 56
 *  +---------------------------------------------------------------+
 *  |      link token (128): the connection's, see SoftLinkToken    | 72
 *  +---------------------------------------------------------------+
 * </pre>
 * The accepting side reads nothing after a HELLO whose link token is not the one bound to the QP it names: it closes
 * the connection.
 * When the HELLO offers shared memory (see {@link SoftSharedMemoryDescriptor}), the accepting side answers with
 * one int, {@link #SHM_ACCEPTED} or {@link #SHM_DECLINED}, and the connecting side sends nothing more until it has
 * read it: frames then go through the file's rings, or through the connection as without the offer.
 * <p>
 * Then both sides exchange frames, one per message segment (a message of more than
 * {@link #MAX_SEGMENT_LENGTH} bytes is cut into several frames with the same PSN):
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------+---------------+---------------+---------------+
 *  |    opcode     |     flags     |   syndrome    |   RNR timer   |  0
 *  +---------------+---------------+---------------+---------------+
 *  |         PSN of the message (24 bits) this frame belongs to    |  4
 *  +---------------------------------------------------------------+
 *  |   ACK PSN: the sender's responder has executed up to here     |  8
 *  +---------------------------------------------------------------+
 *  |                 segment length (payload bytes)                | 12
 *  +---------------------------------------------------------------+
 *  |              segment offset within the message                | 16
 *  +---------------------------------------------------------------+
 *  |                        message length                         | 20
 *  +---------------------------------------------------------------+
 *  |                        immediate data                         | 24
 *  +---------------------------------------------------------------+
 *  |                             rkey                              | 28
 *  +---------------------------------------------------------------+
 *  |                      remote address (64)                      | 32
 *  +---------------------------------------------------------------+
 *  |               atomic compare or add operand (64)              | 40
 *  +---------------------------------------------------------------+
 *  |                      atomic swap operand (64)                 | 48
 *  +---------------------------------------------------------------+
 *  |                   payload (segment length bytes)             ...  56
 * </pre>
 * Every frame carries the ACK PSN (cumulative acknowledgement piggybacked on traffic); a frame of opcode
 * {@link #OP_ACK} carries nothing else, its syndrome says ACK or which NAK. A QP that is destroyed or reset ends its
 * link with a {@link #OP_GOODBYE} frame (which carries nothing else either), so that its peer can tell a QP that
 * left from a process that died: both close the connection.
 * <p>
 * UD datagrams (UDP) have their own header, then the payload:
 * <pre>
 *  +---------------+---------------+-------------------------------+
 *  |    opcode     |     flags     |            reserved           |  0
 *  +---------------+---------------+-------------------------------+
 *  |                          source QPN                           |  4
 *  +---------------------------------------------------------------+
 *  |                        destination QPN                        |  8
 *  +---------------------------------------------------------------+
 *  |                             Q_Key                             | 12
 *  +---------------------------------------------------------------+
 *  |                        immediate data                         | 16
 *  +---------------------------------------------------------------+
 *  |                        payload length                         | 20
 *  +---------------------------------------------------------------+
 *  |                     source GID (16 bytes)                     | 24
 *  +---------------------------------------------------------------+
 *  |                  destination GID (16 bytes)                   | 40
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class SoftFrameDescriptor
{
    /** HELLO magic, 'IBXS'. */
    public static final int HELLO_MAGIC = 0x53584249;
    /** HELLO protocol version: 5 since a HELLO carries its connection's {@link SoftLinkToken}. */
    public static final int HELLO_VERSION = 5;
    /** Offset of the HELLO magic. */
    public static final int HELLO_MAGIC_OFFSET = 0;
    /** Offset of the HELLO version. */
    public static final int HELLO_VERSION_OFFSET = 4;
    /** Offset of the source IPv4 address. */
    public static final int HELLO_SRC_IPV4_OFFSET = 8;
    /** Offset of the source port. */
    public static final int HELLO_SRC_PORT_OFFSET = 12;
    /** Offset of the source QPN. */
    public static final int HELLO_SRC_QPN_OFFSET = 16;
    /** Offset of the destination QPN. */
    public static final int HELLO_DST_QPN_OFFSET = 20;
    /** Offset of the HELLO flags. */
    public static final int HELLO_FLAGS_OFFSET = 24;
    /** HELLO flag: the connecting side offers the shared-memory file the other fields name. */
    public static final int HELLO_FLAG_SHARED_MEMORY = 1;
    /** Offset of the offering process id. */
    public static final int HELLO_PID_OFFSET = 32;
    /** Offset of the link number. */
    public static final int HELLO_LINK_OFFSET = 40;
    /** Offset of the file's nonce. */
    public static final int HELLO_NONCE_OFFSET = 48;
    /** Offset of the boot id's first 64 bits. */
    public static final int HELLO_BOOT_ID_OFFSET = 56;
    /** Offset of the link token. */
    public static final int HELLO_TOKEN_OFFSET = 72;
    /** Length of a HELLO. */
    public static final int HELLO_LENGTH = HELLO_TOKEN_OFFSET + SoftLinkToken.LENGTH;
    /** Answer to a shared-memory offer: mapped, frames go through the file, 'IBXA'. */
    public static final int SHM_ACCEPTED = 0x41584249;
    /** Answer to a shared-memory offer: not taken, frames go through the connection, 'IBXD'. */
    public static final int SHM_DECLINED = 0x44584249;
    /** Length of the answer. */
    public static final int SHM_ANSWER_LENGTH = 4;

    /** Offset of the opcode byte. */
    public static final int OPCODE_OFFSET = 0;
    /** Offset of the flags byte. */
    public static final int FLAGS_OFFSET = 1;
    /** Offset of the ACK syndrome byte. */
    public static final int SYNDROME_OFFSET = 2;
    /** Offset of the RNR timer byte of an RNR NAK. */
    public static final int RNR_TIMER_OFFSET = 3;
    /** Offset of the PSN. */
    public static final int PSN_OFFSET = 4;
    /** A PSN is 24 bits: PSN arithmetic wraps with this mask. */
    public static final int PSN_MASK = 0xffffff;

    /**
     * @return {@code a - b} in the 24-bit PSN space, as a signed distance: positive when {@code a} is after {@code b}.
     */
    public static int psnDelta(final int a, final int b)
    {
        return ((a - b) << 8) >> 8;
    }
    /** Offset of the ACK PSN. */
    public static final int ACK_PSN_OFFSET = 8;
    /** Offset of the segment length. */
    public static final int SEGMENT_LENGTH_OFFSET = 12;
    /** Offset of the segment offset. */
    public static final int SEGMENT_OFFSET_OFFSET = 16;
    /** Offset of the message length. */
    public static final int MESSAGE_LENGTH_OFFSET = 20;
    /** Offset of the immediate data. */
    public static final int IMM_OFFSET = 24;
    /** Offset of the rkey. */
    public static final int RKEY_OFFSET = 28;
    /** Offset of the remote address. */
    public static final int REMOTE_ADDR_OFFSET = 32;
    /** Offset of the atomic compare/add operand. */
    public static final int COMPARE_ADD_OFFSET = 40;
    /** Offset of the atomic swap operand. */
    public static final int SWAP_OFFSET = 48;
    /** Length of a frame header. */
    public static final int HEADER_LENGTH = 56;
    /** Largest payload of one frame. */
    public static final int MAX_SEGMENT_LENGTH = 64 * 1024;
    /** Largest frame. */
    public static final int MAX_FRAME_LENGTH = HEADER_LENGTH + MAX_SEGMENT_LENGTH;

    /** Request: SEND. */
    public static final byte OP_SEND = 1;
    /** Request: SEND with immediate. */
    public static final byte OP_SEND_IMM = 2;
    /** Request: RDMA WRITE. */
    public static final byte OP_WRITE = 3;
    /** Request: RDMA WRITE with immediate. */
    public static final byte OP_WRITE_IMM = 4;
    /** Request: RDMA READ. */
    public static final byte OP_READ = 5;
    /** Request: atomic compare and swap. */
    public static final byte OP_CMP_SWAP = 6;
    /** Request: atomic fetch and add. */
    public static final byte OP_FETCH_ADD = 7;
    /** Response: RDMA READ data. */
    public static final byte OP_READ_RESPONSE = 8;
    /** Response: atomic original value (in the compare/add field). */
    public static final byte OP_ATOMIC_RESPONSE = 9;
    /** Response: ACK or NAK, see the syndrome. */
    public static final byte OP_ACK = 10;
    /** Control: the sender's QP was destroyed or reset; nothing follows, the link closes. */
    public static final byte OP_GOODBYE = 11;

    /** Flag: the requester asked for a solicited event. */
    public static final byte FLAG_SOLICITED = 1;
    /**
     * Flag: the requester wants this message acknowledged promptly (its completion is signaled or its send queue
     * is half full), as IB's AckReq bit. Without it the responder may acknowledge a stream in bulk.
     */
    public static final byte FLAG_ACK_REQUEST = 2;

    /** Syndrome: positive acknowledgement. */
    public static final byte SYNDROME_ACK = 0;
    /** Syndrome: receiver not ready, retry after the RNR timer. */
    public static final byte SYNDROME_RNR_NAK = 1;
    /** Syndrome: invalid request (for example the message is longer than the receive buffer). */
    public static final byte SYNDROME_NAK_INVALID_REQUEST = 2;
    /** Syndrome: remote access error (rkey, bounds, access flags, alignment). */
    public static final byte SYNDROME_NAK_REMOTE_ACCESS = 3;
    /** Syndrome: remote operational error (the responder could not write its receive buffer). */
    public static final byte SYNDROME_NAK_REMOTE_OPERATION = 4;

    /** Offset of the UD opcode. */
    public static final int UD_OPCODE_OFFSET = 0;
    /** Offset of the UD flags. */
    public static final int UD_FLAGS_OFFSET = 1;
    /** Offset of the UD source QPN. */
    public static final int UD_SRC_QPN_OFFSET = 4;
    /** Offset of the UD destination QPN. */
    public static final int UD_DST_QPN_OFFSET = 8;
    /** Offset of the UD Q_Key. */
    public static final int UD_QKEY_OFFSET = 12;
    /** Offset of the UD immediate data. */
    public static final int UD_IMM_OFFSET = 16;
    /** Offset of the UD payload length. */
    public static final int UD_PAYLOAD_LENGTH_OFFSET = 20;
    /** Offset of the UD source GID. */
    public static final int UD_SRC_GID_OFFSET = 24;
    /** Offset of the UD destination GID. */
    public static final int UD_DST_GID_OFFSET = 40;
    /** Length of the UD header. */
    public static final int UD_HEADER_LENGTH = 56;

    /** Length of the global routing header at the start of every UD receive buffer. */
    public static final int GRH_LENGTH = 40;
    /** Offset of the GRH version, traffic class and flow label word (big-endian, as on the wire). */
    public static final int GRH_VERSION_OFFSET = 0;
    /** Offset of the GRH payload length (big-endian). */
    public static final int GRH_PAYLOAD_LENGTH_OFFSET = 4;
    /** Offset of the GRH next header byte. */
    public static final int GRH_NEXT_HEADER_OFFSET = 6;
    /** Offset of the GRH hop limit byte. */
    public static final int GRH_HOP_LIMIT_OFFSET = 7;
    /** Offset of the GRH source GID. */
    public static final int GRH_SGID_OFFSET = 8;
    /** Offset of the GRH destination GID. */
    public static final int GRH_DGID_OFFSET = 24;
    /** GRH next header value for an IB transport header. */
    public static final int GRH_NEXT_HEADER_IBA = 0x1b;
    /** GRH first word: IP version 6, no traffic class or flow label. */
    public static final int GRH_VERSION_6 = 0x60000000;

    private SoftFrameDescriptor()
    {
    }

    /**
     * @param opcode a frame opcode.
     * @return whether it is a request handled by the responder.
     */
    public static boolean isRequest(final int opcode)
    {
        return opcode >= OP_SEND && opcode <= OP_FETCH_ADD;
    }

    /**
     * @param opcode a frame opcode.
     * @return whether it is known.
     */
    public static boolean isValidOpcode(final int opcode)
    {
        return opcode >= OP_SEND && opcode <= OP_GOODBYE;
    }

    /**
     * @param segment a frame header's segment length.
     * @return whether it is one a frame can have: 0 to {@link #MAX_SEGMENT_LENGTH}.
     */
    public static boolean isValidSegment(final int segment)
    {
        return segment >= 0 && segment <= MAX_SEGMENT_LENGTH;
    }
}
