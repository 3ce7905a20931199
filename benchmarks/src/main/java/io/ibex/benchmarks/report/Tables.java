package io.ibex.benchmarks.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * The JMH tables the host and the guest share: round trips (percentiles, mean, allocation) and rates (messages/s,
 * MB/s, allocation), each with ratio columns to whatever the caller sets them against.
 */
final class Tables
{
    private Tables()
    {
    }

    /**
     * A ratio column: its title and how a row's cell is computed.
     *
     * @param <T>   the rows' type.
     * @param title the column's title.
     * @param cell  the cell of a row.
     */
    record Column<T>(String title, Function<T, String> cell)
    {
    }

    /**
     * @param cases   round-trip cases, in the order to show them.
     * @param columns ratio columns after the figures.
     * @return the table: bytes, case, p50, p99, p99.9, mean (µs), allocation per round trip, then the ratios.
     */
    static Markdown.Table latency(final List<LatencyCase> cases, final List<Column<LatencyCase>> columns)
    {
        final List<String> header = new ArrayList<>(List.of("bytes", "case", "p50 µs", "p99 µs", "p99.9 µs",
            "mean µs", "B/op"));
        columns.forEach(column -> header.add(column.title()));
        final Markdown.Table table = new Markdown.Table(header.toArray(String[]::new));
        for (final LatencyCase latency : bySize(cases, LatencyCase::bytes))
        {
            final List<String> cells = new ArrayList<>(List.of(Integer.toString(latency.bytes()), latency.label(),
                Markdown.micros(latency.percentile(50)), Markdown.micros(latency.percentile(99)),
                Markdown.micros(latency.percentile(99.9)), Markdown.micros(latency.mean()),
                Markdown.fixed(latency.allocation(), 2)));
            columns.forEach(column -> cells.add(column.cell().apply(latency)));
            table.row(cells.toArray(String[]::new));
        }
        return table;
    }

    /**
     * @param cases   throughput cases, in the order to show them.
     * @param columns ratio columns after the figures.
     * @return the table: bytes, case, messages/s, MB/s, allocation per message, then the ratios.
     */
    static Markdown.Table rate(final List<RateCase> cases, final List<Column<RateCase>> columns)
    {
        final List<String> header = new ArrayList<>(List.of("bytes", "case", "messages/s", "MB/s", "B/op"));
        columns.forEach(column -> header.add(column.title()));
        final Markdown.Table table = new Markdown.Table(header.toArray(String[]::new));
        for (final RateCase rate : bySize(cases, RateCase::bytes))
        {
            final List<String> cells = new ArrayList<>(List.of(Integer.toString(rate.bytes()), rate.label(),
                Markdown.whole(rate.perSecond()), Markdown.fixed(rate.megabytesPerSecond(), 1),
                Markdown.fixed(rate.allocation(), 2)));
            columns.forEach(column -> cells.add(column.cell().apply(rate)));
            table.row(cells.toArray(String[]::new));
        }
        return table;
    }

    /**
     * Ratio columns of round trips to each peer at the same bytes: p50 and p99.
     *
     * @param cases the cases holding the peers.
     * @return one column per peer of {@link CaseNames#PEERS}.
     */
    static List<Column<LatencyCase>> latencyToPeers(final List<LatencyCase> cases)
    {
        final List<Column<LatencyCase>> columns = new ArrayList<>();
        for (final String peer : CaseNames.PEERS)
        {
            columns.add(new Column<>("÷ " + peer + " p50 / p99", latency ->
            {
                final Optional<LatencyCase> other = find(cases, candidate ->
                    peer.equals(candidate.param("transport")) && candidate.bytes() == latency.bytes());
                return other.map(match -> Markdown.ratio(latency.percentile(50) / match.percentile(50)) + " / " +
                    Markdown.ratio(latency.percentile(99) / match.percentile(99))).orElse(Markdown.NOT_RUN);
            }));
        }
        return columns;
    }

    /**
     * Ratio columns of rates to each peer's stream at the same bytes.
     *
     * @param cases the cases holding the peers.
     * @return one column per peer of {@link CaseNames#PEERS}.
     */
    static List<Column<RateCase>> rateToPeers(final List<RateCase> cases)
    {
        final List<Column<RateCase>> columns = new ArrayList<>();
        for (final String peer : CaseNames.PEERS)
        {
            columns.add(new Column<>("÷ " + peer, rate -> Markdown.ratio(find(cases, candidate ->
                peer.equals(candidate.param("transport")) && candidate.bytes() == rate.bytes())
                .map(match -> rate.perSecond() / match.perSecond()).orElse(Double.NaN))));
        }
        return columns;
    }

    /**
     * @param <T>   the type of the cases.
     * @param cases cases.
     * @param which the one to find.
     * @return the first that matches.
     */
    static <T> Optional<T> find(final List<T> cases, final Predicate<T> which)
    {
        return cases.stream().filter(which).findFirst();
    }

    /**
     * @param <T>   the type of the cases.
     * @param cases cases.
     * @param bytes their size.
     * @return the cases sorted by size, keeping the order of those of one size.
     */
    static <T> List<T> bySize(final List<T> cases, final ToIntFunction<T> bytes)
    {
        return cases.stream().sorted(Comparator.comparingInt(bytes)).toList();
    }
}
