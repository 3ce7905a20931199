package io.ibex.benchmarks.report;

import io.ibex.transport.sample.Sample;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The guest's part of the report: perftest beside {@code ibex send-lat}, {@code write-lat}, {@code send-bw} and
 * {@code write-bw} on rxe, median over rounds with the range, and the sample channel's JMH figures on the disni
 * provider beside them.
 */
final class GuestReport
{
    private static final String PERFTEST = PerftestCsv.PERFTEST;
    private static final String IBEX = PerftestCsv.IBEX;

    private GuestReport()
    {
    }

    /**
     * Appends the guest's tables and writes its plots.
     *
     * @param markdown  the section so far.
     * @param data      the run.
     * @param plots     the directory of the plots.
     * @param plotsLink the plots' directory as the Markdown links it.
     */
    static void write(final StringBuilder markdown, final ComparisonData data, final Path plots,
        final String plotsLink)
    {
        final PerftestRuns runs = new PerftestRuns(data.perftest());
        markdown.append("\n### Soft-RoCE guest (rxe, disni provider): perftest beside ibex\n\n");
        if (data.perftest().isEmpty())
        {
            markdown.append("perftest and `ibex` runs: ").append(Markdown.NOT_RUN).append(".\n");
        }
        else
        {
            markdown.append("Half round trips in µs as perftest prints them (`t_typical` is its median); each " +
                "figure is the median over the rounds, with the range and the number of rounds; ratios are " +
                "ibex / perftest of the medians.\n\n");
            markdown.append(latencyTable(runs));
            markdown.append("\nMessage rate (millions/s) and bandwidth (MB/s as each tool prints it), median over " +
                "the rounds; ratio ibex / perftest.\n\n");
            markdown.append(bandwidthTable(runs));
            perftestPlots(markdown, runs, plots, plotsLink);
        }

        markdown.append("\n### Soft-RoCE guest: the sample channel on disni (JMH)\n\n");
        final List<LatencyCase> latencies = LatencyCase.of(data.guest(), Targets.ROUND_TRIPS);
        if (latencies.isEmpty())
        {
            markdown.append("Round trips: ").append(Markdown.NOT_RUN).append(".\n");
        }
        else
        {
            markdown.append("Round trips in µs; half the p50 set against `ib_send_lat`'s and `ibex send-lat`'s " +
                "median at the same bytes, and the channel against the verbs path of the same sample size.\n\n");
            markdown.append(Tables.latency(latencies, List.of(
                new Tables.Column<>("½ p50 ÷ ib_send_lat", latency -> Markdown.ratio(latency.percentile(50) / 2 /
                    runs.spread(PERFTEST, "send_lat", latency.bytes(), PerftestCsv.Row::tTypicalUs).median())),
                new Tables.Column<>("½ p50 ÷ ibex send-lat", latency -> Markdown.ratio(latency.percentile(50) / 2 /
                    runs.spread(IBEX, "send_lat", latency.bytes(), PerftestCsv.Row::tTypicalUs).median())),
                new Tables.Column<>("p50 ÷ verbs path", latency -> Markdown.ratio(latency.percentile(50) /
                    Tables.find(latencies, verbs -> "verbs".equals(verbs.param("path")) &&
                        verbs.bytes() == latency.bytes()).map(verbs -> verbs.percentile(50)).orElse(Double.NaN))))));
            HostReport.percentilePlots(markdown, latencies, "guest", "Guest, rxe", plots, plotsLink);
        }
        final List<RateCase> rates = RateCase.of(data.guest(), HostReport.STREAMS);
        markdown.append('\n');
        if (rates.isEmpty())
        {
            markdown.append("Sample channel throughput: ").append(Markdown.NOT_RUN).append(".\n");
            return;
        }
        markdown.append("Samples per second, against `ib_send_bw`'s and `ibex send-bw`'s message rate at the same " +
            "bytes.\n\n");
        markdown.append(Tables.rate(rates, List.of(
            new Tables.Column<>("÷ ib_send_bw", rate -> Markdown.ratio(rate.perSecond() / 1e6 /
                runs.spread(PERFTEST, "send_bw", rate.bytes(), PerftestCsv.Row::msgRateMpps).median())),
            new Tables.Column<>("÷ ibex send-bw", rate -> Markdown.ratio(rate.perSecond() / 1e6 /
                runs.spread(IBEX, "send_bw", rate.bytes(), PerftestCsv.Row::msgRateMpps).median())))));
        HostReport.throughputPlots(markdown, rates, "guest", "Guest, rxe", plots, plotsLink);
    }

