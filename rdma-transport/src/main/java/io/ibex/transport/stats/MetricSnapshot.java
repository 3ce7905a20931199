package io.ibex.transport.stats;

import org.HdrHistogram.Histogram;

/**
 * One metric at the moment of a {@link ChannelStats#snapshot()}: the histogram of its values since the stats were
 * created or reset, and what it says. Immutable, safe to read from any thread.
 * <p>
 * Count is exact. Min, max, mean, standard deviation and percentiles come from the histogram, so they are
 * within its resolution (1%). The sum is exact, and read just after the histogram: under live traffic it may
 * already hold a few values the histogram does not.
 */
public final class MetricSnapshot
{
    private final Metric metric;
    private final Histogram histogram;
    private final long count;
    private final long min;
    private final long max;
    private final double mean;
    private final double stddev;
    private final long sum;
    private final long clampedNegative;
    private final long clampedOverRange;
    private final int warmUp;
    private final double warmUpMean;
    private final double warmUpStddev;

    MetricSnapshot(
        final Metric metric, final Histogram histogram, final long sum, final long clampedNegative,
        final long clampedOverRange, final int warmUp, final double warmUpMean, final double warmUpStddev)
    {
        this.metric = metric;
        this.histogram = histogram.copy();
        this.count = histogram.getTotalCount();
        this.min = histogram.getMinValue();
        this.max = histogram.getMaxValue();
        // Computed here: Histogram.getMean() and getStdDeviation() share an iterator, so are not thread safe.
        this.mean = histogram.getMean();
        this.stddev = histogram.getStdDeviation();
        this.sum = sum;
        this.clampedNegative = clampedNegative;
        this.clampedOverRange = clampedOverRange;
        this.warmUp = warmUp;
        this.warmUpMean = warmUpMean;
        this.warmUpStddev = warmUpStddev;
    }

    /** @return the metric. */
    public Metric metric()
    {
        return metric;
    }

    /** @return values recorded. */
    public long count()
    {
        return count;
    }

    /** @return the smallest value (0 if none). */
    public long min()
    {
        return min;
    }

    /** @return the largest value (0 if none). */
    public long max()
    {
        return max;
    }

    /** @return the mean value (0 if none). */
    public double mean()
    {
        return mean;
    }

    /** @return the standard deviation of the values (0 if none). */
    public double stddev()
    {
        return stddev;
    }

    /**
     * @param percentile 0 to 100.
     * @return the value that percentile of the values is at or below (0 if none).
     */
    public long percentile(final double percentile)
    {
        return histogram.getValueAtPercentile(percentile);
    }

    /** @return the median. */
    public long p50()
    {
        return percentile(50);
    }

    /** @return the 90th percentile. */
    public long p90()
    {
        return percentile(90);
    }

    /** @return the 99th percentile. */
    public long p99()
    {
        return percentile(99);
    }

    /** @return the 99.9th percentile. */
    public long p999()
    {
        return percentile(99.9);
    }

    /**
     * @return the exact sum of the values, after clamping: for {@link Metric#SKIPPED}, the sequence numbers
     * missing in all.
     */
    public long sum()
    {
        return sum;
    }

    /** @return values below 0 (clock skew between hosts, a clock stepped back) recorded as 0. */
    public long clampedNegative()
    {
        return clampedNegative;
    }

    /** @return values above {@link #highestValue()} recorded as that. */
    public long clampedOverRange()
    {
        return clampedOverRange;
    }

    /** @return the largest value the histogram holds: a day in nanoseconds. */
    public static long highestValue()
    {
        return MetricRecorder.HIGHEST_VALUE;
    }

    /** @return a copy of the histogram of the values. */
    public Histogram histogram()
    {
        return histogram.copy();
    }

    /** @return how many first values set the bucket range ({@link #buckets(int)}). */
    public int warmUp()
    {
        return warmUp;
    }

    /** @return true once the first {@link #warmUp()} values were recorded, so {@link #buckets(int)} works. */
    public boolean warmedUp()
    {
        return !Double.isNaN(warmUpMean);
    }

    /** @return the mean of the first {@link #warmUp()} values, NaN before there were that many. */
    public double warmUpMean()
    {
        return warmUpMean;
    }

    /** @return the standard deviation of the first {@link #warmUp()} values, NaN before there were that many. */
    public double warmUpStddev()
    {
        return warmUpStddev;
    }

    /**
     * The values in {@code count} equal bins over the warm-up mean ± 3 standard deviations, as VILLAS's
     * {@code buckets} option.
     *
     * @param count bins, at least 1.
     * @return the bins.
     * @throws IllegalStateException if the warm-up is not complete.
     * @throws IllegalArgumentException if count is below 1.
     */
    public Buckets buckets(final int count)
    {
        if (!warmedUp())
        {
            throw new IllegalStateException(metric.id() + ": no buckets before the warm-up of " + warmUp +
                " values is complete (" + this.count + " values so far)");
        }
        return Buckets.of(histogram, warmUpMean, warmUpStddev, count);
    }
}
