package io.ibex.samples.perf;

import org.HdrHistogram.Histogram;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * The result line of perftest's latency tests, from an HdrHistogram of half round trips: the time between two
 * consecutive sends of one side is a round trip, and half of it is what perftest reports (its {@code
 * print_report_lat}). Unlike perftest, which sorts the raw samples and drops the two largest, every sample
 * counts, at HdrHistogram's precision of 3 significant digits.
 */
final class LatencyResults
{
    /** perftest's RESULT_FMT_LAT. */
    static final String HEADER = " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    " +
        "t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] ";
    private static final double NANOS_PER_MICRO = 1000.0;
    private static final int SIGNIFICANT_DIGITS = 3;

    private final Histogram halfRoundTrips = new Histogram(SIGNIFICANT_DIGITS);

    /**
     * @param stamps the clock readings before each send, nanoseconds.
     * @param count  how many of them there are (at least 2).
     */
    LatencyResults(final long[] stamps, final int count)
    {
        for (int i = 1; i < count; i++)
        {
            halfRoundTrips.recordValue((stamps[i] - stamps[i - 1]) / 2);
        }
    }

    /** @return the histogram of half round trips, in nanoseconds. */
    Histogram histogram()
    {
        return halfRoundTrips;
    }

    /**
     * Prints the header and the result line, as perftest does.
     *
     * @param out   where to print.
     * @param size  bytes of each message.
     * @param iters iterations measured.
     */
    void print(final PrintWriter out, final int size, final int iters)
    {
        out.println(HEADER);
        out.println(String.format(Locale.ROOT,
            " %-7d %d          %-7.2f        %-7.2f      %-7.2f  \t       %-7.2f     \t%-7.2f\t\t%-7.2f \t\t%-7.2f",
            size, iters, micros(halfRoundTrips.getMinValue()), micros(halfRoundTrips.getMaxValue()),
            micros(halfRoundTrips.getValueAtPercentile(50)), halfRoundTrips.getMean() / NANOS_PER_MICRO,
            halfRoundTrips.getStdDeviation() / NANOS_PER_MICRO, micros(halfRoundTrips.getValueAtPercentile(99)),
            micros(halfRoundTrips.getValueAtPercentile(99.9))));
        out.println(PerfHeader.RULE);
        out.flush();
    }

    private static double micros(final long nanos)
    {
        return nanos / NANOS_PER_MICRO;
    }
}
