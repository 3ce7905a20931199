package io.ibex.benchmarks.report;

import java.util.List;
import java.util.Map;
import java.util.NavigableMap;

/**
 * One result of JMH's JSON output ({@code -rf json}): a benchmark method in one mode with one set of parameters,
 * its score with the unit JMH gave it, the percentiles and histogram of a SampleTime run, and the secondary
 * metrics of the profilers (with {@code -prof gc}: {@value #ALLOCATION}).
 *
 * @param benchmark   the method's full name, {@code io.ibex.benchmarks.PingPongBenchmark.roundTrip}.
 * @param mode        JMH's short name of the mode: {@code sample}, {@code avgt}, {@code thrpt} or {@code ss}.
 * @param params      the values of the benchmark's {@code @Param} fields in this run.
 * @param score       the primary metric, in {@code unit}.
 * @param scoreError  JMH's error of the score (99.9 % confidence), NaN when it had too few iterations.
 * @param unit        the score's unit, such as {@code us/op} or {@code ops/s}.
 * @param percentiles percentile (0 to 100) to the latency at it, in {@code unit}; empty but for SampleTime.
 * @param histogram   the samples of a SampleTime run over all forks and iterations, ascending; empty otherwise.
 * @param secondary   each secondary metric's score, by name.
 * @param run         how JMH ran it: JVM, JDK, its arguments, forks and iterations.
 */
public record JmhResult(String benchmark, String mode, Map<String, String> params, double score, double scoreError,
    String unit, NavigableMap<Double, Double> percentiles, List<Bucket> histogram, Map<String, Double> secondary,
    RunSettings run)
{
    /** JMH's name of SampleTime mode. */
    public static final String SAMPLE = "sample";
    /** JMH's name of AverageTime mode. */
    public static final String AVERAGE = "avgt";
    /** JMH's name of Throughput mode. */
    public static final String THROUGHPUT = "thrpt";
    /** The gc profiler's bytes allocated per operation, by every thread of the JVM. */
    public static final String ALLOCATION = "gc.alloc.rate.norm";

    /**
     * A value of a SampleTime histogram and how many samples had it.
     *
     * @param value the latency, in the result's unit.
     * @param count the number of samples.
     */
    public record Bucket(double value, long count)
    {
    }

    /**
     * How JMH ran a benchmark, as its JSON records it.
     *
     * @param jdkVersion  the JDK's version.
     * @param vm          the VM's name and version.
     * @param jvmArgs     the arguments of the forked JVM.
     * @param forks       the number of forks.
     * @param warmup      warm-up iterations and time of each, e.g. {@code 3 x 2 s}.
     * @param measurement measurement iterations and time of each.
     */
    public record RunSettings(String jdkVersion, String vm, List<String> jvmArgs, int forks, String warmup,
        String measurement)
    {
    }

    /**
     * @return the benchmark's class without its package, {@code PingPongBenchmark}.
     */
    public String className()
    {
        final int method = benchmark.lastIndexOf('.');
        return benchmark.substring(benchmark.lastIndexOf('.', method - 1) + 1, method);
    }

    /**
     * @param name a parameter's name.
     * @return its value in this run, or null when the benchmark has no such parameter.
     */
    public String param(final String name)
    {
        return params.get(name);
    }

    /**
     * @param percentile from 0 to 100.
     * @return the latency at that percentile in microseconds, or null when JMH did not record it.
     */
    public Double percentileMicros(final double percentile)
    {
        final Double value = percentiles.get(percentile);
        return null == value ? null : Units.toMicros(value, unit);
    }

    /**
     * @return the score of a time mode in microseconds per operation.
     * @throws IllegalStateException if the score is a rate.
     */
    public double scoreMicros()
    {
        return Units.toMicros(score, unit);
    }

    /**
     * @return the score of Throughput mode in operations per second.
     * @throws IllegalStateException if the score is a time.
     */
    public double opsPerSecond()
    {
        return Units.toPerSecond(score, unit);
    }

    /**
     * @return bytes allocated per operation ({@value #ALLOCATION}), or null when run without {@code -prof gc}.
     */
    public Double allocationPerOp()
    {
        return secondary.get(ALLOCATION);
    }
}
