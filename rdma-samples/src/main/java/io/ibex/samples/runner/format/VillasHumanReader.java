package io.ibex.samples.runner.format;

import io.ibex.transport.sample.Sample;
import io.ibex.transport.sample.Signal;
import io.ibex.transport.sample.SignalList;
import io.ibex.transport.sample.SignalType;
import io.ibex.transport.sample.SignalValues;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads samples in {@link VillasHuman villas.human}: what VILLASnode writes, with or without the header, with
 * comment and blank lines anywhere, and a last line with or without its newline. Anything else is a
 * {@link SampleFileException} naming the file, line and column: a field that is not a number, a value that does
 * not parse as its signal's type, more values than signals, nanoseconds of a second or more.
 * <p>
 * The values are read as the signal list's types say. Without a list (to compare files whatever wrote them), the
 * first sample's values decide: {@code 1.5i} or {@code 1+2i} complex, digits alone integer, anything else float;
 * the header, if there is one, names them.
 * <p>
 * Not thread safe. Integers and timestamps are parsed in place; a float value costs one short string.
 */
public final class VillasHumanReader implements AutoCloseable
{
    /** The longest line it reads: 1000 complex values of the longest kind come close. */
    public static final int MAX_LINE_LENGTH = 1 << 20;
    /** The smallest buffer it reads through. */
    public static final int MIN_BUFFER_SIZE = 1024;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final String name;
    private final SeekableByteChannel channel;
    private final boolean follow;
    private final LineCursor cursor;
    private final List<Signal> headerSignals = new ArrayList<>();
    private SignalList signals;
    private byte[] bytes;
    private int start;
    private int end;
    private long lineNumber;
    private long sampleLine;

    /**
     * @param name       the file as it is to be named in errors.
     * @param channel    the text, read from its current position; the reader closes it.
     * @param signals    the signals whose types the values are read as, or null to take them from the first sample.
     * @param bufferSize bytes read at a time, at least {@value #MIN_BUFFER_SIZE}; it grows for a longer line.
     * @param follow     whether a last line without its newline is incomplete (the file is being written: it
     *                   is read once the newline arrives) rather than the last sample.
     */
    public VillasHumanReader(final String name, final SeekableByteChannel channel, final SignalList signals,
        final int bufferSize, final boolean follow)
    {
        if (bufferSize < MIN_BUFFER_SIZE)
        {
            throw new IllegalArgumentException("buffer size " + bufferSize + " is below " + MIN_BUFFER_SIZE);
        }
        this.name = name;
        this.channel = channel;
        this.signals = signals;
        this.follow = follow;
        this.cursor = new LineCursor(name);
        this.bytes = new byte[bufferSize];
    }

    /**
     * @param file    the file; it is named in errors as given.
     * @param signals the signals whose types the values are read as, or null to take them from the first sample.
     * @return a reader of the whole file, which is not being written.
     * @throws IOException if the file cannot be opened.
     */
    public static VillasHumanReader open(final Path file, final SignalList signals) throws IOException
    {
        return new VillasHumanReader(file.toString(), FileChannel.open(file, StandardOpenOption.READ), signals,
            VillasHuman.DEFAULT_BUFFER_SIZE, false);
    }

    /** @return the file as it is named in errors. */
    public String name()
    {
        return name;
    }

    /** @return the signals the values are read as; null while they are still to be taken from the first sample. */
    public SignalList signals()
    {
        return signals;
    }

    /** @return the line of the sample read last, from 1 (0 before the first). */
    public long sampleLine()
    {
        return sampleLine;
    }

    /**
     * Reads the next sample: its ts.origin, ts.received (when the line has an offset), sequence, flags as VILLAS
     * sets them, and values.
     *
     * @param sample where it goes; its capacity must fit the values.
     * @return false when there is no further complete line (at the end of the file; in follow mode, for now).
     * @throws IOException         if reading fails.
     * @throws SampleFileException if the line is not a villas.human sample.
     */
    public boolean read(final Sample sample) throws IOException
    {
        while (true)
        {
            int newline = indexOfNewline();
            while (newline < 0)
            {
                if (fill() <= 0)
                {
                    if (start == end || follow)
                    {
                        return false;
                    }
                    newline = end;
                    break;
                }
                newline = indexOfNewline();
            }
            final int lineStart = start;
            start = Math.min(newline + 1, end);
            lineNumber++;
            cursor.reset(bytes, lineStart, newline, lineNumber);
            cursor.skipBlanks();
            if (cursor.peek() == VillasHuman.COMMENT)
            {
                if (lineNumber == 1)
                {
                    readHeader();
                }
            }
            else if (!cursor.atEnd())
            {
                readSample(sample);
                sampleLine = lineNumber;
                return true;
            }
        }
    }

