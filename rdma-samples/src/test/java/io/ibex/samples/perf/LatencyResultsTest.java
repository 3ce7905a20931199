package io.ibex.samples.perf;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;

class LatencyResultsTest
{
    @Test
    void halfOfEachRoundTripBetweenConsecutiveSendsGoesIntoTheHistogram()
    {
        // Round trips of 2, 2, 6 and 2 us: half round trips 1, 1, 3, 1 us.
        final long[] stamps = { 1_000, 3_000, 5_000, 11_000, 13_000, 99 };
        final LatencyResults results = new LatencyResults(stamps, 5);

        assertEquals(4, results.histogram().getTotalCount());
        final StringWriter text = new StringWriter();
        results.print(new PrintWriter(text), 64, 5);
        assertEquals(LatencyResults.HEADER + "\n 64      5          1.00           3.00         1.00     \t       1.50        " +
            "\t0.87   \t\t3.00    \t\t3.00   \n" + PerfHeader.RULE + "\n", text.toString());
    }
}
