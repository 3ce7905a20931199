package io.ibex.samples.perf;

import jdk.jfr.Recording;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A JFR recording of thread samples only, for a profile of where a measured loop's time goes: samples of threads in
 * Java code ({@code jdk.ExecutionSample}) and of threads in native methods ({@code jdk.NativeMethodSample}, where a
 * verbs call into libibverbs and the kernel spends its time) at the same period, so that the two kinds add up.
 * Nothing else is recorded, to keep the recording's own cost small under emulation. Used by {@code ibex send-lat
 * --jfr} and the others, and by the benchmarks' JMH profiler of the comparison.
 */
public final class ThreadSamples implements AutoCloseable
{
    /** The period of both kinds of sample, in milliseconds. */
    public static final int PERIOD_MS = 10;

    private final Recording recording = new Recording();

    private ThreadSamples(final String name)
    {
        recording.setName(name);
        recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(PERIOD_MS));
        recording.enable("jdk.NativeMethodSample").withPeriod(Duration.ofMillis(PERIOD_MS));
        recording.start();
    }

    /**
     * @param name the recording's name, e.g. what it profiles.
     * @return a recording, started.
     */
    public static ThreadSamples start(final String name)
    {
        return new ThreadSamples(name);
    }

    /**
     * Stops the recording and writes it.
     *
     * @param file where to write the recording.
     * @throws UncheckedIOException if it cannot be written, naming the file.
     */
    public void stopInto(final Path file)
    {
        recording.stop();
        try
        {
            recording.dump(file);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(file + ": cannot write the JFR recording: " + ex.getMessage(), ex);
        }
    }

    /**
     * Discards the recording.
     */
    @Override
    public void close()
    {
        recording.close();
    }
}
