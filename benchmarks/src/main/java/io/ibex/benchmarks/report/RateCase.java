package io.ibex.benchmarks.report;

import java.util.List;

/**
 * One throughput case of a run: messages (or samples) per second of a benchmark with one set of parameters.
 *
 * @param label  what it measured, see {@link CaseNames#label}.
 * @param peer   whether it is a peer's.
 * @param bytes  bytes of each message.
 * @param result the Throughput result.
 */
public record RateCase(String label, boolean peer, int bytes, JmhResult result)
{
    /**
     * @param results    results of any benchmarks and modes.
     * @param benchmarks the simple class names of the throughput benchmarks to take.
     * @return one case per Throughput result of those benchmarks, in the order of the results.
     */
    public static List<RateCase> of(final List<JmhResult> results, final List<String> benchmarks)
    {
        return results.stream()
            .filter(result -> benchmarks.contains(result.className()) && JmhResult.THROUGHPUT.equals(result.mode()))
            .map(result -> new RateCase(CaseNames.label(result), CaseNames.isPeer(result), CaseNames.bytes(result),
                result))
            .toList();
    }

    /**
     * @return messages per second.
     */
    public double perSecond()
    {
        return result.opsPerSecond();
    }

    /**
     * @return megabytes (10<sup>6</sup> bytes) of messages per second.
     */
    public double megabytesPerSecond()
    {
        return perSecond() * bytes / 1e6;
    }

    /**
     * @return bytes allocated per message, NaN when run without the gc profiler.
     */
    public double allocation()
    {
        return Markdown.orNaN(result.allocationPerOp());
    }

    /**
     * @param name a parameter.
     * @return its value, or null when the benchmark has no such parameter.
     */
    public String param(final String name)
    {
        return result.param(name);
    }
}
