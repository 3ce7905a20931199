package io.ibex.samples.perf;

import io.ibex.samples.IbexRun;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs perftest-like commands in pairs and reads what they printed: the result line under perftest's header, the
 * address lines, the ibex lines.
 */
final class PerfOutput
{
    private static final Pattern ALLOCATED = Pattern.compile("measured iterations allocated (\\d+) bytes");
    private static final Pattern WARM_UP =
        Pattern.compile("(?m)^ ibex: warm-up: (\\d+) iterations in (\\d+) rounds of (\\d+); ");

    private static final String WAITING = "Waiting for client to connect";

    private PerfOutput()
    {
    }

    /**
     * Checks that both sides ran the rounds {@code --jfr} asked for after the measured loop, and that the recording
     * holds the thread samples of the busy-polling thread, nothing else.
     *
     * @param recorder the side with {@code --jfr FILE}.
     * @param follower the side without it.
     * @param rounds   the rounds asked for.
     * @param iters    the measured iterations, a round's.
     * @param jfr      the file.
     */
    static void assertProfiled(final IbexRun recorder, final IbexRun follower, final int rounds, final int iters,
        final Path jfr) throws IOException
    {
        final String line =
            " ibex: profile: " + rounds + " rounds of " + iters + " iterations after the measured ones, ";
        assertTrue(recorder.out().contains(line + "recorded into " + jfr + "\n"), recorder::toString);
        assertTrue(follower.out().contains(line + "as the peer's --jfr asked, not recorded here\n"),
            follower::toString);
        final List<String> types = RecordingFile.readAllEvents(jfr).stream()
            .map(event -> event.getEventType().getName()).distinct().toList();
        assertTrue(types.contains("jdk.ExecutionSample"), "the busy-polling thread in Java: " + types);
        assertTrue(types.stream().allMatch(type -> type.endsWith("Sample")), "thread samples only: " + types);
    }

    /**
     * Runs a server, once it waits, then a client to 127.0.0.1, with the same arguments; both must succeed.
     *
     * @param command the command, e.g. "send-bw".
     * @param port    the out-of-band port.
     * @param more    the arguments of both.
     * @return the server and the client, finished.
     */
    static IbexRun[] pair(final String command, final int port, final String... more)
    {
        final IbexRun server = IbexRun.start(IbexRun.outOfBandArgs(command, port, more)).awaitOutput(WAITING);
        final String[] clientArgs = Arrays.copyOf(more, more.length + 1);
        clientArgs[more.length] = "127.0.0.1";
        final IbexRun client = IbexRun.run(IbexRun.outOfBandArgs(command, port, clientArgs));
        server.assertSucceeded();
        client.assertSucceeded();
        return new IbexRun[] { server, client };
    }

    /**
     * Checks a latency result line: the size, the iterations, and t_min &lt;= t_typical &lt;= 99 % &lt;= 99.9 % &lt;=
     * t_max, t_avg between t_min and t_max.
     *
     * @param side  a finished run.
     * @param size  its message size.
     * @param iters its iterations.
     */
    static void assertLatencyLine(final IbexRun side, final int size, final int iters)
    {
        final double[] line = results(side);
        assertEquals(size, line[0]);
        assertEquals(iters, line[1]);
        final double min = line[2];
        final double max = line[3];
        assertTrue(min > 0 && min <= line[4] && line[4] <= line[7] && line[7] <= line[8] && line[8] <= max &&
            min <= line[5] && line[5] <= max && line[6] >= 0, side::toString);
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
