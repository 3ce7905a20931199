package io.ibex.benchmarks.report;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The report's PNG plots, drawn by XChart with Java2D (headless: no display needed, the JDK's fonts through
 * fontconfig).
 */
public final class Plots
{
    private static final int WIDTH = 900;
    private static final int HEIGHT = 560;

    private Plots()
    {
    }

    /**
     * A series of points.
     *
     * @param name its name in the legend.
     * @param x    the x values.
     * @param y    the y values, as many.
     */
    public record Series(String name, double[] x, double[] y)
    {
    }

    /**
     * Plots each case's SampleTime histogram as its cumulative distribution with the tail drawn out: x is the
     * fraction of round trips on a scale of nines (90 %, 99 %, 99.9 %, equally spaced, as HdrHistogram plots
     * them), y the round trip at most that fraction took (µs, logarithmic).
     *
     * @param file  the PNG to write.
     * @param title the plot's title.
     * @param cases the cases; those without a SampleTime histogram are left out.
     * @return whether the file was written: false when no case has a histogram.
     */
    public static boolean latencyPercentiles(final Path file, final String title, final List<LatencyCase> cases)
    {
        final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
            .xAxisTitle("fraction of round trips (scale of nines)").yAxisTitle("round trip (µs, log scale)").build();
        style(chart.getStyler());
        chart.getStyler().setYAxisLogarithmic(true).setXAxisMin(0.0)
            .setxAxisTickLabelsFormattingFunction(Plots::nines);
        int plotted = 0;
        for (final LatencyCase latency : cases)
        {
            if (null != latency.sample() && !latency.sample().histogram().isEmpty())
            {
                final Series percentiles = percentiles(latency.label(), latency.sample());
                chart.addSeries(latency.label(), percentiles.x(), percentiles.y()).setMarker(SeriesMarkers.NONE);
                plotted++;
            }
        }
        return plotted > 0 && write(chart, file);
    }

    /**
     * Plots lines through points, one per series.
     *
     * @param file   the PNG to write.
     * @param title  the plot's title.
     * @param xTitle the x axis's title.
     * @param yTitle the y axis's title.
     * @param logX   whether the x axis is logarithmic.
     * @param series the series; empty ones are left out.
     * @return whether the file was written: false when every series is empty.
     */
    public static boolean lines(final Path file, final String title, final String xTitle, final String yTitle,
        final boolean logX, final List<Series> series)
    {
        final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(xTitle)
            .yAxisTitle(yTitle).build();
        style(chart.getStyler());
        chart.getStyler().setXAxisLogarithmic(logX).setYAxisMin(0.0).setYAxisDecimalPattern("#,###.##");
        chart.getStyler().setXAxisDecimalPattern("#,###");
        int plotted = 0;
        for (final Series points : series)
        {
            if (points.x().length > 0)
            {
                chart.addSeries(points.name(), points.x(), points.y());
                plotted++;
            }
        }
        return plotted > 0 && write(chart, file);
    }

    /**
     * Plots grouped bars: for each category (a percentile, say) one bar per series.
     *
     * @param file       the PNG to write.
     * @param title      the plot's title.
     * @param yTitle     the y axis's title.
     * @param categories the categories, left to right.
     * @param series     each series' value per category (NaN: no bar); series without any value are left out.
     * @return whether the file was written: false when no series has a value.
     */
    public static boolean bars(final Path file, final String title, final String yTitle,
        final List<String> categories, final Map<String, double[]> series)
    {
        final CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title)
            .yAxisTitle(yTitle).build();
        style(chart.getStyler());
        chart.getStyler().setYAxisMin(0.0).setYAxisDecimalPattern("#,###.##");
        int plotted = 0;
        for (final Map.Entry<String, double[]> bars : series.entrySet())
        {
            final double[] values = bars.getValue();
            if (Arrays.stream(values).anyMatch(value -> !Double.isNaN(value)))
            {
                final Double[] heights = new Double[values.length];
                for (int i = 0; i < values.length; i++)
                {
                    heights[i] = Double.isNaN(values[i]) ? null : values[i];
                }
                chart.addSeries(bars.getKey(), categories, List.of(heights));
                plotted++;
            }
        }
        return plotted > 0 && write(chart, file);
    }

    /**
     * @param name   the series' name.
     * @param sample a SampleTime result with its histogram.
     * @return x: for each distinct round trip, the fraction of samples up to the middle of its own, in nines
     *     ({@code -log10(1 - fraction)}: 1 is 90 %, 2 is 99 %); y: that round trip in µs.
     */
    static Series percentiles(final String name, final JmhResult sample)
    {
        final List<JmhResult.Bucket> buckets = sample.histogram();
        final long total = buckets.stream().mapToLong(JmhResult.Bucket::count).sum();
        final double[] x = new double[buckets.size()];
        final double[] y = new double[buckets.size()];
        long below = 0;
        for (int i = 0; i < buckets.size(); i++)
        {
            final long count = buckets.get(i).count();
            // The middle of the bucket's ranks keeps the last point finite.
            x[i] = -Math.log10(1 - (below + count / 2.0) / total);
            y[i] = Units.toMicros(buckets.get(i).value(), sample.unit());
            below += count;
        }
        return new Series(name, x, y);
    }

    /** A tick of the scale of nines as a percentage: 1 is 90 %, 2 is 99 %. */
    private static String nines(final Double x)
    {
        final double percent = 100 * (1 - Math.pow(10, -x));
        return new BigDecimal(percent).round(new MathContext(Math.max(2, (int)Math.ceil(x) + 1)))
            .stripTrailingZeros().toPlainString() + " %";
    }

    private static void style(final Styler styler)
    {
        styler.setLegendPosition(Styler.LegendPosition.OutsideS);
        styler.setChartBackgroundColor(Color.WHITE);
    }

    private static boolean write(final Chart<?, ?> chart, final Path file)
    {
        try
        {
            Files.createDirectories(file.toAbsolutePath().getParent());
            try (OutputStream out = Files.newOutputStream(file))
            {
                BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
            }
            return true;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(file + ": cannot write the plot", ex);
        }
    }
}
