package io.ibex.samples.runner;

import io.ibex.samples.runner.format.SampleFileException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code ibex compare A B}: whether two villas.human files hold the same samples ({@link SampleFileComparison}),
 * for checking that what a signal generator produced is what arrived. Exits 0 when they do, 1 when they differ
 * (printing the first difference with both files' lines, and the counts), 2 when a file cannot be read or is not
 * villas.human.
 */
@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    description = "Compare two villas.human sample files sample by sample: sequence, ts.origin and values (floats " +
        "within a tolerance, integers and booleans exactly).",
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {
        "0:the files hold the same samples",
        "1:they differ: the first difference and the counts are printed",
        "2:a file cannot be read or is not villas.human, or the arguments are wrong" })
public final class CompareCommand implements Callable<Integer>
{
    /** Exit status when the files differ. */
    public static final int DIFFERENT = 1;
    /** Exit status when a file cannot be read. */
    public static final int UNREADABLE = 2;

    @Parameters(index = "0", paramLabel = "A", description = "A villas.human file, e.g. what a signal node made.")
    private Path fileA;

    @Parameters(index = "1", paramLabel = "B", description = "Another, e.g. what arrived.")
    private Path fileB;

    @Option(names = "--abs-tolerance", paramLabel = "X", defaultValue = "0",
        description = "Floats may differ by X + REL times the larger magnitude (default: ${DEFAULT-VALUE}).")
    private double absoluteTolerance;

    @Option(names = "--rel-tolerance", paramLabel = "REL", defaultValue = "0",
        description = "See --abs-tolerance (default: ${DEFAULT-VALUE}).")
    private double relativeTolerance;

    @Option(names = "--ignore-timestamps", description = "Leave ts.origin out of the comparison.")
    private boolean ignoreTimestamps;

    @Option(names = "--subset", description = "Every sample of B must be in A and equal; samples only in A are " +
        "counted as lost, not as a difference (what a lossy transport, UD, delivered). B must not be empty.")
    private boolean subset;

    @Spec
    private CommandSpec spec;

    /**
     * Compares the files.
     *
     * @return 0 when they hold the same samples, {@value #DIFFERENT} when not, {@value #UNREADABLE} when a file
     *         cannot be read.
     */
    @Override
    public Integer call()
    {
        checkTolerance("--abs-tolerance", absoluteTolerance);
        checkTolerance("--rel-tolerance", relativeTolerance);
        final SampleFileComparison.Tolerance tolerance =
            new SampleFileComparison.Tolerance(absoluteTolerance, relativeTolerance, ignoreTimestamps);
        final SampleFileComparison.Result result;
        try
        {
            result = SampleFileComparison.compare(fileA, fileB, tolerance, subset);
        }
        catch (final IOException ex)
        {
            return unreadable(describe(ex));
        }
        catch (final SampleFileException ex)
        {
            return unreadable(ex.getMessage());
        }
        final PrintWriter out = spec.commandLine().getOut();
        if (subset && result.equal() && result.samplesB() > 0)
        {
            out.println(fileB + " is a subset of " + fileA + ": " + result.samplesB() + " of " + result.samplesA() +
                " samples equal, " + result.onlyInA() + " only in " + fileA + String.format(Locale.ROOT, " (%.2f %% lost)",
                    100.0 * result.onlyInA() / result.samplesA()));
            out.flush();
            return 0;
        }
        if (subset && result.equal())
        {
            out.println(fileB + " holds no sample (" + fileA + ": " + result.samplesA() + ")");
            out.flush();
            return DIFFERENT;
        }
        if (result.equal())
        {
            out.println(fileA + " and " + fileB + " are equal: " + result.samplesA() + " samples");
            out.flush();
            return 0;
        }
        out.println(result.firstDifference());
        out.println(fileA + ": " + result.samplesA() + " samples, " + fileB + ": " + result.samplesB() +
            " samples; " + result.differing() + " differing, " + result.onlyInA() + " only in " + fileA + ", " +
            result.onlyInB() + " only in " + fileB);
        out.flush();
        return DIFFERENT;
    }

    private void checkTolerance(final String option, final double value)
    {
        if (!(value >= 0 && value < Double.POSITIVE_INFINITY))
        {
            throw new ParameterException(spec.commandLine(), option + "=" + value + ": must be a number, 0 or more");
        }
    }

    private int unreadable(final String problem)
    {
        final PrintWriter err = spec.commandLine().getErr();
        err.println(spec.qualifiedName() + ": error: " + problem);
        err.flush();
        return UNREADABLE;
    }

    private static String describe(final IOException ex)
    {
        if (ex instanceof NoSuchFileException)
        {
            return "cannot read " + ex.getMessage() + ": no such file";
        }
        if (ex instanceof AccessDeniedException)
        {
            return "cannot read " + ex.getMessage() + ": permission denied";
        }
        return "cannot read: " + ex;
    }
}
