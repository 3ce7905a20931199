package io.ibex.samples.channel;

import io.ibex.transport.sample.Sample;
import io.ibex.transport.sample.SignalList;

/**
 * What the target of {@code ibex channel} checks of each sample it reads: its sequence number follows the one
 * before (0, 1, 2, ...), it carries as many values as the signal list, and each value is the
 * {@link SignalPattern}'s. Remembers the first problem of each kind, to name it.
 */
final class ArrivalCheck
{
    private final SignalList signals;
    private long received;
    private long outOfOrder;
    private long wrongValues;
    private String firstOutOfOrder;
    private String firstWrongValue;

    /**
     * @param signals the channel's signals, as the source's.
     */
    ArrivalCheck(final SignalList signals)
    {
        this.signals = signals;
    }

    /**
     * Checks the next sample read.
     *
     * @param sample a received sample.
     */
    void accept(final Sample sample)
    {
        final long expected = received++;
        if (sample.sequence() != expected && outOfOrder++ == 0)
        {
            firstOutOfOrder = "sequence " + sample.sequence() + " came where " + expected + " was due";
        }
        final String wrong = wrongValue(sample);
        if (wrong != null && wrongValues++ == 0)
        {
            firstWrongValue = wrong;
        }
    }

    /** @return how many samples were checked. */
    long received()
    {
        return received;
    }

    /**
     * @param count how many samples the source sends.
     * @return what is wrong with what arrived, or null if exactly {@code count} samples arrived in order and intact.
     */
    String problem(final long count)
    {
        final StringBuilder problem = new StringBuilder();
        if (received != count)
        {
            problem.append("received ").append(received).append(" of ").append(count).append(" samples");
        }
        if (outOfOrder > 0)
        {
            problem.append(problem.isEmpty() ? "" : "; ").append(outOfOrder).append(" out of order (first: ")
                .append(firstOutOfOrder).append(')');
        }
        if (wrongValues > 0)
        {
            problem.append(problem.isEmpty() ? "" : "; ").append(wrongValues).append(" with wrong values (first: ")
                .append(firstWrongValue).append(')');
        }
        return problem.isEmpty() ? null : problem.toString();
    }

    private String wrongValue(final Sample sample)
    {
        if (sample.length() != signals.size())
        {
            return "sequence " + sample.sequence() + " carries " + sample.length() + " values, not " + signals.size();
        }
        for (int i = 0; i < signals.size(); i++)
        {
            final long expected = SignalPattern.bits(signals.get(i).type(), sample.sequence(), i);
            if (sample.bits(i) != expected)
            {
                return String.format("sequence %d, signal %d is 0x%016x, not 0x%016x", sample.sequence(), i,
                    sample.bits(i), expected);
            }
        }
        return null;
    }
}
