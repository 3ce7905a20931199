package io.ibex.transport.stats;

import java.util.Locale;

/**
 * {@link StatsSnapshot#toText(boolean, int)}: a table of the metrics (times in µs), one of the counters, and in
 * the verbose form each metric's buckets drawn as bars.
 */
final class StatsText
{
    private static final String NONE = "-";
    private static final int BAR_WIDTH = 50;

    private StatsText()
    {
    }

    static String format(final StatsSnapshot snapshot, final boolean verbose, final int buckets)
    {
        final StringBuilder text = new StringBuilder(2048);
        line(text, "%-13s %-8s %10s %10s %10s %10s %10s %10s %10s %10s %10s %8s",
            "metric", "unit", "count", "min", "mean", "stddev", "p50", "p90", "p99", "p99.9", "max", "clamped");
        for (final Metric metric : Metric.values())
        {
            metricRow(text, snapshot.metric(metric));
        }
        text.append('\n');
        line(text, "%-16s %12s", "counter", "value");
        for (final Counter counter : Counter.values())
        {
            line(text, "%-16s %12d", counter.id(), snapshot.counter(counter));
        }
        if (verbose)
        {
            for (final Metric metric : Metric.values())
            {
                text.append('\n');
                bucketPlot(text, snapshot.metric(metric), buckets);
            }
        }
        return text.toString();
    }

    private static void metricRow(final StringBuilder text, final MetricSnapshot values)
    {
        final Metric metric = values.metric();
        final boolean empty = values.count() == 0;
        line(text, "%-13s %-8s %10d %10s %10s %10s %10s %10s %10s %10s %10s %8d",
            metric.id(), unit(metric), values.count(),
            empty ? NONE : value(metric, values.min()),
            empty ? NONE : value(metric, values.mean()),
            empty ? NONE : value(metric, values.stddev()),
            empty ? NONE : value(metric, values.p50()),
            empty ? NONE : value(metric, values.p90()),
            empty ? NONE : value(metric, values.p99()),
            empty ? NONE : value(metric, values.p999()),
            empty ? NONE : value(metric, values.max()),
            values.clampedNegative() + values.clampedOverRange());
    }

    private static void bucketPlot(final StringBuilder text, final MetricSnapshot values, final int binCount)
    {
        final Metric metric = values.metric();
        line(text, "%s: %s", metric.id(), metric.description());
        if (!values.warmedUp())
        {
            line(text, "  warm-up of %d values not complete (%d so far), no buckets yet",
                values.warmUp(), values.count());
            return;
        }
        final String unit = unit(metric);
        line(text, "  warm-up: first %d values, mean %s %s, stddev %s %s", values.warmUp(),
            value(metric, values.warmUpMean()), unit, value(metric, values.warmUpStddev()), unit);
        final Buckets buckets = values.buckets(binCount);
        line(text, "  %d buckets of %s %s from %s to %s %s; lower %d, higher %d", buckets.size(),
            value(metric, buckets.width()), unit, value(metric, buckets.low()), value(metric, buckets.high()), unit,
            buckets.lower(), buckets.higher());
        line(text, "  %12s %12s  %s", "from " + unit, "count", "plot");
        long most = 1;
        for (int i = 0; i < buckets.size(); i++)
        {
            most = Math.max(most, buckets.count(i));
        }
        for (int i = 0; i < buckets.size(); i++)
        {
            final long count = buckets.count(i);
            line(text, "  %12s %12d  %s", value(metric, buckets.low() + i * buckets.width()), count,
                "#".repeat((int)(BAR_WIDTH * count / most)));
        }
    }

    private static String unit(final Metric metric)
    {
        return metric.isTime() ? "µs" : metric.unit();
    }

    private static String value(final Metric metric, final double value)
    {
        return String.format(Locale.ROOT, "%.3f", metric.isTime() ? value / 1000.0 : value);
    }

    private static String value(final Metric metric, final long value)
    {
        return metric.isTime() ? value(metric, (double)value) : Long.toString(value);
    }

    private static void line(final StringBuilder text, final String format, final Object... arguments)
    {
        text.append(String.format(Locale.ROOT, format, arguments).stripTrailing()).append('\n');
    }
}