    /**
     * Goes back to the start of the file, as VILLAS's {@code eof = "rewind"}.
     *
     * @throws IOException if the channel cannot seek.
     */
    public void rewind() throws IOException
    {
        channel.position(0);
        start = 0;
        end = 0;
        lineNumber = 0;
        sampleLine = 0;
    }

    @Override
    public void close() throws IOException
    {
        channel.close();
    }

    private int indexOfNewline()
    {
        for (int i = start; i < end; i++)
        {
            if (bytes[i] == VillasHuman.DELIMITER)
            {
                return i;
            }
        }
        return -1;
    }

    /** @return bytes read after the unread ones, moved to the front; 0 or less at the end of the file. */
    private int fill() throws IOException
    {
        final int unread = end - start;
        if (unread == bytes.length)
        {
            if (bytes.length >= MAX_LINE_LENGTH)
            {
                throw new SampleFileException(name, lineNumber + 1, 1,
                    "line longer than " + MAX_LINE_LENGTH + " bytes without a newline");
            }
            final byte[] larger = new byte[Math.min(2 * bytes.length, MAX_LINE_LENGTH)];
            System.arraycopy(bytes, start, larger, 0, unread);
            bytes = larger;
        }
        else
        {
            System.arraycopy(bytes, start, bytes, 0, unread);
        }
        start = 0;
        end = unread;
        final int read = channel.read(ByteBuffer.wrap(bytes, end, bytes.length - end));
        end += Math.max(read, 0);
        return read;
    }

    /**
     * The header names the signals: {@code # legend TAB name[unit] TAB ...}; only used when the types come from
     * the first sample.
     */
    private void readHeader()
    {
        headerSignals.clear();
        final int from = cursor.position() + 1;
        while (!cursor.atEnd())
        {
            cursor.skip();
        }
        final String[] fields = cursor.text(from, cursor.position()).strip().split("\t", -1);
        for (int i = 1; i < fields.length; i++)
        {
            final String field = fields[i];
            final int unit = field.endsWith("]") ? field.lastIndexOf('[') : -1;
            headerSignals.add(unit < 0 ? Signal.of(field, SignalType.FLOAT) :
                new Signal(field.substring(0, unit), field.substring(unit + 1, field.length() - 1),
                SignalType.FLOAT, 0));
        }
    }

    /** seconds[.nanoseconds][+offset][(sequence)] then the values, each after blanks. */
    private void readSample(final Sample sample)
    {
        final int secondsAt = cursor.position();
        final long seconds = cursor.unsigned("seconds");
        long nanos = 0;
        int flags = Sample.HAS_TS_ORIGIN;
        if (cursor.accept('.'))
        {
            final int nanosAt = cursor.position();
            nanos = cursor.unsigned("nanoseconds");
            if (Long.compareUnsigned(nanos, NANOS_PER_SECOND) >= 0)
            {
                throw cursor.error(nanosAt, "nanoseconds " + Long.toUnsignedString(nanos) + " outside 0..999999999");
            }
        }
        else if (cursor.atEnd())
        {
            throw cursor.error(secondsAt, "a sample needs more than whole seconds: nanoseconds, a sequence or values");
        }
        sample.origin(seconds, nanos).received(0, 0).sequence(0);
        if (cursor.peek() == '+' || cursor.peek() == '-')
        {
            final double offset = cursor.decimal("offset");
            final long receivedNanos = nanos + Math.round(offset * NANOS_PER_SECOND);
            sample.received(seconds + Math.floorDiv(receivedNanos, NANOS_PER_SECOND),
                Math.floorMod(receivedNanos, NANOS_PER_SECOND));
            flags |= Sample.HAS_OFFSET | Sample.HAS_TS_RECEIVED;
        }
        if (cursor.accept('('))
        {
            sample.sequence(cursor.unsigned("sequence"));
            if (!cursor.accept(')'))
            {
                throw cursor.error(cursor.position(), "expected ')' after the sequence, found " +
                    cursor.found(cursor.position()));
            }
            flags |= Sample.HAS_SEQUENCE;
        }
        if (!cursor.atEnd() && cursor.skipBlanks() == 0)
        {
            throw cursor.error(cursor.position(), "expected a tab before the values, found " +
                cursor.found(cursor.position()));
        }
        if (signals == null && !cursor.atEnd())
        {
            signals = inferSignals();
        }
        final int length = readValues(sample);
        sample.length(length).flags(length > 0 ? flags | Sample.HAS_DATA : flags);
    }

