package io.ibex.benchmarks;

import io.ibex.benchmarks.report.Profile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.profile.ProfilerException;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The comparison's JMH profiler on the case it profiles on the host: the channel's round trip on the soft provider,
 * in this JVM ({@code -f 0}, as in the Soft-RoCE guest).
 */
class ThreadSamplesProfilerTest
{
    @TempDir
    Path temp;

    @Test
    void recordsTheMeasuredIterationsOfACaseIntoItsFile() throws Exception
    {
        final Path file = temp.resolve("channel-round-trip-5.jfr");

        new Runner(new OptionsBuilder()
            .include("^" + ChannelRoundTripBenchmark.class.getName() + "\\.")
            .param("values", "5")
            .param("path", "channel")
            .forks(0)
            .warmupIterations(1)
            .warmupTime(TimeValue.milliseconds(200))
            .measurementIterations(2)
            .measurementTime(TimeValue.milliseconds(500))
            .addProfiler(ThreadSamplesProfiler.class, "file=" + file)
            .shouldFailOnError(true)
            .verbosity(VerboseMode.SILENT)
            .build()).run();

        final Profile profile = Profile.read(file);
        assertTrue(profile.working() > 0, "samples of the round trip: " + profile);
        assertTrue(profile.threads().stream().anyMatch(thread -> thread.what().contains("jmh-worker")),
            "the benchmark's thread: " + profile.threads());
    }

    @Test
    void refusesOptionsOtherThanAFile()
    {
        for (final String options : new String[] { null, "", "file=", "path=x.jfr" })
        {
            final ProfilerException refused = assertThrows(ProfilerException.class,
                () -> new ThreadSamplesProfiler(options));
            assertEquals("ThreadSamplesProfiler takes file=PATH (where to write the recording), got '" + options +
                "'", refused.getMessage());
        }
    }
}
