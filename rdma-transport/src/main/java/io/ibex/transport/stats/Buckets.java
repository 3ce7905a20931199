package io.ibex.transport.stats;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import java.util.Arrays;

/**
 * A metric's values in equal bins over the warm-up mean ± 3 standard deviations, with the counts below and above
 * that range: VILLAS's {@code buckets} view of a histogram. Bin {@code i} holds values in
 * {@code [low + i·width, low + (i + 1)·width)}. A bin is at least 1 wide (a warm-up with no spread still gives a
 * range), the range then centred on the mean. Values are placed at their histogram resolution (1%). Immutable.
 */
public final class Buckets
{
    private final double low;
    private final double width;
    private final long lower;
    private final long higher;
    private final long[] counts;

    private Buckets(final double low, final double width, final long lower, final long higher, final long[] counts)
    {
        this.low = low;
        this.width = width;
        this.lower = lower;
        this.higher = higher;
        this.counts = counts;
    }

    static Buckets of(final Histogram histogram, final double mean, final double stddev, final int binCount)
    {
        if (binCount < 1)
        {
            throw new IllegalArgumentException("buckets " + binCount + " must be at least 1");
        }
        final double width = Math.max(6 * stddev / binCount, 1.0);
        final double low = mean - width * binCount / 2;
        final long[] counts = new long[binCount];
        long lower = 0;
        long higher = 0;
        for (final HistogramIterationValue step : histogram.recordedValues())
        {
            final long value = histogram.medianEquivalentValue(step.getValueIteratedTo());
            final long count = step.getCountAddedInThisIterationStep();
            final double bin = Math.floor((value - low) / width);
            if (bin < 0)
            {
                lower += count;
            }
            else if (bin >= binCount)
            {
                higher += count;
            }
            else
            {
                counts[(int)bin] += count;
            }
        }
        return new Buckets(low, width, lower, higher, counts);
    }

    /** @return number of bins. */
    public int size()
    {
        return counts.length;
    }

    /** @return where the first bin starts. */
    public double low()
    {
        return low;
    }

    /** @return where the last bin ends. */
    public double high()
    {
        return low + width * counts.length;
    }

    /** @return the width of a bin. */
    public double width()
    {
        return width;
    }

    /**
     * @param bin 0 to {@link #size()} − 1.
     * @return values in that bin.
     */
    public long count(final int bin)
    {
        return counts[bin];
    }

    /** @return a copy of every bin's count. */
    public long[] counts()
    {
        return Arrays.copyOf(counts, counts.length);
    }

    /** @return values below {@link #low()}. */
    public long lower()
    {
        return lower;
    }

    /** @return values at or above {@link #high()}. */
    public long higher()
    {
        return higher;
    }
}
