package io.ibex.rdma.provider.soft.cm;

import io.ibex.rdma.cm.ConnParam;
import io.ibex.rdma.cm.PortSpace;
import io.ibex.rdma.provider.soft.wire.SoftLinkToken;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.Gid;

/**
 * Layout of the soft connection manager's messages, which travel on one TCP connection per connection id
 * (all three port spaces). Every message is one frame: a fixed header, then the private data. Numbers are
 * big-endian, as on the wire of the IB CM.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                      Magic ("IBCM")                           |  0
 *  +---------------+---------------+-------------------------------+
 *  |    Version    |     Type      |   Port Space (rdma_port_space)|  4
 *  +---------------+---------------+-------------------------------+
 *  |                 QP Number (REQ, REP)                          |  8
 *  +---------------------------------------------------------------+
 *  |                 Starting PSN (REQ, REP)                       | 12
 *  +---------------------------------------------------------------+
 *  |                 Q_Key (REQ, REP)                              | 16
 *  +---------------------------------------------------------------+
 *  |        Status (REJ reason, SIDR REP status for UDP)           | 20
 *  +---------------+---------------+---------------+---------------+
 *  | Responder Res.|Initiator Depth|  Retry Count  | RNR Retry Cnt | 24
 *  +---------------+---------------+---------------+---------------+
 *  |                                                               | 28
 *  +                 GID of the sender's port (16 bytes)           +
 *  |                                                               |
 *  +-------------------------------+-------------------------------+
 *  |     Private Data Length       |           Reserved            | 44
 *  +-------------------------------+-------------------------------+
 *  |                                                               | 48
 *  +          Link token (REP of RC, 16 bytes; else zero)          +
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                 Private Data (0..196 bytes)                 ...  64
 *  +---------------------------------------------------------------+
 * </pre>
 * REQ and REP fill every field but the link token, which only the REP of a connected port space carries: the
 * secret the passive side draws for the connection, which the HELLO of the QPs' link must carry (see
 * {@link io.ibex.rdma.provider.soft.wire.SoftLinkToken}). RTU, DREQ and DREP fill only the first eight bytes; REJ adds
 * status and private data.
 * For the UDP port space REQ and REP are the SIDR request and reply. Private data travels at its own length and
 * is padded with zeros to the IB CM's fixed size ({@link #maxPrivateData}) when delivered, as rdma_cm does.
 */
final class CmMessageDescriptor
{
    /** "IBCM" in ASCII: a frame that does not start with it is not ours. */
    static final int MAGIC = 0x4942434D;
    /** The protocol version; a frame of another version is malformed. */
    static final int VERSION = 2;

    /** Connection (or SIDR) request. */
    static final int TYPE_REQ = 1;
    /** Connection (or SIDR) reply. */
    static final int TYPE_REP = 2;
    /** Ready to use: the active side is established. */
    static final int TYPE_RTU = 3;
    /** Rejection, carrying a reason and private data. */
    static final int TYPE_REJ = 4;
    /** Disconnect request. */
    static final int TYPE_DREQ = 5;
    /** Disconnect reply. */
    static final int TYPE_DREP = 6;

    /** IB CM reject reason: no listener for the service id (address, port and port space). */
    static final int REJ_INVALID_SERVICE_ID = 8;
    /** IB CM reject reason: the consumer rejected (rdma_reject). */
    static final int REJ_CONSUMER_DEFINED = 28;
    /** SIDR reply status: the request was accepted. */
    static final int SIDR_SUCCESS = 0;
    /** SIDR reply status: no listener for the service id. */
    static final int SIDR_UNSUPPORTED = 1;
    /** SIDR reply status: the consumer rejected. */
    static final int SIDR_REJECT = 2;

    /** QP numbers have 24 bits. */
    static final int QP_NUM_MASK = 0xffffff;
    /** Largest retry and RNR retry count (3 bits). */
    static final int MAX_RETRY_COUNT = 7;

    /** Private data of a SIDR REQ: 216 bytes of the IB CM message less rdma_cm's 36-byte header. */
    static final int SIDR_REQ_PRIVATE_DATA = 180;
    /** Private data of a SIDR REP. */
    static final int SIDR_REP_PRIVATE_DATA = 136;

