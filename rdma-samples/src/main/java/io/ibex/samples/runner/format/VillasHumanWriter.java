package io.ibex.samples.runner.format;

import io.ibex.transport.sample.Sample;
import io.ibex.transport.sample.Signal;
import io.ibex.transport.sample.SignalList;
import io.ibex.transport.sample.SignalValues;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;

/**
 * Writes samples in {@link VillasHuman villas.human} as VILLASnode does: the header before the first sample, then a
 * line per sample, through a buffer of its own that goes to the channel when full or flushed. Each value is
 * formatted by its signal's type straight into the buffer: nothing is allocated per sample.
 * <p>
 * It counts what reached the channel as whole lines: {@link #samplesWritten()} are the samples whose newline was
 * written, {@link #tornBytes()} the bytes of a line begun after them. Once the channel fails the writer writes
 * nothing more, so that a retry cannot add part of a sample formatted before the failure.
 * <p>
 * Not thread safe. Values beyond the signal list are not written, as VILLAS.
 */
public final class VillasHumanWriter
{
    /** The smallest buffer: room for the longest value of any type, so a value never needs two flushes. */
    public static final int MIN_BUFFER_SIZE = 1024;
    /** Seconds, point, nanoseconds and the sequence in parentheses, 20 digits each at most. */
    private static final int MAX_PREFIX_LENGTH = 3 * 20 + 3;
    /** A complex value: two decimals, the 'i' and the separator before it. */
    private static final int MAX_VALUE_LENGTH = 2 * FixedDecimal.MAX_LENGTH + 2;
    private static final int NANOS_DIGITS = 9;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final WritableByteChannel channel;
    private final SignalList signals;
    private final ByteBuffer bytes;
    private final MutableDirectBuffer buffer;
    private final FixedDecimal decimal = new FixedDecimal(VillasHuman.PRECISION);
    private int used;
    private boolean headerWritten;
    /** Newlines of the header that have not reached the channel: the newlines after them end samples. */
    private int headerLinesPending;
    private long samplesWritten;
    private long tornBytes;
    private boolean failed;

    /**
     * @param channel    where the text goes; the writer does not close it.
     * @param signals    the signals of the samples: the header names them and each value is written as its type.
     * @param bufferSize bytes to gather before writing to the channel, at least {@value #MIN_BUFFER_SIZE}.
     * @throws IllegalArgumentException if the buffer size is smaller.
     */
    public VillasHumanWriter(final WritableByteChannel channel, final SignalList signals, final int bufferSize)
    {
        if (bufferSize < MIN_BUFFER_SIZE)
        {
            throw new IllegalArgumentException("buffer size " + bufferSize + " is below " + MIN_BUFFER_SIZE);
        }
        this.channel = channel;
        this.signals = signals;
        this.bytes = ByteBuffer.allocateDirect(bufferSize);
        this.buffer = new UnsafeBuffer(bytes);
    }

    /** @return the signals it writes by. */
    public SignalList signals()
    {
        return signals;
    }

    /** @return the samples whose whole line reached the channel. */
    public long samplesWritten()
    {
        return samplesWritten;
    }

    /** @return the bytes that reached the channel after the last whole line: a torn line, if not 0. */
    public long tornBytes()
    {
        return tornBytes;
    }

    /** @return whether the channel failed a write: the writer writes nothing more. */
    public boolean failed()
    {
        return failed;
    }

    /**
     * Writes a sample's line, and the header first if it is the first sample.
     *
     * @param sample the sample: ts.origin if it has one, its sequence if it has one, then its values.
     * @throws IOException if the channel fails while the buffer goes out.
     * @throws IllegalStateException if the channel failed before.
     */
    public void write(final Sample sample) throws IOException
    {
        checkNotFailed();
        if (!headerWritten)
        {
            writeHeader();
        }
        ensure(MAX_PREFIX_LENGTH);
        final int flags = sample.flags();
        if ((flags & Sample.HAS_TS_ORIGIN) != 0)
        {
            putUnsigned(sample.originSeconds());
            putByte('.');
            putNanos(sample.originNanos());
        }
        else
        {
            used += buffer.putStringWithoutLengthAscii(used, "0.0");
        }
        if ((flags & Sample.HAS_SEQUENCE) != 0)
        {
            putByte('(');
            putUnsigned(sample.sequence());
            putByte(')');
        }
        final int count = Math.min(sample.length(), signals.size());
        for (int i = 0; i < count; i++)
        {
            ensure(MAX_VALUE_LENGTH);
            putByte(VillasHuman.SEPARATOR);
            putValue(signals.get(i), sample.bits(i));
        }
        ensure(1);
        putByte(VillasHuman.DELIMITER);
    }

