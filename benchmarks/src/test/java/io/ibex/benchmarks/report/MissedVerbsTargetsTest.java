package io.ibex.benchmarks.report;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The guest's quick mode profiles what this prints: on the fixture, send-lat (1.19 x, limit 1.1) and send-bw
 * (0.86 x, limit 0.9) are missed; write-lat and write-bw did not run.
 */
class MissedVerbsTargetsTest
{
    @Test
    void printsTheTestsWhoseTargetTheRunMissed() throws URISyntaxException
    {
        final Path csv = Path.of(getClass().getResource("/report/run/guest/perftest.csv").toURI());
        final ByteArrayOutputStream printed = new ByteArrayOutputStream();
        final PrintStream out = System.out;
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try
        {
            MissedVerbsTargets.main(new String[] {csv.toString()});
        }
        finally
        {
            System.setOut(out);
        }
        assertEquals("send-lat\nsend-bw\n", printed.toString(StandardCharsets.UTF_8).replace("\r", ""));
    }
}
