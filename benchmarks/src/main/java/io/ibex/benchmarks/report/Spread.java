package io.ibex.benchmarks.report;

import java.util.Collection;

/**
 * The median of a figure over the rounds of a run and its range, which says how far one round can be trusted.
 *
 * @param median the median over the rounds (the mean of the middle two for an even count).
 * @param min    the least.
 * @param max    the largest.
 * @param count  the number of rounds that had the figure.
 */
public record Spread(double median, double min, double max, int count)
{
    /** No round had the figure. */
    public static final Spread NONE = new Spread(Double.NaN, Double.NaN, Double.NaN, 0);

    /**
     * @param values the figure of each round; NaN where a round did not report it.
     * @return their median and range, or {@link #NONE} when no round reported it.
     */
    public static Spread of(final Collection<Double> values)
    {
        final double[] sorted = values.stream().mapToDouble(Double::doubleValue).filter(v -> !Double.isNaN(v))
            .sorted().toArray();
        if (sorted.length == 0)
        {
            return NONE;
        }
        final int middle = sorted.length / 2;
        final double median = sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
        return new Spread(median, sorted[0], sorted[sorted.length - 1], sorted.length);
    }

    /**
     * @param decimals the decimals to show.
     * @return {@code median (min-max, n rounds)}, the median alone for one round, or {@value Markdown#NOT_RUN}.
     */
    public String format(final int decimals)
    {
        if (count == 0)
        {
            return Markdown.NOT_RUN;
        }
        final String median = Markdown.fixed(this.median, decimals);
        return count == 1 ? median + " (1 round)" : median + " (" + Markdown.fixed(min, decimals) + "–" +
            Markdown.fixed(max, decimals) + ", " + count + " rounds)";
    }
}
