package io.ibex.benchmarks.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The files of one comparison run, as {@code benchmarks/compare.sh} leaves them in its output directory. Any of
 * them may be missing (a host-only run has no guest directory): what is missing is empty here, and the report
 * says "not run" for it.
 *
 * @param host            the host's JMH results ({@code jmh-host-*.json}).
 * @param hostMachine     the lines of {@code machine-host.txt}, empty when absent.
 * @param guest           the guest's JMH results ({@code guest/jmh-guest-*.json}).
 * @param perftest        the rows of {@code guest/perftest.csv}, empty when absent.
 * @param guestMachine    the lines of {@code guest/machine.txt}, empty when absent.
 * @param guestRan        whether the run has a guest directory at all.
 */
public record ComparisonData(List<JmhResult> host, List<String> hostMachine, List<JmhResult> guest,
    List<PerftestCsv.Row> perftest, List<String> guestMachine, boolean guestRan)
{
    /** The host machine's description, in the output directory. */
    public static final String HOST_MACHINE = "machine-host.txt";
    /** The guest's directory, in the output directory. */
    public static final String GUEST = "guest";

    /**
     * Reads the files of a run.
     *
     * @param directory the run's output directory.
     * @return what it holds.
     * @throws IllegalArgumentException if a file is malformed, naming it.
     */
    public static ComparisonData load(final Path directory)
    {
        final Path guest = directory.resolve(GUEST);
        final Path perftest = guest.resolve("perftest.csv");
        return new ComparisonData(
            JmhJson.readAll(directory, "jmh-host-*.json"),
            lines(directory.resolve(HOST_MACHINE)),
            JmhJson.readAll(guest, "jmh-guest-*.json"),
            Files.exists(perftest) ? PerftestCsv.read(perftest) : List.of(),
            lines(guest.resolve("machine.txt")),
            Files.isDirectory(guest));
    }

    private static List<String> lines(final Path file)
    {
        if (!Files.exists(file))
        {
            return List.of();
        }
        try
        {
            return Files.readAllLines(file).stream().filter(line -> !line.isBlank()).toList();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(file + ": cannot read", ex);
        }
    }
}
