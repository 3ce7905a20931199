package io.ibex.samples.runner;

import io.ibex.rdma.testing.LoopbackPorts;
import io.ibex.samples.IbexRun;
import io.ibex.samples.SoftResourcesReleased;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * {@code ibex node CONFIG} as a user runs it: a config that runs to its end and prints the summary, a config
 * error reported at its location with status 1, and SIGINT or SIGTERM ending an endless run cleanly.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@ExtendWith(SoftResourcesReleased.class)
class NodeCommandTest
{
    @TempDir
    private Path dir;

    private final int sourcePort = LoopbackPorts.next();
    private final int targetPort = LoopbackPorts.next();

    @Test
    void aConfigRunsToItsEndAndPrintsTheSummary() throws IOException
    {
        final Path config = write("run.conf", """
            nodes = {
                siggen = { type = "signal", signal = "counter", values = 2, rate = 1000.0, limit = 2000,
                           realtime = false },
                source = { type = "infiniband", provider = "soft", signals = 2, in = { address = "127.0.0.1:%d" },
                           out = { address = "127.0.0.1:%d" } },
                target = { type = "infiniband", provider = "soft", signals = 2, in = { address = "127.0.0.1:%d",
                           hooks = ( { type = "stats", format = "json" } ) } }
            }
            paths = ( { in = "siggen", out = "source" }, { in = "target" } )
            """.formatted(sourcePort, targetPort, targetPort));
        final IbexRun run = IbexRun.run("node", config.toString(), "--linger", "300ms").assertSucceeded();
        run.line(Pattern.compile("ibex node .*run\\.conf: ran [0-9.]+ s and stopped because its inputs ended and " +
            "the paths were idle for 300 ms"));
        run.line(Pattern.compile("  target +infiniband +target on 127\\.0\\.0\\.1:" + targetPort + " over RC: sent 0, " +
            "dropped 0, received 2000, lost 0, reordered 0, invalid 0; owd µs p50 .*"));
        run.line(Pattern.compile("  path 1 \\(siggen -> source\\): read 2000, wrote 2000 to source"));
        assertTrue(run.out().contains("\"received\":2000,"), run::toString);
    }

    @Test
    void aConfigErrorNamesItsPlace() throws IOException
    {
        final Path config = write("bad.conf", "nodes = {\n  udp = { type = \"socket\" }\n}\n");
        IbexRun.run("node", config.toString()).assertFailed("node", config + ":2:18: node 'udp': type \"socket\" is " +
            "not supported (supported: ");
        IbexRun.run("node", config.toString(), "--duration", "ten").assertStatus(2);
    }

    @Test
    void sigtermEndsAnEndlessRunWithTheSummary() throws IOException
    {
        endlessRunEndsWithTheSummaryOn("TERM");
    }

    @Test
    void sigintEndsAnEndlessRunWithTheSummary() throws IOException
    {
        // A shell that starts a build in the background ignores SIGINT for it, and a JVM started with SIGINT ignored
        // keeps ignoring it (as every program does): then no SIGINT can reach the run under test.
        assumeFalse(sigintIgnored(), "SIGINT is ignored by this process (a background job), so by the JVM it starts");
        endlessRunEndsWithTheSummaryOn("INT");
    }

    private void endlessRunEndsWithTheSummaryOn(final String signal) throws IOException
    {
        final Path config = write("endless.conf", """
            nodes = { siggen = { type = "signal", signal = "sine", values = 1, rate = 1000.0 } }
            paths = ( { in = "siggen" } )
            """);
        final IbexRun run = IbexRun.startJvm("node", config.toString(), "--status-interval", "100ms");
        run.awaitError("status: rate ");
        run.signal(signal);
        run.assertSucceeded();
        run.line(Pattern.compile("ibex node .*endless\\.conf: ran [0-9.]+ s and stopped because SIGINT or " +
            "SIGTERM arrived"));
        run.line(Pattern.compile("  path 1 \\(siggen -> nothing\\): read [1-9][0-9]*"));
    }

    /** @return whether this process ignores SIGINT (bit 1 of SigIgn in /proc/self/status, Linux). */
    private static boolean sigintIgnored() throws IOException
    {
        for (final String line : Files.readAllLines(Path.of("/proc/self/status")))
        {
            if (line.startsWith("SigIgn:"))
            {
                return (Long.parseUnsignedLong(line.substring("SigIgn:".length()).trim(), 16) & 0b10) != 0;
            }
        }
        return false;
    }

    private Path write(final String name, final String text) throws IOException
    {
        final Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }
}
