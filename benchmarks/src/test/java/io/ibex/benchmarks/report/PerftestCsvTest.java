package io.ibex.benchmarks.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PerftestCsvTest
{
    private static final Path CSV = JmhJsonTest.RUN.resolve("guest/perftest.csv");

    @Test
    void readsLatencyAndBandwidthRowsWithTheOtherFieldsEmpty()
    {
        final List<PerftestCsv.Row> rows = PerftestCsv.read(CSV);

        assertEquals(10, rows.size());
        final PerftestCsv.Row latency = rows.get(0);
        assertEquals("perftest", latency.tool());
        assertEquals("send_lat", latency.test());
        assertEquals(64, latency.bytes());
        assertEquals(15.0, latency.tTypicalUs());
        assertEquals(80.0, latency.p999Us());
        assertTrue(Double.isNaN(latency.msgRateMpps()));
        final PerftestCsv.Row bandwidth = rows.get(7);
        assertEquals("ibex", bandwidth.tool());
        assertEquals(0.19, bandwidth.msgRateMpps());
        assertTrue(Double.isNaN(bandwidth.tTypicalUs()));
    }

    @Test
    void summarisesEachFigureAsItsMedianOverTheRounds()
    {
        final PerftestRuns runs = new PerftestRuns(PerftestCsv.read(CSV));

        assertEquals(new Spread(16.0, 15.0, 17.0, 3), runs.spread("perftest", "send_lat", 64,
            PerftestCsv.Row::tTypicalUs));
        assertEquals(0.18, runs.spread("ibex", "send_bw", 64, PerftestCsv.Row::msgRateMpps).median(), 1e-12);
        assertEquals(Spread.NONE, runs.spread("ibex", "write_lat", 64, PerftestCsv.Row::tTypicalUs));
        assertEquals(List.of(64), runs.sizes("send_bw"));
    }

    @Test
    void namesTheLineAndTheValueThatIsWrong(@TempDir final Path directory) throws IOException
    {
        final Path header = directory.resolve("header.csv");
        Files.writeString(header, "tool,test,bytes\nperftest,send_lat,64\n");
        final Path number = directory.resolve("number.csv");
        Files.writeString(number, PerftestCsv.HEADER + "\nperftest,send_lat,64,1,1000,1,fast,3,4,5,6,,\n");
        final Path tool = directory.resolve("tool.csv");
        Files.writeString(tool, PerftestCsv.HEADER + "\nqperf,send_lat,64,1,1000,1,2,3,4,5,6,,\n");
        final Path columns = directory.resolve("columns.csv");
        Files.writeString(columns, PerftestCsv.HEADER + "\nibex,send_lat,64,1\n");

        assertTrue(message(header).contains("header.csv:1: expected the header tool,test,bytes,round"));
        assertTrue(message(number).contains("number.csv:2: t_typical_us 'fast' is not a number"));
        assertTrue(message(tool).contains("tool.csv:2: tool qperf"));
        assertTrue(message(columns).contains("columns.csv:2: 4 columns, expected 13"));
    }

    @Test
    void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwoAndNaNIsLeftOut()
    {
        assertEquals(new Spread(2.5, 1.0, 4.0, 4), Spread.of(List.of(4.0, 1.0, Double.NaN, 3.0, 2.0)));
        assertEquals("2.50 (1.00–4.00, 4 rounds)", Spread.of(List.of(4.0, 1.0, 3.0, 2.0)).format(2));
        assertEquals(Markdown.NOT_RUN, Spread.of(List.of(Double.NaN)).format(2));
    }

    private static String message(final Path file)
    {
        return assertThrows(IllegalArgumentException.class, () -> PerftestCsv.read(file)).getMessage();
    }
}
