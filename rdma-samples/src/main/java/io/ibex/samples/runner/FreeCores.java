package io.ibex.samples.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The cores a run may count on: the processors this JVM may use, less the share other work kept busy over a short
 * sample of {@code /proc/stat} (this process's own start-up counts as busy, so the estimate errs low).
 */
final class FreeCores
{
    static final long SAMPLE_MILLIS = 100;
    private static final Path PROC_STAT = Path.of("/proc/stat");

    private FreeCores()
    {
    }

    /**
     * Samples the machine for {@link #SAMPLE_MILLIS}.
     *
     * @return free cores, fractional; the processors this JVM may use where {@code /proc/stat} cannot be read.
     */
    static double measure()
    {
        final int usable = Runtime.getRuntime().availableProcessors();
        try
        {
            final long[] before = times();
            Thread.sleep(SAMPLE_MILLIS);
            final long[] after = times();
            final long total = after[0] - before[0];
            return total <= 0 ? usable : Math.min(usable, after[2] * (double)(after[1] - before[1]) / total);
        }
        catch (final IOException | RuntimeException ex)
        {
            return usable;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return usable;
        }
    }

    /** @return all jiffies, idle jiffies (idle and iowait), and the number of processors, from /proc/stat. */
    private static long[] times() throws IOException
    {
        final List<String> lines = Files.readAllLines(PROC_STAT);
        final String[] fields = lines.get(0).trim().split("\\s+");
        if (!"cpu".equals(fields[0]) || fields.length < 9)
        {
            throw new IOException("unexpected first line of " + PROC_STAT + ": " + lines.get(0));
        }
        long total = 0;
        for (int i = 1; i <= 8; i++)
        {
            total += Long.parseLong(fields[i]);
        }
        final long idle = Long.parseLong(fields[4]) + Long.parseLong(fields[5]);
        final long cpus = lines.stream().filter((line) -> line.matches("cpu[0-9]+ .*")).count();
        return new long[] {total, idle, cpus};
    }
}
