package io.ibex.benchmarks.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One round-trip case of a run (a benchmark with one set of parameters), its SampleTime result (percentiles,
 * histogram) and its AverageTime result where the run had that mode too.
 *
 * @param label   what it measured, see {@link CaseNames#label}.
 * @param peer    whether it is a peer's.
 * @param bytes   bytes of each message.
 * @param sample  the SampleTime result, or null.
 * @param average the AverageTime result, or null.
 */
public record LatencyCase(String label, boolean peer, int bytes, JmhResult sample, JmhResult average)
{
    /**
     * Pairs the SampleTime and AverageTime results of each case of some benchmarks.
     *
     * @param results    results of any benchmarks and modes.
     * @param benchmarks the simple class names of the round-trip benchmarks to take.
     * @return one case per benchmark and set of parameters, in the order of the results.
     */
    public static List<LatencyCase> of(final List<JmhResult> results, final List<String> benchmarks)
    {
        final Map<String, JmhResult> samples = new LinkedHashMap<>();
        final Map<String, JmhResult> averages = new LinkedHashMap<>();
        for (final JmhResult result : results)
        {
            if (benchmarks.contains(result.className()))
            {
                final String key = result.benchmark() + result.params();
                if (JmhResult.SAMPLE.equals(result.mode()))
                {
                    samples.put(key, result);
                }
                else if (JmhResult.AVERAGE.equals(result.mode()))
                {
                    averages.put(key, result);
                }
            }
        }
        final Map<String, JmhResult> keys = new LinkedHashMap<>(samples);
        averages.forEach(keys::putIfAbsent);
        final List<LatencyCase> cases = new ArrayList<>();
        keys.forEach((key, any) -> cases.add(new LatencyCase(CaseNames.label(any), CaseNames.isPeer(any),
            CaseNames.bytes(any), samples.get(key), averages.get(key))));
        return cases;
    }

    /**
     * @param name a parameter.
     * @return its value, or null when the benchmark has no such parameter.
     */
    public String param(final String name)
    {
        return (null != sample ? sample : average).param(name);
    }

    /**
     * @param percentile from 0 to 100.
     * @return the round trip at that percentile in µs, NaN without a SampleTime result.
     */
    public double percentile(final double percentile)
    {
        return null == sample ? Double.NaN : Markdown.orNaN(sample.percentileMicros(percentile));
    }

    /**
     * @return the mean round trip in µs: AverageTime's score, else SampleTime's.
     */
    public double mean()
    {
        return null != average ? average.scoreMicros() : sample.scoreMicros();
    }

    /**
     * @return bytes allocated per round trip: AverageTime's figure (SampleTime's own sample buffers add to its
     *     figure), else SampleTime's; NaN when run without the gc profiler.
     */
    public double allocation()
    {
        final Double averageAllocation = null == average ? null : average.allocationPerOp();
        return null != averageAllocation ? averageAllocation :
            null == sample ? Double.NaN : Markdown.orNaN(sample.allocationPerOp());
    }
}
