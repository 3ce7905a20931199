package io.ibex.samples.cm;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The ping data of rping: for ping N in a buffer of {@code size} bytes, {@code rping_test_client} writes the
 * text {@code "rdma-ping-N: "}, then the characters 'A'..'z' (65..122) in a cycle that starts N places after
 * 'A', and a NUL in the last byte. The server RDMA READs it from the client's source buffer and RDMA WRITEs it
 * (up to and including the NUL) into the client's sink buffer, which must then equal the source.
 */
final class RpingPattern
{
    /**
     * The smallest size rping takes: {@code sizeof(stringify(INT_MAX)) + sizeof("rdma-ping-%d: ")}, where
     * INT_MAX is not expanded (rping includes no limits.h), so 8 + 15.
     */
    static final int MIN_SIZE = 23;
    /** The largest size rping takes ({@code RPING_BUFSIZE - 1}). */
    static final int MAX_SIZE = 64 * 1024 - 1;
    /** rping's default size. */
    static final int DEFAULT_SIZE = 64;

    private static final byte FIRST = 'A';
    private static final int CYCLE = 'z' - 'A' + 1;

    private RpingPattern()
    {
    }

    /**
     * @param ping the ping number, from 0.
     * @return the text the ping data starts with.
     */
    static String prefix(final int ping)
    {
        return "rdma-ping-" + ping + ": ";
    }

    /**
     * Writes the ping data into {@code buffer[0, size)}.
     *
     * @param buffer the source buffer.
     * @param ping   the ping number, from 0.
     * @param size   the buffer's size, at least {@link #MIN_SIZE}.
     */
    static void fill(final ByteBuffer buffer, final int ping, final int size)
    {
        final String prefix = prefix(ping);
        for (int i = 0; i < size; i++)
        {
            buffer.put(i, byteAt(prefix, ping, size, i));
        }
    }

    /**
     * @param buffer the buffer to check.
     * @param ping   the ping number, from 0.
     * @param size   how many bytes the ping data has.
     * @return the index of the first byte of {@code buffer[0, size)} that differs from the ping data, or -1.
     */
    static int firstDifference(final ByteBuffer buffer, final int ping, final int size)
    {
        final String prefix = prefix(ping);
        for (int i = 0; i < size; i++)
        {
            if (buffer.get(i) != byteAt(prefix, ping, size, i))
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * @param buffer a buffer.
     * @param limit  how many bytes to look at.
     * @return the index of the first NUL in {@code buffer[0, limit)}, as {@code strlen}, or -1 if there is none.
     */
    static int terminator(final ByteBuffer buffer, final int limit)
    {
        for (int i = 0; i < limit; i++)
        {
            if (buffer.get(i) == 0)
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * @param buffer a buffer holding a NUL-terminated string at 0.
     * @param length the string's length, without the NUL.
     * @return the string, as rping prints it with {@code %s}.
     */
    static String text(final ByteBuffer buffer, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.get(0, bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    private static byte byteAt(final String prefix, final int ping, final int size, final int i)
    {
        if (i == size - 1)
        {
            return 0;
        }
        if (i < prefix.length())
        {
            return (byte)prefix.charAt(i);
        }
        return (byte)(FIRST + (ping % CYCLE + i - prefix.length()) % CYCLE);
    }
}
