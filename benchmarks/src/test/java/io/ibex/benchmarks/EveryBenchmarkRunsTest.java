package io.ibex.benchmarks;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * Runs every benchmark the annotation processor listed in META-INF/BenchmarkList (each method in each of its
 * modes) for one measurement iteration of 150 ms in this JVM, without warm-up, so none can rot: set-up, the
 * benchmark and tear-down must not throw (a stream's tear-down checks that every message sent arrived, the
 * channel benchmarks that every sample arrived in order), and each case must score above zero. Parameters that
 * choose a code path run at every value ({@link #EVERY_VALUE}); {@code size} at its first and last (Aeron
 * fragments the largest messages); every other parameter at its first value.
 */
class EveryBenchmarkRunsTest
{
    /** Parameters that choose a transport or a code path: each of their values runs. */
    private static final Set<String> EVERY_VALUE = Set.of("transport", "path", "vectorize", "inline");
    /** Parameters whose first and last values run. */
    private static final Set<String> FIRST_AND_LAST = Set.of("size");
    private static final Duration LIMIT_PER_BENCHMARK = Duration.ofSeconds(120);

    @TestFactory
    Stream<DynamicTest> everyBenchmarkRunsForOneIteration() throws IOException
    {
        final List<BenchmarkListEntry> benchmarks;
        try (InputStream list = getClass().getResourceAsStream(BenchmarkList.BENCHMARK_LIST))
        {
            assertNotNull(list, BenchmarkList.BENCHMARK_LIST + " is not on the class path");
            benchmarks = BenchmarkList.readBenchmarkList(list);
        }
        assertTrue(benchmarks.size() > 0, "no benchmark in " + BenchmarkList.BENCHMARK_LIST);
        return benchmarks.stream().map(benchmark -> dynamicTest(benchmark.getUsername() + " " + benchmark.getMode(),
            () -> assertTimeoutPreemptively(LIMIT_PER_BENCHMARK, () -> run(benchmark))));
    }

    private static void run(final BenchmarkListEntry benchmark) throws Exception
    {
        final ChainedOptionsBuilder options = new OptionsBuilder()
            .include("^" + Pattern.quote(benchmark.getUsername()) + "$")
            .mode(benchmark.getMode())
            .forks(0)
            .warmupIterations(0)
            .measurementIterations(1)
            .measurementTime(TimeValue.milliseconds(150))
            .shouldFailOnError(true)
            .verbosity(VerboseMode.SILENT);
        int cases = 1;
        for (final Map.Entry<String, String[]> param : benchmark.getParams().orElse(Map.of()).entrySet())
        {
            final String[] values = chosenValues(param.getKey(), param.getValue());
            options.param(param.getKey(), values);
            cases *= values.length;
        }

        final Collection<RunResult> results = new Runner(options.build()).run();

        assertEquals(cases, results.size(), "cases run");
        for (final RunResult result : results)
        {
            final double score = result.getPrimaryResult().getScore();
            assertTrue(score > 0 && Double.isFinite(score), () -> result.getParams() + ": score " + score);
        }
    }

    private static String[] chosenValues(final String name, final String[] declared)
    {
        if (EVERY_VALUE.contains(name))
        {
            return declared;
        }
        if (FIRST_AND_LAST.contains(name) && declared.length > 1)
        {
            return new String[] { declared[0], declared[declared.length - 1] };
        }
        return new String[] { declared[0] };
    }
}
