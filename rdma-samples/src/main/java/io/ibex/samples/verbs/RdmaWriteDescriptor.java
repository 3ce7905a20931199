package io.ibex.samples.verbs;

import io.ibex.rdma.verbs.Gid;
import io.ibex.samples.EndpointAddress;

import java.nio.ByteBuffer;

/**
 * The messages {@code ibex rdma-write} exchanges over TCP, big-endian. First each side sends its ADDRESS: what
 * the peer needs to connect its RC queue pair (LID, QPN, PSN, GID) and to RDMA-WRITE into its buffer (address,
 * rkey, length).
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                    magic 'I' 'B' 'X' 'A'                      |  0
 *  +-------------------------------+-------------------------------+
 *  |          version (1)          |              LID              |  4
 *  +---------------+---------------+-------------------------------+
 *  |    zero       |                      QPN                      |  8
 *  +---------------+-----------------------------------------------+
 *  |    zero       |                      PSN                      |  12
 *  +---------------+-----------------------------------------------+
 *  |                             rkey                              |  16
 *  +---------------------------------------------------------------+
 *  |                    buffer address (64 bits)                   |  20
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                   buffer length (bytes, > 0)                  |  28
 *  +---------------------------------------------------------------+
 *  |                        GID (16 bytes)                         |  32..47
 *  +---------------------------------------------------------------+
 * </pre>
 * Then NOTICEs, 16 bytes: the client's READY once its queue pair is in RTS, the server's WRITTEN once its RDMA
 * WRITE completed (length and CRC-32 of what it wrote), and the client's ARRIVED (length and CRC-32 of what its
 * buffer holds there), so both sides know whether the message arrived intact.
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                    magic 'I' 'B' 'X' 'N'                      |  0
 *  +---------------------------------------------------------------+
 *  |             kind: 1 READY, 2 WRITTEN, 3 ARRIVED               |  4
 *  +---------------------------------------------------------------+
 *  |                  length (bytes; 0 for READY)                  |  8
 *  +---------------------------------------------------------------+
 *  |                 CRC-32 of the bytes (0 for READY)             |  12
 *  +---------------------------------------------------------------+
 * </pre>
 * Everything read is validated: a peer that sends anything else gets an error naming the field and its value.
 */
public final class RdmaWriteDescriptor
{
    /** Magic of the ADDRESS message: 'IBXA'. */
    public static final int ADDRESS_MAGIC = 0x49425841;
    /** Version of the ADDRESS layout. */
    public static final int VERSION = 1;
    /** Offset of the magic in either message. */
    public static final int MAGIC_OFFSET = 0;
    /** Offset of the 16-bit version. */
    public static final int VERSION_OFFSET = 4;
    /** Offset of the 16-bit LID. */
    public static final int LID_OFFSET = 6;
    /** Offset of the QPN (24 bits in 32). */
    public static final int QPN_OFFSET = 8;
    /** Offset of the PSN (24 bits in 32). */
    public static final int PSN_OFFSET = 12;
    /** Offset of the rkey. */
    public static final int RKEY_OFFSET = 16;
    /** Offset of the 64-bit buffer address. */
    public static final int ADDRESS_OFFSET = 20;
    /** Offset of the buffer length. */
    public static final int LENGTH_OFFSET = 28;
    /** Offset of the GID. */
    public static final int GID_OFFSET = 32;
    /** Length of the ADDRESS message. */
    public static final int ADDRESS_LENGTH = GID_OFFSET + Gid.LENGTH;

    /** Magic of a NOTICE: 'IBXN'. */
    public static final int NOTICE_MAGIC = 0x4942584e;
    /** Offset of the NOTICE's kind. */
    public static final int KIND_OFFSET = 4;
    /** Offset of the NOTICE's length. */
    public static final int NOTICE_LENGTH_OFFSET = 8;
    /** Offset of the NOTICE's CRC-32. */
    public static final int CRC_OFFSET = 12;
    /** Length of a NOTICE. */
    public static final int NOTICE_LENGTH = 16;
    /** NOTICE kind: the client's queue pair is in RTS, the server may write. */
    public static final int READY = 1;
    /** NOTICE kind: the server's RDMA WRITE completed. */
    public static final int WRITTEN = 2;
    /** NOTICE kind: what the client found in its buffer. */
    public static final int ARRIVED = 3;

    private static final int PSN_QPN_MASK = 0xffffff;

    private RdmaWriteDescriptor()
    {
    }

    /**
     * What one side sends: its queue pair's address and its registered buffer.
     *
     * @param endpoint the queue pair's LID, QPN, PSN and GID.
     * @param address  the buffer's start address.
     * @param rkey     the buffer's remote key.
     * @param length   the buffer's length in bytes.
     */
    public record Peer(EndpointAddress endpoint, long address, int rkey, int length)
    {
        /**
         * @return the buffer as the programs print it.
         */
        public String bufferText()
        {
            return String.format("buffer 0x%x, rkey 0x%x, %d bytes", address, rkey, length);
        }
    }

    /**
     * A notice: its kind, and the length and CRC-32 of the bytes it is about.
     *
     * @param kind   {@link #READY}, {@link #WRITTEN} or {@link #ARRIVED}.
     * @param length bytes.
     * @param crc    CRC-32 of the bytes (as {@link java.util.zip.CRC32} computes it).
     */
    public record Notice(int kind, int length, int crc)
    {
    }

