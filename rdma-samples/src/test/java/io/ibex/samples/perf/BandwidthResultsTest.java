package io.ibex.samples.perf;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;

class BandwidthResultsTest
{
    private static String print(final BandwidthResults results)
    {
        final StringWriter text = new StringWriter();
        results.print(new PrintWriter(text));
        return text.toString();
    }

    @Test
    void averageRunsFromTheFirstPostToTheLastCompletionAndThePeakOverTheBestStretch()
    {
        // 8 messages of 1 MiB, one a post, every 4th signaled; the last four posted at 0.9 s, all done at 1.1 s.
        final long[] postedAt = { 0, 0, 0, 0, 900_000_000L, 900_000_000L, 900_000_000L, 900_000_000L };
        final long[] completedAt = new long[8];
        completedAt[3] = 1_000_000_000L;
        completedAt[7] = 1_100_000_000L;

        final BandwidthResults results = BandwidthResults.ofSender(1 << 20, 8, 1, 4, postedAt, completedAt);

        assertEquals(8 / 1.1 / 1e6, results.messageRate(), 1e-12);
        // Average: 8 MiB in 1.1 s. Peak: messages 4 to 7, posted at 0.9 s and done at 1.1 s: 50 ms a MiB.
        assertEquals(BandwidthResults.HEADER + "\n 1048576    8                20.00              7.27   \t\t   0.000007\n" +
            PerfHeader.RULE + "\n", print(results));
    }

    @Test
    void thePeakOfAPostListStartsAtEachPost()
    {
        // 4 messages in 2 lists of 2, each list's last signaled: posts at 0 and 900 ns, completions at 400 and 1000.
        final long[] postedAt = { 0, 0, 900, 0 };
        final long[] completedAt = { 0, 400, 0, 1000 };

        final BandwidthResults results = BandwidthResults.ofSender(64, 4, 2, 2, postedAt, completedAt);

        // Best: the second list, 2 messages from 900 to 1000 ns, 50 ns a message.
        assertEquals(String.format(Locale.ROOT, "%.2f", 64 * 1e9 / 50 / (1 << 20)),
            print(results).split("\n")[1].trim().split("\\s+")[2]);
    }

    @Test
    void noPeakBeyondPerftestsLimitNorOnTheReceiver()
    {
        final int iters = BandwidthResults.PEAK_LIMIT + 1;
        final long[] postedAt = new long[iters];
        final long[] completedAt = new long[iters];
        completedAt[iters - 1] = 1_000_000_000L;

        assertEquals("0.00", print(BandwidthResults.ofSender(64, iters, 1, 100, postedAt, completedAt))
            .split("\n")[1].trim().split("\\s+")[2]);
        assertEquals(BandwidthResults.HEADER + "\n 64         1000             0.00               0.06   \t\t   0.001000\n" +
            PerfHeader.RULE + "\n", print(BandwidthResults.ofReceiver(64, 1000, 5, 1_000_000_005L)));
    }
}
