package io.ibex.benchmarks.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

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
 * @param profiles        the JFR recordings of {@code profiles/*.jfr} and {@code guest/profiles/*.jfr}, by their
 *                        path in the run's directory without {@code .jfr} (e.g. {@code guest/profiles/send-lat}).
 */
public record ComparisonData(List<JmhResult> host, List<String> hostMachine, List<JmhResult> guest,
    List<PerftestCsv.Row> perftest, List<String> guestMachine, boolean guestRan, Map<String, Profile> profiles)
{
    /** The host machine's description, in the output directory. */
    public static final String HOST_MACHINE = "machine-host.txt";
    /** The guest's directory, in the output directory. */
    public static final String GUEST = "guest";
    /** The profiles' directory, in the output directory and in the guest's. */
    public static final String PROFILES = "profiles";

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
            Files.isDirectory(guest),
            profiles(directory, PROFILES, GUEST + "/" + PROFILES));
    }

    private static Map<String, Profile> profiles(final Path directory, final String... folders)
    {
        final Map<String, Profile> profiles = new TreeMap<>();
        for (final String folder : folders)
        {
            final Path path = directory.resolve(folder);
            if (!Files.isDirectory(path))
            {
                continue;
            }
            try (DirectoryStream<Path> files = Files.newDirectoryStream(path, "*.jfr"))
            {
                for (final Path file : files)
                {
                    final Profile profile = Profile.read(file);
                    profiles.put(folder + "/" + profile.name(), profile);
                }
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(path + ": cannot list", ex);
            }
        }
        return profiles;
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
