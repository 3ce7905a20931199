package io.ibex.transport.config.internal;

import io.ibex.transport.config.ConfigException;
import io.ibex.transport.config.ConfigLocation;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The text of one config file for either reader: a regular file (not a directory, device or pipe) of at most a
 * given number of bytes, decoded as UTF-8. A byte that is not UTF-8 is an error at its line and column.
 *
 * @param text  the file's text.
 * @param bytes how many bytes it was.
 */
record ConfigText(String text, int bytes)
{
    /**
     * @param file     the file.
     * @param maxBytes the most bytes it may have; one more is read at most, whatever the file claims to be.
     * @return its text and size.
     * @throws TooLarge       if it has more than {@code maxBytes} bytes.
     * @throws ConfigException naming the file if it is not a regular file, cannot be read or is not UTF-8.
     */
    static ConfigText read(final Path file, final long maxBytes)
    {
        final String notAFile = notARegularFile(file);
        if (notAFile != null)
        {
            throw new ConfigException(ConfigLocation.of(file.toString()), notAFile);
        }
        final byte[] bytes;
        try (InputStream in = Files.newInputStream(file))
        {
            bytes = in.readNBytes((int)Math.min(maxBytes + 1, Integer.MAX_VALUE - 8));
        }
        catch (final IOException ex)
        {
            throw new ConfigException(ConfigLocation.of(file.toString()), "cannot read the file: " + ex, ex);
        }
        if (bytes.length > maxBytes)
        {
            throw new TooLarge(size(file, bytes.length));
        }
        return new ConfigText(decode(bytes, file.toString()), bytes.length);
    }

    /**
     * @return why the file cannot be a config ({@code "is a directory, not a file"}), or null if it is a regular
     *         file or does not exist (reading it then says so).
     */
    static String notARegularFile(final Path file)
    {
        if (Files.isDirectory(file))
        {
            return "is a directory, not a file";
        }
        if (Files.exists(file) && !Files.isRegularFile(file))
        {
            return "is not a regular file (a device, pipe or socket)";
        }
        return null;
    }

    /**
     * @return the text, after a check that it is all UTF-8.
     * @throws ConfigException at the line and column of the first byte that is not.
     */
    static String decode(final byte[] bytes, final String source)
    {
        final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        final ByteBuffer in = ByteBuffer.wrap(bytes);
        final CharBuffer out = CharBuffer.allocate(bytes.length);
        final CoderResult result = decoder.decode(in, out, true);
        if (result.isError())
        {
            throw new ConfigException(badByteLocation(out.flip(), source), String.format(
                "not UTF-8 text: byte 0x%02x is not UTF-8 here (save the file as UTF-8)", bytes[in.position()] & 0xff));
        }
        decoder.flush(out);
        return out.flip().toString();
    }

    /** @return the location just after the text decoded so far. */
    private static ConfigLocation badByteLocation(final CharBuffer decoded, final String source)
    {
        int line = 1;
        int column = 1;
        if (decoded.hasRemaining() && decoded.get(0) == '\ufeff')
        {
            decoded.get(); // a byte order mark is not part of the config, as LibconfigCursor skips it
        }
        while (decoded.hasRemaining())
        {
            if (decoded.get() == '\n')
            {
                line++;
                column = 1;
            }
            else
            {
                column++;
            }
        }
        return new ConfigLocation(source, line, column);
    }

    private static long size(final Path file, final long read)
    {
        try
        {
            return Math.max(read, Files.size(file));
        }
        catch (final IOException ex)
        {
            return read;
        }
    }

    /** A file with more bytes than it may have: the caller names the limit and where the file was included. */
    static final class TooLarge extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        private final long bytes;

        TooLarge(final long bytes)
        {
            super(null, null, false, false);
            this.bytes = bytes;
        }

        /** @return the file's size as far as it is known: at least one byte more than it may have. */
        long bytes()
        {
            return bytes;
        }
    }
}