    private static Markdown.Table latencyTable(final PerftestRuns runs)
    {
        final Markdown.Table table = new Markdown.Table("test", "bytes", "perftest t_typical", "ibex t_typical",
            "ratio", "perftest p99", "ibex p99", "ratio p99", "perftest p99.9", "ibex p99.9");
        for (final String test : PerftestRuns.LATENCY_TESTS)
        {
            for (final int bytes : runs.sizes(test))
            {
                final Spread perftest = runs.spread(PERFTEST, test, bytes, PerftestCsv.Row::tTypicalUs);
                final Spread ibex = runs.spread(IBEX, test, bytes, PerftestCsv.Row::tTypicalUs);
                final Spread perftestP99 = runs.spread(PERFTEST, test, bytes, PerftestCsv.Row::p99Us);
                final Spread ibexP99 = runs.spread(IBEX, test, bytes, PerftestCsv.Row::p99Us);
                table.row(test, Integer.toString(bytes), perftest.format(2), ibex.format(2),
                    Markdown.ratio(ibex.median() / perftest.median()), perftestP99.format(2), ibexP99.format(2),
                    Markdown.ratio(ibexP99.median() / perftestP99.median()),
                    runs.spread(PERFTEST, test, bytes, PerftestCsv.Row::p999Us).format(2),
                    runs.spread(IBEX, test, bytes, PerftestCsv.Row::p999Us).format(2));
            }
        }
        return table;
    }

    private static Markdown.Table bandwidthTable(final PerftestRuns runs)
    {
        final Markdown.Table table = new Markdown.Table("test", "bytes", "perftest Mpps", "ibex Mpps", "ratio",
            "perftest MB/s", "ibex MB/s");
        for (final String test : PerftestRuns.BANDWIDTH_TESTS)
        {
            for (final int bytes : runs.sizes(test))
            {
                final Spread perftest = runs.spread(PERFTEST, test, bytes, PerftestCsv.Row::msgRateMpps);
                final Spread ibex = runs.spread(IBEX, test, bytes, PerftestCsv.Row::msgRateMpps);
                table.row(test, Integer.toString(bytes), perftest.format(4), ibex.format(4),
                    Markdown.ratio(ibex.median() / perftest.median()),
                    runs.spread(PERFTEST, test, bytes, PerftestCsv.Row::bwAvgMBps).format(2),
                    runs.spread(IBEX, test, bytes, PerftestCsv.Row::bwAvgMBps).format(2));
            }
        }
        return table;
    }

    /**
     * One bar plot per size of the latency tests: median, p99 and p99.9 of each tool and test; and the message
     * rates against size.
     */
    private static void perftestPlots(final StringBuilder markdown, final PerftestRuns runs, final Path plots,
        final String plotsLink)
    {
        markdown.append('\n');
        final List<String> categories = List.of("median (t_typical)", "p99", "p99.9");
        final List<ToDoubleFunction<PerftestCsv.Row>> figures =
            List.of(PerftestCsv.Row::tTypicalUs, PerftestCsv.Row::p99Us, PerftestCsv.Row::p999Us);
        runs.rows().stream().filter(row -> PerftestRuns.LATENCY_TESTS.contains(row.test()))
            .map(PerftestCsv.Row::bytes).distinct().sorted().forEach(bytes ->
            {
                final Map<String, double[]> series = new LinkedHashMap<>();
                for (final String test : PerftestRuns.LATENCY_TESTS)
                {
                    for (final String tool : List.of(PERFTEST, IBEX))
                    {
                        series.put(tool + " " + test, figures.stream()
                            .mapToDouble(figure -> runs.spread(tool, test, bytes, figure).median()).toArray());
                    }
                }
                final String file = "guest-perftest-" + bytes + "B.png";
                HostReport.link(markdown, Plots.bars(plots.resolve(file), "Guest, rxe: half round trip, " + bytes +
                    " bytes (median over rounds)", "µs", categories, series), "Guest latency percentiles, " +
                    bytes + " bytes", plotsLink, file);
            });
        final List<Plots.Series> rates = new ArrayList<>();
        for (final String test : PerftestRuns.BANDWIDTH_TESTS)
        {
            for (final String tool : List.of(PERFTEST, IBEX))
            {
                final List<Integer> sizes = runs.sizes(test).stream()
                    .filter(bytes -> runs.spread(tool, test, bytes, PerftestCsv.Row::msgRateMpps).count() > 0)
                    .toList();
                rates.add(new Plots.Series(tool + " " + test, sizes.stream().mapToDouble(Integer::doubleValue)
                    .toArray(), sizes.stream().mapToDouble(bytes ->
                    runs.spread(tool, test, bytes, PerftestCsv.Row::msgRateMpps).median()).toArray()));
            }
        }
        HostReport.link(markdown, Plots.lines(plots.resolve("guest-rate-size.png"),
            "Guest, rxe: message rate against size (median over rounds)", "bytes per message", "Mpps", true, rates),
            "Guest message rate against size", plotsLink, "guest-rate-size.png");
        markdown.append("\nSample wire sizes for reference: 1, 8 and 64 values are ").append(Sample.wireLength(1))
            .append(", ").append(Sample.wireLength(8)).append(" and ").append(Sample.wireLength(64))
            .append(" bytes.\n");
    }
}