    private int readValues(final Sample sample)
    {
        int count = 0;
        while (!cursor.atEnd())
        {
            final int at = cursor.position();
            if (count == signals.size() || count == sample.capacity())
            {
                throw cursor.error(at, "more values than the " + Math.min(signals.size(), sample.capacity()) +
                    " signals: " + cursor.found(at));
            }
            final Signal signal = signals.get(count);
            final String what = "value " + (count + 1) + " (" + signal.name() + ")";
            sample.bits(count, readValue(signal.type(), what));
            if (!cursor.atEnd() && cursor.skipBlanks() == 0)
            {
                throw cursor.error(at, what + ": '" + cursor.token(at) + "' is not " +
                    (signal.type() == SignalType.INTEGER ? "an " : "a ") + signal.type().configName());
            }
            count++;
        }
        return count;
    }

    private long readValue(final SignalType type, final String what)
    {
        return switch (type)
        {
            case FLOAT -> SignalValues.ofFloat(cursor.decimal(what));
            case INTEGER -> cursor.signed(what);
            case BOOLEAN -> readBoolean(what);
            case COMPLEX -> readComplex(what);
        };
    }

    /** VILLAS writes 0 or 1. */
    private long readBoolean(final String what)
    {
        final int at = cursor.position();
        final long value = cursor.signed(what);
        if (value != 0 && value != 1)
        {
            throw cursor.error(at, what + ": boolean " + value + " is neither 0 nor 1");
        }
        return SignalValues.ofBoolean(value == 1);
    }

    /** {@code real}, {@code imag i} or {@code real+imag i} (or j), as VILLAS's parser. */
    private long readComplex(final String what)
    {
        final double first = cursor.decimal(what);
        if (cursor.accept('i') || cursor.accept('j'))
        {
            return SignalValues.ofComplex(0, (float)first);
        }
        if (cursor.peek() != '+' && cursor.peek() != '-')
        {
            return SignalValues.ofComplex((float)first, 0);
        }
        final double imag = cursor.decimal(what);
        if (!cursor.accept('i') && !cursor.accept('j'))
        {
            throw cursor.error(cursor.position(), what + ": expected 'i' after the imaginary part, found " +
                cursor.found(cursor.position()));
        }
        return SignalValues.ofComplex((float)first, (float)imag);
    }

    /**
     * Types from the first sample's values as VILLAS writes each type; names from the header, else
     * {@code signal0}, {@code signal1}...
     */
    private SignalList inferSignals()
    {
        final List<Signal> inferred = new ArrayList<>();
        final int valuesAt = cursor.position();
        while (!cursor.atEnd())
        {
            final String token = cursor.token(cursor.position());
            while (!cursor.atEnd() && !LineCursor.isBlank((byte)cursor.peek()))
            {
                cursor.skip();
            }
            cursor.skipBlanks();
            final int index = inferred.size();
            final Signal named = index < headerSignals.size() ? headerSignals.get(index) :
                Signal.of(VillasHuman.UNNAMED_SIGNAL + index, SignalType.FLOAT);
            inferred.add(new Signal(named.name(), named.unit(), typeOf(token), 0));
        }
        cursor.rewindTo(valuesAt);
        return new SignalList(inferred.subList(0, Math.min(inferred.size(), Sample.MAX_CAPACITY)));
    }

    private static SignalType typeOf(final String token)
    {
        if (token.endsWith("i") || token.endsWith("j"))
        {
            return SignalType.COMPLEX;
        }
        return token.matches("[+-]?[0-9]+") ? SignalType.INTEGER : SignalType.FLOAT;
    }
}
