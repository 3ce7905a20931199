package io.ibex.samples.perf;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * The result line of perftest's bandwidth tests ({@code print_report_bw}): the peak and average bandwidth in
 * MB/s of 2^20 bytes, and the average message rate in millions of messages a second. The average runs from the
 * first post to the last completion; the peak is the best rate over any stretch from a post to a later signaled
 * completion, which perftest computes only up to {@value #PEAK_LIMIT} iterations (and never on the receiving
 * side): past that, or there, it prints 0.00.
 */
final class BandwidthResults
{
    /** perftest's RESULT_FMT. */
    static final String HEADER = " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]";
    /** The most iterations perftest computes the peak for. */
    static final int PEAK_LIMIT = 20000;
    private static final double NANOS_PER_SECOND = 1e9;
    private static final double MEGABYTE = 0x100000;
    private static final double MEGA = 1e6;

    private final int size;
    private final int iters;
    private final double peakBytesPerSecond;
    private final double seconds;

    private BandwidthResults(final int size, final int iters, final double peakBytesPerSecond, final long nanos)
    {
        this.size = size;
        this.iters = iters;
        this.peakBytesPerSecond = peakBytesPerSecond;
        this.seconds = nanos / NANOS_PER_SECOND;
    }

    /**
     * The sender's results.
     *
     * @param size        bytes of each message.
     * @param iters       messages sent.
     * @param postList    messages per post.
     * @param cqMod       messages per signaled completion.
     * @param postedAt    clock readings at the posts, at the index of each post's first message.
     * @param completedAt clock readings at the signaled completions, at the index of each one's message.
     * @return the results.
     */
    static BandwidthResults ofSender(
        final int size, final int iters, final int postList, final int cqMod, final long[] postedAt,
        final long[] completedAt)
    {
        final double peak = iters > PEAK_LIMIT ? 0 :
            size * NANOS_PER_SECOND / bestNanosPerMessage(iters, postList, cqMod, postedAt, completedAt);
        return new BandwidthResults(size, iters, peak, completedAt[iters - 1] - postedAt[0]);
    }

    /**
     * The receiver's results.
     *
     * @param size    bytes of each message.
     * @param iters   messages received.
     * @param firstAt clock reading when the first arrived.
     * @param lastAt  clock reading when the last had arrived.
     * @return the results.
     */
    static BandwidthResults ofReceiver(final int size, final int iters, final long firstAt, final long lastAt)
    {
        return new BandwidthResults(size, iters, 0, lastAt - firstAt);
    }

    /**
     * perftest's peak search: for each post, the best time a message over the stretch to each later signaled
     * completion, and to the last one.
     */
    private static double bestNanosPerMessage(
        final int iters, final int postList, final int cqMod, final long[] postedAt, final long[] completedAt)
    {
        double best = Double.MAX_VALUE;
        for (int i = 0; i < iters; i += postList)
        {
            for (int j = (i / cqMod + 1) * cqMod - 1; j < iters; j += cqMod)
            {
                best = Math.min(best, (completedAt[j] - postedAt[i]) / (double)(j - i + 1));
            }
            best = Math.min(best, (completedAt[iters - 1] - postedAt[i]) / (double)(iters - i));
        }
        return best;
    }

    /** @return the average message rate, in millions of messages a second. */
    double messageRate()
    {
        return iters / seconds / MEGA;
    }

    /**
     * Prints the header and the result line, as perftest does.
     *
     * @param out where to print.
     */
    void print(final PrintWriter out)
    {
        out.println(HEADER);
        out.println(String.format(Locale.ROOT, " %-7d    %-10d       %-7.2f            %-7.2f\t\t   %-7.6f",
            size, iters, peakBytesPerSecond / MEGABYTE, size * (double)iters / seconds / MEGABYTE, messageRate()));
        out.println(PerfHeader.RULE);
        out.flush();
    }
}
