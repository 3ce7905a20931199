package io.ibex.samples.perf;

import io.ibex.samples.IbexRun;

import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reads what a perftest-like command printed: the result line under perftest's header, the address lines, the
 * ibex lines.
 */
final class PerfOutput
{
    private static final Pattern ALLOCATED = Pattern.compile("measured iterations allocated (\\d+) bytes");
    private static final Pattern WARM_UP =
        Pattern.compile("(?m)^ ibex: warm-up: (\\d+) iterations in (\\d+) rounds of (\\d+); ");

    private PerfOutput()
    {
    }

    /**
     * @param run a finished run.
     * @return the numbers of the result line (the line after the one starting with " #bytes").
     */
    static double[] results(final IbexRun run)
    {
        final String[] lines = run.out().split("\n");
        for (int i = 0; i + 1 < lines.length; i++)
        {
            if (lines[i].startsWith(" #bytes"))
            {
                return Arrays.stream(lines[i + 1].trim().split("\\s+")).mapToDouble(Double::parseDouble).toArray();
            }
        }
        throw new AssertionError("no result line\n" + run);
    }

    /**
     * @param run   a run.
     * @param label "local" or "remote".
     * @return its address line, as perftest prints it.
     */
    static String address(final IbexRun run, final String label)
    {
        final Matcher matcher = Pattern.compile("(?m)^ " + label + " address: (.*)$").matcher(run.out());
        assertTrue(matcher.find(), () -> "no " + label + " address line\n" + run);
        return matcher.group(1);
    }

    /**
     * @param run a finished run.
     * @return the bytes the measured loop allocated, as printed.
     */
    static long allocated(final IbexRun run)
    {
        return number(run, ALLOCATED, 1);
    }

    /**
     * @param run   a finished run.
     * @param group 1: iterations, 2: rounds, 3: iterations a round.
     * @return that number of the warm-up line.
     */
    static long warmUp(final IbexRun run, final int group)
    {
        return number(run, WARM_UP, group);
    }

    private static long number(final IbexRun run, final Pattern pattern, final int group)
    {
        final Matcher matcher = pattern.matcher(run.out());
        assertTrue(matcher.find(), () -> "no line matching " + pattern + "\n" + run);
        return Long.parseLong(matcher.group(group));
    }
}
