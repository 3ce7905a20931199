package io.ibex.benchmarks.report;

import io.ibex.transport.sample.Sample;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a JMH result measured, in the report's words: its label ({@code nio}, {@code soft channel (8 values)}), the
 * bytes on the wire per message, and whether it is a peer or ibex.
 */
final class CaseNames
{
    /** The peers' transports, in the order of the report's ratio columns. */
    static final List<String> PEERS = List.of("nio", "aeron-udp", "aeron-ipc");

    private static final String AERON = "aeron";
    private static final Set<String> NAMED = Set.of("transport", "size", "values", "path", "provider", "address",
        "vectorize", "inline");

    private CaseNames()
    {
    }

    /**
     * @param result a result.
     * @return whether it measured a peer rather than ibex.
     */
    static boolean isPeer(final JmhResult result)
    {
        final String transport = result.param("transport");
        return null != transport && PEERS.contains(transport);
    }

    /**
     * @param result a result.
     * @return the bytes of each message: the {@code size} parameter, or the wire length of a sample of
     *     {@code values} values.
     * @throws IllegalArgumentException if it has neither parameter (not a benchmark the comparison runs).
     */
    static int bytes(final JmhResult result)
    {
        final String size = result.param("size");
        if (null != size)
        {
            return Integer.parseInt(size);
        }
        final String values = result.param("values");
        if (null == values)
        {
            throw new IllegalArgumentException(result.benchmark() + " " + result.params() +
                ": neither a size nor a values parameter, so its message size is unknown");
        }
        return Sample.wireLength(Integer.parseInt(values));
    }

    /**
     * @param result a result of a ping-pong, stream or sample channel benchmark.
     * @return its label: {@link #series}, then the sample's values where the benchmark has them.
     */
    static String label(final JmhResult result)
    {
        final String values = result.param("values");
        return null == values ? series(result) : series(result) + " (" + values + ("1".equals(values) ? " value)" :
            " values)");
    }

    /**
     * @param result a result of a ping-pong, stream or sample channel benchmark.
     * @return what it measured whatever the message size: the transport for a peer, provider and path for ibex,
     *     then any parameter this does not otherwise show (an idle strategy, say) as {@code name=value}.
     */
    static String series(final JmhResult result)
    {
        final StringBuilder label = new StringBuilder();
        final String transport = result.param("transport");
        if (null != transport)
        {
            label.append(transport).append(isPeer(result) ? "" : " verbs");
        }
        else
        {
            label.append(result.param("provider")).append(' ')
                .append(null == result.param("path") ? "channel" : result.param("path"));
            if (null != result.param("vectorize"))
            {
                label.append(", vectorize ").append(result.param("vectorize"));
            }
            if (null != result.param("inline"))
            {
                label.append(Boolean.parseBoolean(result.param("inline")) ? ", inline" : ", not inline");
            }
        }
        final Map<String, String> others = new TreeMap<>(result.params());
        others.keySet().removeAll(NAMED);
        if (null == transport || !transport.startsWith(AERON))
        {
            // The peers' benchmarks share their parameters; Aeron's setup means nothing beside nio or ibex.
            others.keySet().removeIf(name -> name.startsWith(AERON));
        }
        others.forEach((name, value) -> label.append(", ").append(name).append('=').append(value));
        return label.toString();
    }
}
