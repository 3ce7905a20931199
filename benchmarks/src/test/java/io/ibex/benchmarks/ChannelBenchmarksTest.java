package io.ibex.benchmarks;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Collection;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs every case of the channel benchmarks for one short iteration in this JVM, so they cannot rot, and checks
 * that the channel's round trip allocates nothing once warm.
 */
class ChannelBenchmarksTest
{
    private static final int CASES = 6;
    private static final int WARM_UP_ROUND_TRIPS = 20_000;
    private static final int MEASURED_ROUND_TRIPS = 20_000;

    @Test
    @Timeout(300)
    void everyRoundTripCaseRunsAndAnswersEverySample() throws RunnerException
    {
        checkEveryCaseRan(ChannelRoundTripBenchmark.class, Mode.AverageTime, CASES);
    }

    @Test
    @Timeout(300)
    void everyThroughputCaseRunsAndDeliversEverySampleInOrder() throws RunnerException
    {
        checkEveryCaseRan(ChannelThroughputBenchmark.class, Mode.Throughput, CASES);
    }

    @Test
    @Timeout(120)
    void everyPartOfTheChannelsPerSampleWorkRuns() throws RunnerException
    {
        checkEveryCaseRan(ChannelPartsBenchmark.class, Mode.AverageTime, 7);
    }

    @Test
    void channelRoundTripsAllocateNothingOnceWarm()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        // The timeout runs the body on another thread: measure that one.
        assertTimeoutPreemptively(Duration.ofSeconds(120), () ->
        {
            try (PingPong pingPong = new ChannelPingPong("soft", "127.0.0.1", 8))
            {
                roundTrips(pingPong, WARM_UP_ROUND_TRIPS);
                final long thread = Thread.currentThread().getId();
                final long before = threads.getThreadAllocatedBytes(thread);
                roundTrips(pingPong, MEASURED_ROUND_TRIPS);
                final long allocated = threads.getThreadAllocatedBytes(thread) - before;
                // Under one byte per round trip means no round trip allocates an object (the smallest is 16 bytes).
                assertTrue(allocated < MEASURED_ROUND_TRIPS, () -> allocated + " bytes allocated by " +
                    MEASURED_ROUND_TRIPS + " round trips (claim, write and read, measuring thread)");
            }
        });
    }

    /**
     * Runs each parameter combination for one iteration of 200 ms without warm-up; a failure in set-up, in the
     * benchmark (a sample lost, out of order or answered wrongly) or in tear-down fails the run.
     */
    private static void checkEveryCaseRan(final Class<?> benchmark, final Mode mode, final int cases)
        throws RunnerException
    {
        final Collection<RunResult> results = new Runner(new OptionsBuilder()
            .include("^" + Pattern.quote(benchmark.getName()) + "\\.")
            .mode(mode)
            .forks(0)
            .warmupIterations(0)
            .measurementIterations(1)
            .measurementTime(TimeValue.milliseconds(200))
            .shouldFailOnError(true)
            .verbosity(VerboseMode.SILENT)
            .build()).run();

        assertEquals(cases, results.size(), () -> benchmark.getSimpleName() + " cases run");
        for (final RunResult result : results)
        {
            final double score = result.getPrimaryResult().getScore();
            assertTrue(score > 0, () -> result.getParams() + ": score " + score);
        }
    }

    private static void roundTrips(final PingPong pingPong, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            pingPong.roundTrip();
        }
    }
}