    /**
     * @param peer what to send.
     * @return the ADDRESS message.
     */
    public static byte[] encodeAddress(final Peer peer)
    {
        final ByteBuffer message = ByteBuffer.allocate(ADDRESS_LENGTH);
        message.putInt(MAGIC_OFFSET, ADDRESS_MAGIC)
            .putShort(VERSION_OFFSET, (short)VERSION)
            .putShort(LID_OFFSET, (short)peer.endpoint().lid())
            .putInt(QPN_OFFSET, peer.endpoint().qpNum() & PSN_QPN_MASK)
            .putInt(PSN_OFFSET, peer.endpoint().psn() & PSN_QPN_MASK)
            .putInt(RKEY_OFFSET, peer.rkey())
            .putLong(ADDRESS_OFFSET, peer.address())
            .putInt(LENGTH_OFFSET, peer.length())
            .put(GID_OFFSET, peer.endpoint().gid().toBytes());
        return message.array();
    }

    /**
     * @param bytes an ADDRESS message.
     * @return what it says.
     * @throws IllegalArgumentException naming the first field that is not valid, and its value.
     */
    public static Peer decodeAddress(final byte[] bytes)
    {
        final ByteBuffer message = checkLength(bytes, ADDRESS_LENGTH, "an address message");
        checkMagic(message.getInt(MAGIC_OFFSET), ADDRESS_MAGIC, "an address message");
        final int version = message.getShort(VERSION_OFFSET) & 0xffff;
        if (version != VERSION)
        {
            throw new IllegalArgumentException("address message version " + version + ", expected " + VERSION);
        }
        final int qpn = message.getInt(QPN_OFFSET);
        if (qpn < 2 || qpn > PSN_QPN_MASK)
        {
            throw new IllegalArgumentException(String.format(
                "QPN 0x%x is not the number of a queue pair (2..0xffffff)", qpn));
        }
        final int psn = message.getInt(PSN_OFFSET);
        if ((psn & ~PSN_QPN_MASK) != 0)
        {
            throw new IllegalArgumentException(String.format("PSN 0x%x has more than 24 bits", psn));
        }
        final long address = message.getLong(ADDRESS_OFFSET);
        final int length = message.getInt(LENGTH_OFFSET);
        if (address == 0 || length <= 0)
        {
            throw new IllegalArgumentException(String.format(
                "buffer address 0x%x, length %d: expected a registered buffer (non-zero address, length > 0)",
                address, length));
        }
        final byte[] gid = new byte[Gid.LENGTH];
        message.get(GID_OFFSET, gid);
        final EndpointAddress endpoint =
            new EndpointAddress(message.getShort(LID_OFFSET) & 0xffff, qpn, psn, Gid.of(gid));
        return new Peer(endpoint, address, message.getInt(RKEY_OFFSET), length);
    }

    /**
     * @param notice what to send.
     * @return the NOTICE message.
     */
    public static byte[] encodeNotice(final Notice notice)
    {
        final ByteBuffer message = ByteBuffer.allocate(NOTICE_LENGTH);
        message.putInt(MAGIC_OFFSET, NOTICE_MAGIC)
            .putInt(KIND_OFFSET, notice.kind())
            .putInt(NOTICE_LENGTH_OFFSET, notice.length())
            .putInt(CRC_OFFSET, notice.crc());
        return message.array();
    }

    /**
     * @param bytes        a NOTICE message.
     * @param expectedKind the kind the protocol expects now.
     * @return what it says.
     * @throws IllegalArgumentException naming the first field that is not valid, and its value.
     */
    public static Notice decodeNotice(final byte[] bytes, final int expectedKind)
    {
        final ByteBuffer message = checkLength(bytes, NOTICE_LENGTH, "a notice");
        checkMagic(message.getInt(MAGIC_OFFSET), NOTICE_MAGIC, "a notice");
        final int kind = message.getInt(KIND_OFFSET);
        if (kind != expectedKind)
        {
            throw new IllegalArgumentException("notice of kind " + kind + ", expected " + expectedKind + " (" +
                kindName(expectedKind) + ")");
        }
        final int length = message.getInt(NOTICE_LENGTH_OFFSET);
        if (length < 0 || (kind == READY && length != 0))
        {
            throw new IllegalArgumentException(kindName(kind) + " notice with length " + length);
        }
        return new Notice(kind, length, message.getInt(CRC_OFFSET));
    }

    /**
     * @param kind a notice kind.
     * @return its name.
     */
    public static String kindName(final int kind)
    {
        return switch (kind)
        {
            case READY -> "READY";
            case WRITTEN -> "WRITTEN";
            case ARRIVED -> "ARRIVED";
            default -> "kind " + kind;
        };
    }

    private static ByteBuffer checkLength(final byte[] bytes, final int length, final String what)
    {
        if (bytes.length != length)
        {
            throw new IllegalArgumentException(what + " has " + length + " bytes, got " + bytes.length);
        }
        return ByteBuffer.wrap(bytes);
    }

    private static void checkMagic(final int magic, final int expected, final String what)
    {
        if (magic != expected)
        {
            throw new IllegalArgumentException(String.format("magic 0x%08x, expected 0x%08x ('%s') for %s",
                magic, expected, ascii(expected), what));
        }
    }

    private static String ascii(final int magic)
    {
        return new String(new char[] {
            (char)(magic >>> 24), (char)((magic >>> 16) & 0xff), (char)((magic >>> 8) & 0xff), (char)(magic & 0xff) });
    }
}
