package io.ibex.transport.sample;

import java.util.ArrayList;
import java.util.List;

/**
 * The signals of a channel's samples, in slot order, as VILLASnode describes them: a list of signals, a count
 * of floats, or a format string such as {@code "12f3i"} (twelve floats, then three integers).
 *
 * @param signals the signals, at least one.
 */
public record SignalList(List<Signal> signals)
{
    /** How many floats a channel carries when its config names no signals, as VILLASnode. */
    public static final int DEFAULT_COUNT = 64;
    /** 64 floats. */
    public static final SignalList DEFAULT = ofCount(DEFAULT_COUNT);

    /**
     * Copies the list and checks that it is not empty.
     */
    public SignalList
    {
        signals = List.copyOf(signals);
        if (signals.isEmpty())
        {
            throw new IllegalArgumentException("a signal list needs at least one signal");
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

    /** @return how many signals, which is how many value slots a sample needs. */
    public int size()
    {
        return signals.size();
    }

    /** @return the signal in slot {@code index}. */
    public Signal get(final int index)
    {
        return signals.get(index);
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