    /** Offset of the magic number. */
    static final int MAGIC_OFFSET = 0;
    /** Offset of the version byte. */
    static final int VERSION_OFFSET = 4;
    /** Offset of the message type byte. */
    static final int TYPE_OFFSET = 5;
    /** Offset of the port space (enum rdma_port_space value, 16 bits). */
    static final int PORT_SPACE_OFFSET = 6;
    /** Offset of the sender's QP number. */
    static final int QP_NUM_OFFSET = 8;
    /** Offset of the sender's starting send PSN. */
    static final int START_PSN_OFFSET = 12;
    /** Offset of the sender's Q_Key. */
    static final int QKEY_OFFSET = 16;
    /** Offset of the status (reject reason or SIDR status). */
    static final int STATUS_OFFSET = 20;
    /** Offset of the responder resources byte. */
    static final int RESPONDER_RESOURCES_OFFSET = 24;
    /** Offset of the initiator depth byte. */
    static final int INITIATOR_DEPTH_OFFSET = 25;
    /** Offset of the retry count byte. */
    static final int RETRY_COUNT_OFFSET = 26;
    /** Offset of the RNR retry count byte. */
    static final int RNR_RETRY_COUNT_OFFSET = 27;
    /** Offset of the sender's GID. */
    static final int GID_OFFSET = 28;
    /** Offset of the private data length (16 bits). */
    static final int PRIVATE_DATA_LENGTH_OFFSET = GID_OFFSET + Gid.LENGTH;
    /** Offset of the link token. */
    static final int LINK_TOKEN_OFFSET = 48;
    /** Length of the fixed header; the private data follows. */
    static final int HEADER_LENGTH = LINK_TOKEN_OFFSET + SoftLinkToken.LENGTH;
    /** Most private data any message carries (a REP of a connected port space). */
    static final int MAX_PRIVATE_DATA = ConnParam.MAX_ACCEPT_PRIVATE_DATA;
    /** Longest frame. */
    static final int MAX_FRAME_LENGTH = HEADER_LENGTH + MAX_PRIVATE_DATA;

    private CmMessageDescriptor()
    {
    }

    /**
     * @param type a message type.
     * @return true if it is one of the TYPE_* values.
     */
    static boolean isValidType(final int type)
    {
        return type >= TYPE_REQ && type <= TYPE_DREP;
    }

    /**
     * How much private data a message carries, as the IB CM fixes it: a receiver gets exactly this many bytes,
     * the sender's followed by zeros, and a sender may not send more.
     *
     * @param type      a valid message type.
     * @param portSpace the connection's port space (UDP uses the SIDR sizes).
     * @return the private data size of the message type.
     */
    static int maxPrivateData(final int type, final PortSpace portSpace)
    {
        final boolean sidr = portSpace.qpType() == QpType.UD;
        switch (type)
        {
            case TYPE_REQ:
                return sidr ? SIDR_REQ_PRIVATE_DATA : ConnParam.MAX_CONNECT_PRIVATE_DATA;
            case TYPE_REP:
                return sidr ? SIDR_REP_PRIVATE_DATA : ConnParam.MAX_ACCEPT_PRIVATE_DATA;
            case TYPE_REJ:
                return ConnParam.MAX_REJECT_PRIVATE_DATA;
            default:
                return 0;
        }
    }

    /**
     * @param portSpace a port space.
     * @return the message that rejects a request: a REJ, or for SIDR a REP with a failure status.
     */
    static int rejectionType(final PortSpace portSpace)
    {
        return portSpace.qpType() == QpType.UD ? TYPE_REP : TYPE_REJ;
    }

    /**
     * @param type a message type.
     * @return its name for logs.
     */
    static String typeName(final int type)
    {
        switch (type)
        {
            case TYPE_REQ:
                return "REQ";
            case TYPE_REP:
                return "REP";
            case TYPE_RTU:
                return "RTU";
            case TYPE_REJ:
                return "REJ";
            case TYPE_DREQ:
                return "DREQ";
            case TYPE_DREP:
                return "DREP";
            default:
                return "type " + type;
        }
    }
}