    /**
     * Writes what the buffer holds to the channel, counting the lines that reach it.
     *
     * @throws IOException if the channel fails; the writer then writes nothing more.
     * @throws IllegalStateException if the channel failed before.
     */
    public void flush() throws IOException
    {
        checkNotFailed();
        bytes.limit(used).position(0);
        try
        {
            while (bytes.hasRemaining())
            {
                final int from = bytes.position();
                channel.write(bytes);
                countLines(from, bytes.position());
            }
        }
        catch (final IOException ex)
        {
            failed = true;
            throw ex;
        }
        bytes.clear();
        used = 0;
    }

    /** Counts the lines ended and the bytes begun in what just reached the channel. */
    private void countLines(final int from, final int to)
    {
        for (int i = from; i < to; i++)
        {
            if (buffer.getByte(i) != VillasHuman.DELIMITER)
            {
                tornBytes++;
            }
            else
            {
                tornBytes = 0;
                if (headerLinesPending > 0)
                {
                    headerLinesPending--;
                }
                else
                {
                    samplesWritten++;
                }
            }
        }
    }

    private void checkNotFailed()
    {
        if (failed)
        {
            throw new IllegalStateException("the channel failed a write: nothing more is written");
        }
    }

    private void writeHeader() throws IOException
    {
        final StringBuilder header = new StringBuilder().append(VillasHuman.COMMENT).append(' ')
            .append(VillasHuman.TIMESTAMP_LEGEND);
        for (int i = 0; i < signals.size(); i++)
        {
            final Signal signal = signals.get(i);
            header.append(VillasHuman.SEPARATOR)
                .append(signal.name().isEmpty() ? VillasHuman.UNNAMED_SIGNAL + i : signal.name());
            if (!signal.unit().isEmpty())
            {
                header.append('[').append(signal.unit()).append(']');
            }
        }
        final byte[] text = header.append(VillasHuman.DELIMITER).toString().getBytes(StandardCharsets.UTF_8);
        for (final byte b : text)
        {
            headerLinesPending += b == VillasHuman.DELIMITER ? 1 : 0;
        }
        for (int from = 0; from < text.length; )
        {
            ensure(1);
            final int length = Math.min(text.length - from, buffer.capacity() - used);
            buffer.putBytes(used, text, from, length);
            used += length;
            from += length;
        }
        headerWritten = true;
    }

    private void putValue(final Signal signal, final long bits)
    {
        switch (signal.type())
        {
            case FLOAT -> used += decimal.put(buffer, used, SignalValues.toFloat(bits), false);
            case INTEGER -> used += buffer.putLongAscii(used, bits);
            case BOOLEAN -> putByte(SignalValues.toBoolean(bits) ? '1' : '0');
            case COMPLEX ->
            {
                used += decimal.put(buffer, used, SignalValues.real(bits), false);
                used += decimal.put(buffer, used, SignalValues.imag(bits), true);
                putByte('i');
            }
        }
    }

    /** Writes nanoseconds as C's {@code %09llu} does. */
    private void putNanos(final long nanos)
    {
        if (nanos >= 0 && nanos < NANOS_PER_SECOND)
        {
            buffer.putNaturalPaddedIntAscii(used, NANOS_DIGITS, (int)nanos);
            used += NANOS_DIGITS;
        }
        else
        {
            putUnsigned(nanos);
        }
    }

    /** Writes a value as C's {@code %llu} does: the 64 bits as an unsigned number. */
    private void putUnsigned(final long value)
    {
        if (value >= 0)
        {
            used += buffer.putNaturalLongAscii(used, value);
        }
        else
        {
            used += buffer.putNaturalLongAscii(used, Long.divideUnsigned(value, 10));
            putByte((char)('0' + Long.remainderUnsigned(value, 10)));
        }
    }

    private void putByte(final char c)
    {
        buffer.putByte(used++, (byte)c);
    }

    private void ensure(final int length) throws IOException
    {
        if (used + length > buffer.capacity())
        {
            flush();
        }
    }
}
