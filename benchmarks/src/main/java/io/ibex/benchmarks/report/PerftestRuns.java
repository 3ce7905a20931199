package io.ibex.benchmarks.report;

import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The guest's perftest and ibex runs, summed up over rounds: each figure of a tool, test and size as its median
 * over the rounds and its range.
 *
 * @param rows the rows of {@code perftest.csv}.
 */
public record PerftestRuns(List<PerftestCsv.Row> rows)
{
    /** perftest's latency tests, in the report's order. */
    public static final List<String> LATENCY_TESTS = List.of("send_lat", "write_lat");
    /** perftest's bandwidth tests, in the report's order. */
    public static final List<String> BANDWIDTH_TESTS = List.of("send_bw", "write_bw");

    /**
     * @param tool   {@value PerftestCsv#PERFTEST} or {@value PerftestCsv#IBEX}.
     * @param test   the test, e.g. {@code send_lat}.
     * @param bytes  the message size.
     * @param figure the column, e.g. {@code PerftestCsv.Row::tTypicalUs}.
     * @return its median and range over the rounds, {@link Spread#NONE} when not run.
     */
    public Spread spread(final String tool, final String test, final int bytes,
        final ToDoubleFunction<PerftestCsv.Row> figure)
    {
        return Spread.of(rows.stream()
            .filter(row -> row.tool().equals(tool) && row.test().equals(test) && row.bytes() == bytes)
            .map(row -> figure.applyAsDouble(row)).toList());
    }

    /**
     * @param test the test.
     * @return the sizes either tool ran it at, ascending.
     */
    public List<Integer> sizes(final String test)
    {
        return rows.stream().filter(row -> row.test().equals(test)).map(PerftestCsv.Row::bytes).distinct().sorted()
            .toList();
    }
}
