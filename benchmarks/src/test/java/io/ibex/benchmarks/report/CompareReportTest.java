package io.ibex.benchmarks.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The report end to end, on the fixture run of src/test/resources/report/run: a host run with nio, soft, Aeron IPC
 * and the sample channel at 88 B (and a stream to a reader in a second JVM), and a guest run with perftest and ibex
 * at 64 B and the channel on disni with samples of 5 values (64 B).
 */
class CompareReportTest
{
    private static final byte[] PNG_SIGNATURE = { (byte)0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    private static final String BEFORE = "# Benchmarks\n\nintro\n\n" + Markdown.BEGIN + "\n" + Markdown.END +
        "\n\n## History\n\nhand-written, stays\n";

    @TempDir
    Path temp;

    @Test
    void writesTheSectionBetweenTheMarkersAndLeavesTheRestAlone() throws IOException
    {
        final String document = report(copyRun(true));

        assertTrue(document.startsWith("# Benchmarks\n\nintro\n\n" + Markdown.BEGIN + "\n## Side by side"));
        assertTrue(document.endsWith(Markdown.END + "\n\n## History\n\nhand-written, stays\n"));
        assertTrue(document.contains("benchmarks/compare.sh --quick"), "the command that regenerates it");
        assertTrue(document.contains("\ncores: 2\n"), "the host machine's lines");
        assertTrue(document.contains("\nvCPUs: 2\n"), "the guest machine's lines");
        assertTrue(document.replace("\n  ", " ")
            .contains("forks 1, warm-up 1 x 1 s, measurement 2 x 1 s, JVM arguments `-Xmx1g`"), "a wrapped list item");
    }

    @Test
    void evaluatesEachTargetFromTheData() throws IOException
    {
        final String document = report(copyRun(true));

        // Host: the channel's 10 µs against nio's 8 µs at 88 B.
        assertTrue(document.contains("| host: soft sample channel round trip / nio, median, 8 values (88 B) | " +
            "10.00 µs | 8.000 µs | 1.25 | ≤ 1.50 × | **met**, 16.7 % inside the limit |"), document);
        // nio ran at 88 B only: the 1-value sample (32 B) has no peer.
        assertTrue(document.contains("| host: soft sample channel round trip / nio, median, 1 value (32 B) | " +
            "10.00 µs | not run | not run | ≤ 1.50 × | not run |"));
        // Guest: medians over rounds, 19 µs against 16 µs; half the channel's 39 µs; 0.18 against 0.21 Mpps.
        assertTrue(document.contains("| rxe: ibex send-lat / ib_send_lat, median (t_typical), 64 B | 19.00 µs | " +
            "16.00 µs | 1.19 | ≤ 1.10 × | **missed**, by 8.0 % of the limit |"));
        assertTrue(document.contains("| rxe: sample channel ½ round trip, 5 values (64 B) / ib_send_lat median, " +
            "64 B | 19.50 µs | 16.00 µs | 1.22 | ≤ 1.20 × | **missed**, by 1.6 % of the limit |"));
        assertTrue(document.contains("| rxe: ibex send-bw / ib_send_bw, message rate, 64 B | 0.1800 Mpps | " +
            "0.2100 Mpps | 0.86 | ≥ 0.90 × | **missed**, by 4.8 % of the limit |"));
        assertTrue(document.contains("| rxe: ibex write-lat / ib_write_lat, median (t_typical), 64 B | not run | " +
            "not run | not run | ≤ 1.10 × | not run |"));
        // Issue 8's: no two-JVM round trip in the fixture; its stream at 2.5 M samples/s, half the 5 M,
        // with no profile to show.
        assertTrue(document.contains("| host, two JVMs: soft sample channel round trip over shared memory / " +
            "aeron-ipc (one JVM), median, 5 values (64 B) | not run | not run | not run | ≤ 2.00 × | not run |"));
        assertTrue(document.contains("| host, two JVMs: soft sample channel stream over shared memory, 8 values, " +
            "vectorize 32 / issue 8's 5 M samples/s | 2.5000 M samples/s | 5.0000 M samples/s | 0.50 | ≥ 1.00 × | " +
            "**missed**, by 50.0 % of the limit | " + ProfileReport.NOT_PROFILED + " |"), document);
        assertTrue(document.contains("vectorize 32 / issue 8's 5 M samples/s: **missed**, by 50.0 % of the limit\n\n" +
            ProfileReport.NOT_PROFILED + ".\n"));
    }

    @Test
    void tablesCarryTheFiguresAndTheirRatiosToEachPeer() throws IOException
    {
        final String document = report(copyRun(true));

        assertTrue(document.contains("| 88 | nio | 8.000 | 20.00 | 60.00 | 8.400 | 0.03 | 1.00 / 1.00 | not run | " +
            "16.00 / 20.00 |"), "nio's mean and allocation come from AverageTime");
        assertTrue(document.contains("| 88 | soft verbs | 9.000 | 30.00 | 90.00 | 9.100 | 2.50 | 1.13 / 1.50 |"),
            "nanoseconds converted; SampleTime's mean and allocation without AverageTime");
        assertTrue(document.contains("| 88 | aeron-ipc, idle=yield |"), "a parameter beyond the usual ones shows");
        assertTrue(document.contains("| 88 | soft verbs | 1,500,000 | 132.0 | 0.10 | 1.50 | not run | not run |"));
        assertTrue(document.contains("| 88 | soft channel, vectorize 8, inline (8 values) | 4,000,000 | 352.0 | " +
            "0.01 | 4.00 |"));
        assertTrue(document.contains("| send_lat | 64 | 16.00 (15.00–17.00, 3 rounds) | 19.00 (16.00–21.00, " +
            "3 rounds) | 1.19 |"));
        assertTrue(document.contains("| 64 | disni channel (5 values) | 39.00 | 80.00 | 150.0 | 40.00 | 9.00 | " +
            "1.22 | 1.03 | 1.18 |"), "half the channel's round trip against both tools' medians, and its verbs path");
    }

    @Test
    void showsTheProfileOfEachMissedTarget() throws Exception
    {
        final Path run = copyRun(true);
        final Path sendLat = ProfileTest.record(Files.createDirectories(run.resolve("guest/profiles"))
            .resolve("send-lat.jfr"));
        final Profile profile = Profile.read(sendLat);
        final Profile.Share top = profile.frames().get(0);
        final String topShare = Markdown.fixed(profile.percent(top), 0) + " %";

        final String document = report(run);

        assertTrue(document.contains("| **missed**, by 8.0 % of the limit | " + topShare + " " + top.what() + " |"),
            "the targets' table names the top frame of a missed target");
        final String prose = document.replace('\n', ' ');
        assertTrue(document.contains("\n#### rxe: ibex send-lat / ib_send_lat, median (t_typical), 64 B: **missed**, " +
            "by 8.0 % of the limit\n\n`guest/profiles/send-lat.jfr`: "), document);
        assertTrue(prose.contains("`guest/profiles/send-lat.jfr`: " + profile.working() + " samples of working " +
            "threads, "), document);
        assertTrue(prose.contains(profile.waiting() + " samples of waiting threads left out"), document);
        assertTrue(document.contains("| share | top frame | share | innermost ibex frame |\n|---|---|---|---|\n| " +
            topShare + " | `" + top.what() + "` | "), "the profile's table, most first");
        assertTrue(document.contains("`" + ProfileTest.SPINNER + "`"), "the threads at work");
        assertFalse(document.contains("`" + ProfileTest.WAITER + "`"), "not the thread that waits");
        assertTrue(prose.contains("`guest/profiles/channel-round-trip-5.jfr`: not run (no recording)."),
            "a missed target without its profile");
        assertFalse(document.contains("#### host:"), "a met target has no profile");
        assertTrue(document.contains("| **met**, 16.7 % inside the limit |  |"), "nor a top frame");
    }

    @Test
    void writesPngPlotsAndDropsThePreviousRunsOnly() throws IOException
    {
        final Path docs = docs();
        final Path plots = Files.createDirectories(docs.resolve(CompareReport.PLOTS));
        Files.write(plots.resolve("host-latency-4096B.png"), PNG_SIGNATURE);
        Files.writeString(plots.resolve("drawn-by-hand.png"), "not ours");

        CompareReport.write(copyRun(true), docs);

        for (final String plot : new String[] { "host-latency-88B.png", "host-throughput-vectorize.png",
            "host-throughput-size.png", "guest-perftest-64B.png", "guest-latency-64B.png", "guest-rate-size.png" })
        {
            final byte[] png = Files.readAllBytes(plots.resolve(plot));
            assertArrayEquals(PNG_SIGNATURE, Arrays.copyOf(png, PNG_SIGNATURE.length), plot + " is a PNG");
            assertTrue(png.length > 5_000, plot + " has a drawing: " + png.length + " bytes");
            assertTrue(Files.readString(docs.resolve(CompareReport.DOCUMENT)).contains("(plots/" + plot + ")"),
                plot + " is linked");
        }
        assertFalse(Files.exists(plots.resolve("host-latency-4096B.png")), "a size this run did not measure");
        assertTrue(Files.exists(plots.resolve("drawn-by-hand.png")));
    }

    @Test
    void aHostOnlyRunSaysNotRunForTheGuest() throws IOException
    {
        final String document = report(copyRun(false));

        assertTrue(document.contains("not run (a host-only run)"));
        assertTrue(document.contains("Guest (`guest/machine.txt`): not run."));
        assertTrue(document.contains("- guest: not run"));
        assertTrue(document.contains("| rxe: ibex send-bw / ib_send_bw, message rate, 64 B | not run | not run |"));
        assertTrue(document.contains("**met**"), "the host's target is still evaluated");
        try (Stream<Path> plots = Files.list(temp.resolve("docs").resolve(CompareReport.PLOTS)))
        {
            assertTrue(plots.noneMatch(plot -> plot.getFileName().toString().startsWith("guest-")));
        }
    }

    @Test
    void refusesADocumentWithoutMarkersAndLeavesItAsItWas() throws IOException
    {
        final Path docs = docs();
        Files.writeString(docs.resolve(CompareReport.DOCUMENT), "# Benchmarks\n");

        assertThrows(IllegalArgumentException.class, () -> CompareReport.write(copyRun(true), docs));
        assertEquals("# Benchmarks\n", Files.readString(docs.resolve(CompareReport.DOCUMENT)));
        assertFalse(Files.exists(docs.resolve(CompareReport.PLOTS)));
    }

    private String report(final Path run) throws IOException
    {
        final Path docs = docs();
        CompareReport.write(run, docs);
        return Files.readString(docs.resolve(CompareReport.DOCUMENT));
    }

    private Path docs() throws IOException
    {
        final Path docs = Files.createDirectories(temp.resolve("docs"));
        Files.writeString(docs.resolve(CompareReport.DOCUMENT), BEFORE);
        return docs;
    }

    private Path copyRun(final boolean withGuest) throws IOException
    {
        final Path run = temp.resolve("run");
        try (Stream<Path> files = Files.walk(JmhJsonTest.RUN))
        {
            files.filter(Files::isRegularFile)
                .filter(file -> withGuest || !JmhJsonTest.RUN.relativize(file).startsWith(ComparisonData.GUEST))
                .forEach(file -> copy(file, run.resolve(JmhJsonTest.RUN.relativize(file).toString())));
        }
        return run;
    }

    private static void copy(final Path from, final Path to)
    {
        try
        {
            Files.createDirectories(to.getParent());
            Files.copy(from, to);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
