package io.ibex.benchmarks.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the comparison section of docs/benchmarks.md and its plots from the files of a run of
 * {@code benchmarks/compare.sh}:
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.ibex.benchmarks.report.CompareReport target/compare docs
 * </pre>
 * Only the text between {@value Markdown#BEGIN} and {@value Markdown#END} changes; the plots are
 * {@code docs/plots/host-*.png} and {@code docs/plots/guest-*.png}, replaced as a set.
 */
public final class CompareReport
{
    /** The document, in the docs directory. */
    public static final String DOCUMENT = "benchmarks.md";
    /** The widest line of the section's prose, as in the rest of the docs. */
    public static final int WIDTH = 120;
    /** The plots' directory, in the docs directory. */
    public static final String PLOTS = "plots";

    private CompareReport()
    {
    }

    /**
     * @param args the run's output directory and the docs directory.
     */
    public static void main(final String[] args)
    {
        if (args.length != 2)
        {
            System.err.println("usage: CompareReport RUN_DIRECTORY DOCS_DIRECTORY (e.g. target/compare docs)");
            System.exit(2);
        }
        System.setProperty("java.awt.headless", "true");
        try
        {
            final Path document = write(Path.of(args[0]), Path.of(args[1]));
            System.out.println("wrote the comparison section of " + document + " and its plots");
        }
        catch (final IllegalArgumentException | UncheckedIOException ex)
        {
            System.err.println("CompareReport: " + ex.getMessage());
            System.exit(1);
        }
    }

    /**
     * Replaces the section and the plots.
     *
     * @param run  the run's output directory.
     * @param docs the docs directory holding {@value #DOCUMENT}.
     * @return the document written.
     * @throws IllegalArgumentException if an input is malformed or the document lacks its markers.
     * @throws UncheckedIOException     if a file cannot be read or written.
     */
    public static Path write(final Path run, final Path docs)
    {
        if (!Files.isDirectory(run))
        {
            throw new IllegalArgumentException(run + ": no such directory (run benchmarks/compare.sh first)");
        }
        final Path document = docs.resolve(DOCUMENT);
        final Path plots = docs.resolve(PLOTS);
        try
        {
            final String before = Files.readString(document);
            Markdown.replaceSection(before, "");
            final ComparisonData data = ComparisonData.load(run);
            deletePlots(plots);
            final String section = Markdown.wrap(ComparisonSection.write(data, plots, PLOTS), WIDTH);
            Files.writeString(document, Markdown.replaceSection(before, section));
            return document;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(document + ": " + ex.getMessage(), ex);
        }
    }

    /** The previous run's plots go: a plot this run does not draw must not stay beside its figures. */
    private static void deletePlots(final Path plots) throws IOException
    {
        if (!Files.isDirectory(plots))
        {
            return;
        }
        try (DirectoryStream<Path> old = Files.newDirectoryStream(plots, "{host,guest}-*.png"))
        {
            for (final Path plot : old)
            {
                Files.delete(plot);
            }
        }
    }
}
