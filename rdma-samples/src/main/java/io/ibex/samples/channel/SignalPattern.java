package io.ibex.samples.channel;

import io.ibex.transport.sample.Sample;
import io.ibex.transport.sample.SignalList;
import io.ibex.transport.sample.SignalType;
import io.ibex.transport.sample.SignalValues;

/**
 * The values {@code ibex channel} sends and expects, a function of the sample's sequence number and the
 * signal's index, so the target can tell any value that changed on the way: a float signal is a sine (a period
 * of 100 samples, shifted by the index), an integer counts, a boolean alternates, a complex value turns around
 * the unit circle.
 */
final class SignalPattern
{
    private static final double STEP = 2 * Math.PI / 100;

    private SignalPattern()
    {
    }

    /**
     * Sets every signal of the list in the sample to its value for the sequence number.
     *
     * @param sample   a claimed sample, initialised for the signal list.
     * @param signals  the channel's signals.
     * @param sequence the sample's sequence number.
     */
    static void fill(final Sample sample, final SignalList signals, final long sequence)
    {
        for (int i = 0; i < signals.size(); i++)
        {
            sample.bits(i, bits(signals.get(i).type(), sequence, i));
        }
    }

    /**
     * @param type     the signal's type.
     * @param sequence the sample's sequence number.
     * @param index    the signal's index.
     * @return the 8 bytes signal {@code index} of sample {@code sequence} carries.
     */
    static long bits(final SignalType type, final long sequence, final int index)
    {
        final double angle = (sequence + index) * STEP;
        return switch (type)
        {
            case FLOAT -> SignalValues.ofFloat(Math.sin(angle));
            case INTEGER -> sequence + index;
            case BOOLEAN -> SignalValues.ofBoolean((sequence + index) % 2 == 0);
            case COMPLEX -> SignalValues.ofComplex((float)Math.cos(angle), (float)Math.sin(angle));
        };
    }
}
