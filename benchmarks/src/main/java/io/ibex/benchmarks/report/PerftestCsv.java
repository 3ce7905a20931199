package io.ibex.benchmarks.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the guest's {@code perftest.csv}: one row per run of perftest's {@code ib_send_lat}, {@code ib_write_lat},
 * {@code ib_send_bw}, {@code ib_write_bw} or of the {@code ibex} command of the same name, as
 * {@code softroce/bench-compare.sh} writes it from the tools' tables. Latency rows leave the bandwidth fields
 * empty and bandwidth rows the latency fields.
 */
public final class PerftestCsv
{
    /** The header the file must start with. */
    public static final String HEADER = "tool,test,bytes,round,iterations,t_min_us,t_typical_us,t_avg_us,t_max_us," +
        "p99_us,p999_us,bw_avg_MBps,msg_rate_Mpps";
    /** The {@link Row#tool} of perftest's rows. */
    public static final String PERFTEST = "perftest";
    /** The {@link Row#tool} of ibex's rows. */
    public static final String IBEX = "ibex";

    private static final int COLUMNS = HEADER.split(",").length;

    private PerftestCsv()
    {
    }

    /**
     * One run of one tool.
     *
     * @param tool       {@value #PERFTEST} or {@value #IBEX}.
     * @param test       {@code send_lat}, {@code write_lat}, {@code send_bw} or {@code write_bw}.
     * @param bytes      the message size.
     * @param round      the round of the run, from 1.
     * @param iterations the iterations the tool ran.
     * @param tMinUs     the least latency, µs (half a round trip, as perftest reports it); NaN for bandwidth.
     * @param tTypicalUs the median latency, µs; NaN for bandwidth.
     * @param tAvgUs     the mean latency, µs; NaN for bandwidth.
     * @param tMaxUs     the largest latency, µs; NaN for bandwidth.
     * @param p99Us      the 99th percentile, µs; NaN for bandwidth.
     * @param p999Us     the 99.9th percentile, µs; NaN for bandwidth.
     * @param bwAvgMBps  the average bandwidth in MB/s as the tool prints it; NaN for latency.
     * @param msgRateMpps the message rate in millions per second; NaN for latency.
     */
    public record Row(String tool, String test, int bytes, int round, long iterations, double tMinUs,
        double tTypicalUs, double tAvgUs, double tMaxUs, double p99Us, double p999Us, double bwAvgMBps,
        double msgRateMpps)
    {
    }

    /**
     * Reads a file.
     *
     * @param file the CSV file.
     * @return its rows, in the file's order.
     * @throws IllegalArgumentException if the header differs from {@link #HEADER} or a row is malformed, naming
     *                                  the line and the value.
     * @throws UncheckedIOException     if the file cannot be read.
     */
    public static List<Row> read(final Path file)
    {
        final List<String> lines;
        try
        {
            lines = Files.readAllLines(file);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(file + ": cannot read", ex);
        }
        if (lines.isEmpty() || !HEADER.equals(lines.get(0).strip()))
        {
            throw new IllegalArgumentException(file + ":1: expected the header " + HEADER + ", found " +
                (lines.isEmpty() ? "an empty file" : lines.get(0)));
        }
        final List<Row> rows = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++)
        {
            if (!lines.get(i).isBlank())
            {
                rows.add(row(lines.get(i), file + ":" + (i + 1)));
            }
        }
        return rows;
    }

    private static Row row(final String line, final String where)
    {
        final String[] cells = line.split(",", -1);
        if (cells.length != COLUMNS)
        {
            throw new IllegalArgumentException(where + ": " + cells.length + " columns, expected " + COLUMNS +
                ": " + line);
        }
        final String tool = cells[0].strip();
        if (!PERFTEST.equals(tool) && !IBEX.equals(tool))
        {
            throw new IllegalArgumentException(where + ": tool " + tool + ", expected " + PERFTEST + " or " + IBEX);
        }
        return new Row(tool, cells[1].strip(), (int)whole(cells[2], "bytes", where),
            (int)whole(cells[3], "round", where), whole(cells[4], "iterations", where),
            decimal(cells[5], "t_min_us", where), decimal(cells[6], "t_typical_us", where),
            decimal(cells[7], "t_avg_us", where), decimal(cells[8], "t_max_us", where),
            decimal(cells[9], "p99_us", where), decimal(cells[10], "p999_us", where),
            decimal(cells[11], "bw_avg_MBps", where), decimal(cells[12], "msg_rate_Mpps", where));
    }

    private static long whole(final String cell, final String column, final String where)
    {
        try
        {
            return Long.parseLong(cell.strip());
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(where + ": " + column + " '" + cell + "' is not a whole number", ex);
        }
    }

    /** An empty cell is a figure the tool does not report for this test. */
    private static double decimal(final String cell, final String column, final String where)
    {
        if (cell.isBlank())
        {
            return Double.NaN;
        }
        try
        {
            return Double.parseDouble(cell.strip());
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(where + ": " + column + " '" + cell + "' is not a number", ex);
        }
    }
}
