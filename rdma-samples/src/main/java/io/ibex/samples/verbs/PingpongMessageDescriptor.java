package io.ibex.samples.verbs;

import io.ibex.rdma.verbs.Gid;
import io.ibex.samples.EndpointAddress;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The address message of {@code ibv_rc_pingpong} and {@code ibv_ud_pingpong} (rdma-core's
 * {@code pp_client_exch_dest} / {@code pp_server_exch_dest}): 52 bytes of text written with
 * {@code "%04x:%06x:%06x:%s"} and its terminating NUL, the GID as 32 hex digits of its bytes in order.
 * <pre>
 *   0      4 5           11 12          18 19                                             51
 *  +------+-+-------------+-+-------------+-+-----------------------------------------------+--+
 *  | LID  |:|     QPN     |:|     PSN     |:|              GID (32 hex digits)              |\0|
 *  +------+-+-------------+-+-------------+-+-----------------------------------------------+--+
 *   4 hex    6 hex digits    6 hex digits
 * </pre>
 * The client sends its message first; the server connects its queue pair, answers with its own, and the client
 * ends the exchange with {@link #DONE} ({@code "done"} and its NUL, 5 bytes). The C tools write each message with
 * one {@code write} and read it with one {@code read}, so it must go out in one piece.
 * <p>
 * Reading is strict where the C tools' {@code sscanf} is lenient: a message that is not exactly this layout is
 * refused with the offending text, since a peer that sends anything else is not one of these programs.
 */
public final class PingpongMessageDescriptor
{
    /** Length of the message, its NUL included. */
    public static final int LENGTH = 52;
    /** Offset of the LID's 4 hex digits. */
    public static final int LID_OFFSET = 0;
    /** Hex digits of the LID. */
    public static final int LID_DIGITS = 4;
    /** Offset of the QPN's 6 hex digits. */
    public static final int QPN_OFFSET = LID_OFFSET + LID_DIGITS + 1;
    /** Hex digits of the QPN. */
    public static final int QPN_DIGITS = 6;
    /** Offset of the PSN's 6 hex digits. */
    public static final int PSN_OFFSET = QPN_OFFSET + QPN_DIGITS + 1;
    /** Hex digits of the PSN. */
    public static final int PSN_DIGITS = 6;
    /** Offset of the GID's 32 hex digits. */
    public static final int GID_OFFSET = PSN_OFFSET + PSN_DIGITS + 1;
    /** Hex digits of the GID. */
    public static final int GID_DIGITS = 2 * Gid.LENGTH;
    /** Offset of the terminating NUL. */
    public static final int NUL_OFFSET = GID_OFFSET + GID_DIGITS;
    /** The client's last message: "done" and its NUL. */
    private static final byte[] DONE = { 'd', 'o', 'n', 'e', 0 };

    private PingpongMessageDescriptor()
    {
    }

    /** @return a copy of the client's closing message, {@code "done"} and its NUL (5 bytes). */
    public static byte[] done()
    {
        return DONE.clone();
    }

    /**
     * @param message 5 bytes read from the client after the server's address.
     * @return whether they are {@link #done()}.
     */
    public static boolean isDone(final byte[] message)
    {
        return Arrays.equals(message, DONE);
    }

    /**
     * @param address the address to send.
     * @return the 52-byte message.
     */
    public static byte[] encode(final EndpointAddress address)
    {
        final StringBuilder gid = new StringBuilder(GID_DIGITS);
        for (int i = 0; i < Gid.LENGTH; i++)
        {
            gid.append(String.format("%02x", address.gid().byteAt(i) & 0xff));
        }
        final String text = String.format("%04x:%06x:%06x:%s", address.lid(), address.qpNum(), address.psn(), gid);
        final byte[] message = new byte[LENGTH];
        final byte[] ascii = text.getBytes(StandardCharsets.US_ASCII);
        if (ascii.length != NUL_OFFSET)
        {
            throw new IllegalArgumentException("address does not fit the ping-pong message: " + address);
        }
        System.arraycopy(ascii, 0, message, 0, ascii.length);
        return message;
    }

    /**
     * @param message the 52 bytes received.
     * @return the address they carry.
     * @throws IllegalArgumentException naming the first thing that is not as the layout says, with the text.
     */
    public static EndpointAddress decode(final byte[] message)
    {
        if (message.length != LENGTH)
        {
            throw new IllegalArgumentException("expected " + LENGTH + " bytes, got " + message.length);
        }
        final int lid = (int)hex(message, LID_OFFSET, LID_DIGITS, "LID");
        separator(message, QPN_OFFSET - 1);
        final int qpn = (int)hex(message, QPN_OFFSET, QPN_DIGITS, "QPN");
        separator(message, PSN_OFFSET - 1);
        final int psn = (int)hex(message, PSN_OFFSET, PSN_DIGITS, "PSN");
        separator(message, GID_OFFSET - 1);
        final byte[] gid = new byte[Gid.LENGTH];
        for (int i = 0; i < Gid.LENGTH; i++)
        {
            gid[i] = (byte)hex(message, GID_OFFSET + 2 * i, 2, "GID");
        }
        if (message[NUL_OFFSET] != 0)
        {
            throw malformed(message, "byte " + NUL_OFFSET + " is " + describe(message[NUL_OFFSET]) +
                ", expected the terminating NUL");
        }
        return new EndpointAddress(lid, qpn, psn, Gid.of(gid));
    }

    private static long hex(final byte[] message, final int offset, final int digits, final String field)
    {
        long value = 0;
        for (int i = offset; i < offset + digits; i++)
        {
            final int digit = Character.digit(message[i], 16);
            if (digit < 0)
            {
                throw malformed(message, "the " + field + " has " + describe(message[i]) + " at byte " + i +
                    ", expected a hex digit");
            }
            value = (value << 4) | digit;
        }
        return value;
    }

    private static void separator(final byte[] message, final int offset)
    {
        if (message[offset] != ':')
        {
            throw malformed(message, "byte " + offset + " is " + describe(message[offset]) + ", expected ':'");
        }
    }

    private static String describe(final byte b)
    {
        return b >= 0x20 && b < 0x7f ? "'" + (char)b + "'" : String.format("0x%02x", b & 0xff);
    }

    private static IllegalArgumentException malformed(final byte[] message, final String problem)
    {
        final StringBuilder text = new StringBuilder(LENGTH);
        for (final byte b : message)
        {
            text.append(b >= 0x20 && b < 0x7f ? (char)b : '.');
        }
        return new IllegalArgumentException(problem + " (message \"" + text + "\", expected LLLL:QQQQQQ:PPPPPP:" +
            "and 32 hex digits of GID, then NUL)");
    }
}
