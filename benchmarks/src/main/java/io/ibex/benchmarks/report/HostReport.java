package io.ibex.benchmarks.report;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The host's part of the report: round trips and rates of the peers and of ibex on the soft provider over
 * loopback, as tables and plots.
 */
final class HostReport
{
    /** Benchmarks whose results are streams of messages or samples. */
    static final List<String> STREAMS = List.of("StreamBenchmark", "ChannelThroughputBenchmark");

    private HostReport()
    {
    }

    /**
     * Appends the host's tables and writes its plots.
     *
     * @param markdown  the section so far.
     * @param results   the host's JMH results.
     * @param plots     the directory of the plots.
     * @param plotsLink the plots' directory as the Markdown links it.
     */
    static void write(final StringBuilder markdown, final List<JmhResult> results, final Path plots,
        final String plotsLink)
    {
        markdown.append("\n### Host, over loopback: round trips\n\n");
        final List<LatencyCase> latencies = LatencyCase.of(results, Targets.ROUND_TRIPS);
        if (latencies.isEmpty())
        {
            markdown.append("Round trips: ").append(Markdown.NOT_RUN).append(".\n");
        }
        else
        {
            markdown.append("Round trip in µs (JMH SampleTime; mean: AverageTime where run, else SampleTime's), " +
                "bytes allocated per round trip (`gc.alloc.rate.norm`: every thread of the JVM, JMH's included), " +
                "and the ratios of each case's p50 and p99 to each peer's at the same bytes.\n\n");
            markdown.append(Tables.latency(latencies, Tables.latencyToPeers(latencies)));
            percentilePlots(markdown, latencies, "host", "Host, loopback", plots, plotsLink);
        }

        markdown.append("\n### Host, over loopback: throughput\n\n");
        final List<RateCase> rates = RateCase.of(results, STREAMS);
        if (rates.isEmpty())
        {
            markdown.append("Throughput: ").append(Markdown.NOT_RUN).append(".\n");
            return;
        }
        markdown.append("Messages (or samples) per second received (JMH Throughput), MB/s (10⁶ B) of them, bytes " +
            "allocated per message, and the ratio of each rate to each peer's stream at the same bytes.\n\n");
        markdown.append(Tables.rate(rates, Tables.rateToPeers(rates)));
        throughputPlots(markdown, rates, "host", "Host, loopback", plots, plotsLink);
    }

    /**
     * Writes one percentile plot per message size and links them.
     */
    static void percentilePlots(final StringBuilder markdown, final List<LatencyCase> cases, final String prefix,
        final String where, final Path plots, final String plotsLink)
    {
        final Map<Integer, List<LatencyCase>> bySize = new LinkedHashMap<>();
        Tables.bySize(cases, LatencyCase::bytes)
            .forEach(latency -> bySize.computeIfAbsent(latency.bytes(), bytes -> new ArrayList<>()).add(latency));
        markdown.append('\n');
        bySize.forEach((bytes, ofSize) ->
        {
            final String file = prefix + "-latency-" + bytes + "B.png";
            final String ofBytes = bytes + " bytes";
            link(markdown, Plots.latencyPercentiles(plots.resolve(file), where + ": round trip by percentile, " +
                ofBytes, ofSize), where + " round trip by percentile, " + ofBytes, plotsLink, file);
        });
    }

    /**
     * Writes the plots of the rates against vectorize and against message size, and links them.
     */
    static void throughputPlots(final StringBuilder markdown, final List<RateCase> rates, final String prefix,
        final String where, final Path plots, final String plotsLink)
    {
        markdown.append('\n');
        final List<RateCase> channel = rates.stream().filter(rate -> null != rate.param("vectorize")).toList();
        final List<Plots.Series> byVectorize = series(channel,
            rate -> rate.param("values") + " values, " +
                (Boolean.parseBoolean(rate.param("inline")) ? "inline" : "not inline"),
            rate -> Double.parseDouble(rate.param("vectorize")), RateCase::perSecond);
        link(markdown, Plots.lines(plots.resolve(prefix + "-throughput-vectorize.png"),
            where + ": sample channel throughput against out.vectorize", "out.vectorize (samples per post list)",
            "samples/s", true, byVectorize), where + " throughput against vectorize", plotsLink,
            prefix + "-throughput-vectorize.png");
        final List<Plots.Series> bySize = series(rates, rate -> CaseNames.series(rate.result()),
            RateCase::bytes, RateCase::perSecond);
        link(markdown, Plots.lines(plots.resolve(prefix + "-throughput-size.png"),
            where + ": messages/s against message size", "bytes per message (samples: wire length)",
            "messages/s", true, bySize), where + " throughput against size", plotsLink,
            prefix + "-throughput-size.png");
    }

    /**
     * Groups cases into series by a name, each point's x and y from the case.
     */
    static List<Plots.Series> series(final List<RateCase> rates, final Function<RateCase, String> name,
        final ToDoubleFunction<RateCase> x, final ToDoubleFunction<RateCase> y)
    {
        final Map<String, List<RateCase>> groups = new LinkedHashMap<>();
        rates.forEach(rate -> groups.computeIfAbsent(name.apply(rate),
            key -> new ArrayList<>()).add(rate));
        final List<Plots.Series> series = new ArrayList<>();
        groups.forEach((key, group) ->
        {
            final List<RateCase> sorted = group.stream()
                .sorted((a, b) -> Double.compare(x.applyAsDouble(a), x.applyAsDouble(b))).toList();
            series.add(new Plots.Series(key, sorted.stream().mapToDouble(x).toArray(),
                sorted.stream().mapToDouble(y).toArray()));
        });
        return series;
    }

    /**
     * Links a plot if it was written.
     */
    static void link(final StringBuilder markdown, final boolean written, final String alt, final String plotsLink,
        final String file)
    {
        if (written)
        {
            markdown.append("![").append(alt).append("](").append(plotsLink).append('/').append(file).append(")\n");
        }
    }
}
