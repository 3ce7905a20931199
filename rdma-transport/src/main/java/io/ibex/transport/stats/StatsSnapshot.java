package io.ibex.transport.stats;

/**
 * The stats of a channel at one moment ({@link ChannelStats#snapshot()}): every metric and counter since the
 * stats were created or reset, as objects, human text or JSON. Immutable, safe to read from any thread.
 */
public final class StatsSnapshot
{
    /** VILLAS's default number of buckets in the verbose output. */
    public static final int DEFAULT_BUCKETS = 20;

    private final MetricSnapshot[] metrics;
    private final long[] counters;

    StatsSnapshot(final MetricSnapshot[] metrics, final long[] counters)
    {
        this.metrics = metrics;
        this.counters = counters;
    }

    /**
     * @param metric a metric.
     * @return its values.
     */
    public MetricSnapshot metric(final Metric metric)
    {
        return metrics[metric.ordinal()];
    }

    /**
     * @param counter a counter.
     * @return its count.
     */
    public long counter(final Counter counter)
    {
        return counters[counter.ordinal()];
    }

    /** @return {@link #toText(boolean, int)} without the buckets. */
    public String toText()
    {
        return toText(false, DEFAULT_BUCKETS);
    }

    /**
     * A table in the spirit of VILLAS's human stats output: a row a metric (times in µs), then a row a counter.
     *
     * @param verbose also each warmed-up metric's values in buckets, as VILLAS's {@code verbose} option.
     * @param buckets bins of the verbose form, at least 1 (VILLAS's {@code buckets} option).
     * @return the text, lines ending in {@code \n}.
     * @throws IllegalArgumentException if buckets is below 1.
     */
    public String toText(final boolean verbose, final int buckets)
    {
        checkBuckets(buckets);
        return StatsText.format(this, verbose, buckets);
    }

    /** @return {@link #toJson(boolean, int)} without the buckets. */
    public String toJson()
    {
        return toJson(false, DEFAULT_BUCKETS);
    }

    /**
     * One JSON object: {@code {"metrics": {"owd": {...}, ...}, "counters": {"sent": n, ...}}}. A metric has its
     * unit, count, sum and clamp counts, and, if it has values, min, max, mean, stddev, p50, p90, p99 and p99_9.
     * Values are in the metric's unit (nanoseconds for times, unlike VILLAS's seconds).
     *
     * @param verbose also each warmed-up metric's warm-up mean and stddev and its buckets (low, high, width,
     *                lower, higher, counts).
     * @param buckets bins of the verbose form, at least 1.
     * @return the JSON text.
     * @throws IllegalArgumentException if buckets is below 1.
     */
    public String toJson(final boolean verbose, final int buckets)
    {
        checkBuckets(buckets);
        return StatsJson.format(this, verbose, buckets);
    }

    @Override
    public String toString()
    {
        return toText();
    }

    private static void checkBuckets(final int buckets)
    {
        if (buckets < 1)
        {
            throw new IllegalArgumentException("stats buckets " + buckets + " must be at least 1");
        }
    }
}
