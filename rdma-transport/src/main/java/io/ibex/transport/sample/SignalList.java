package io.ibex.transport.sample;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The signals of a channel's samples, in slot order, as VILLASnode describes them: a list of signals, a count
 * of floats, or a format string such as {@code "12f3i"} (twelve floats, then three integers). Immutable.
 * <p>
 * It keeps the initial values as one wire image too, so initialising a claimed sample is one copy rather than
 * a store per value.
 */
public final class SignalList
{
    /** How many floats a channel carries when its config names no signals, as VILLASnode. */
    public static final int DEFAULT_COUNT = 64;
    /** 64 floats. */
    public static final SignalList DEFAULT = ofCount(DEFAULT_COUNT);

    private final List<Signal> signals;
    private final UnsafeBuffer initialValues;

    /**
     * Copies the list and checks that it is not empty.
     *
     * @param signals the signals, at least one.
     * @throws IllegalArgumentException if it is empty.
     */
    public SignalList(final List<Signal> signals)
    {
        this.signals = List.copyOf(signals);
        if (this.signals.isEmpty())
        {
            throw new IllegalArgumentException("a signal list needs at least one signal");
        }
        this.initialValues = new UnsafeBuffer(new byte[Sample.VALUE_LENGTH * this.signals.size()]);
        for (int i = 0; i < this.signals.size(); i++)
        {
            initialValues.putLong(Sample.VALUE_LENGTH * i, this.signals.get(i).initBits(), ByteOrder.LITTLE_ENDIAN);
        }
    }

    /**
     * @param count how many signals, at least 1.
     * @return that many floats named {@code signal0}, {@code signal1}...
     */
    public static SignalList ofCount(final int count)
    {
        if (count < 1 || count > Sample.MAX_CAPACITY)
        {
            throw new IllegalArgumentException("signal count " + count + " outside 1.." + Sample.MAX_CAPACITY);
        }
        final List<Signal> signals = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            signals.add(Signal.of("signal" + i, SignalType.FLOAT));
        }
        return new SignalList(signals);
    }

    /**
     * Reads a VILLAS format string: type letters ({@code f}, {@code i}, {@code b}, {@code c}), each optionally
     * preceded by a repeat count.
     *
     * @param format e.g. {@code "12f3i"}.
     * @return the signals, named {@code signal0}, {@code signal1}...
     * @throws IllegalArgumentException naming the format and the position of what is wrong in it.
     */
    public static SignalList parseFormat(final String format)
    {
        final List<Signal> signals = new ArrayList<>();
        int i = 0;
        while (i < format.length())
        {
            final int countStart = i;
            while (i < format.length() && Character.isDigit(format.charAt(i)))
            {
                i++;
            }
            if (i == format.length())
            {
                throw badFormat(format, countStart, "a count must be followed by a type letter (f, i, b, c)");
            }
            final SignalType type = SignalType.fromFormatChar(format.charAt(i));
            if (type == null)
            {
                throw badFormat(format, i, "'" + format.charAt(i) + "' is not a type letter (f, i, b, c)");
            }
            final int count = countStart == i ? 1 : parseCount(format, countStart, i);
            for (int k = 0; k < count; k++)
            {
                signals.add(Signal.of("signal" + signals.size(), type));
            }
            i++;
        }
        if (signals.isEmpty())
        {
            throw badFormat(format, 0, "it names no signal");
        }
        if (signals.size() > Sample.MAX_CAPACITY)
        {
            throw new IllegalArgumentException("signal format '" + format + "' names " + signals.size() +
                " signals, more than a sample carries (" + Sample.MAX_CAPACITY + ")");
        }
        return new SignalList(signals);
    }

    /** @return the signals, in slot order. */
    public List<Signal> signals()
    {
        return signals;
    }

    /** @return how many signals, which is how many value slots a sample needs. */
    public int size()
    {
        return signals.size();
    }

    /**
     * @param index the slot, 0 to {@code size() - 1}.
     * @return the signal in that slot.
     */
    public Signal get(final int index)
    {
        return signals.get(index);
    }

    /** @return every signal's initial value, 8 little-endian bytes each in slot order: a sample's value image. */
    DirectBuffer initialValues()
    {
        return initialValues;
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof SignalList list && signals.equals(list.signals);
    }

    @Override
    public int hashCode()
    {
        return signals.hashCode();
    }

    @Override
    public String toString()
    {
        return "SignalList" + signals;
    }

    private static int parseCount(final String format, final int start, final int end)
    {
        final int count;
        try
        {
            count = Integer.parseInt(format, start, end, 10);
        }
        catch (final NumberFormatException ex)
        {
            throw badFormat(format, start, "count " + format.substring(start, end) + " is too large");
        }
        if (count < 1 || count > Sample.MAX_CAPACITY)
        {
            throw badFormat(format, start, "count " + count + " is outside 1.." + Sample.MAX_CAPACITY);
        }
        return count;
    }

    private static IllegalArgumentException badFormat(final String format, final int position, final String why)
    {
        return new IllegalArgumentException(
            "bad signal format '" + format + "' at position " + (position + 1) + ": " + why);
    }
}
