package io.ibex.transport.stats;

/**
 * The metrics of VILLASnode's {@code stats} hook, each kept in a histogram by {@link ChannelStats}. Times are in
 * nanoseconds; {@link #REORDERED} and {@link #SKIPPED} count samples. docs/stats.md says how each differs from
 * VILLAS.
 */
public enum Metric
{
    /** One-way delay of a received sample: ts.received − ts.origin (clocks of two hosts: may be negative). */
    OWD("owd", true, "one-way delay: ts.received - ts.origin of a received sample"),
    /** Time between the ts.received of consecutive received samples. */
    GAP_RECEIVED("gap_received", true, "time between the ts.received of consecutive received samples"),
    /** Time between the ts.origin of consecutive received samples: the sender's pace. */
    GAP_SENT("gap_sent", true, "time between the ts.origin of consecutive received samples"),
    /** |sequence step| of a received sample whose step from the previous one is not 1 (0 for a duplicate). */
    REORDERED("reordered", false, "|sequence step| of a received sample whose step from the previous is not 1"),
    /**
     * Sequence numbers missing before a received sample: step − 1 for a step above 1. With a sender that counts
     * by one and in-order delivery, the sum of these values is exactly the number of lost samples (a reordered
     * sample is counted at its gap and at the step after it). VILLAS counts samples its read hooks dropped
     * instead.
     */
    SKIPPED("skipped", false, "sequence numbers missing before a received sample: step - 1 for a step above 1"),
    /** Time from ts.received to the moment a forwarded sample is written out again. */
    AGE("age", true, "time from ts.received to the moment a forwarded sample is written out");

    private final String id;
    private final boolean time;
    private final String description;

    Metric(final String id, final boolean time, final String description)
    {
        this.id = id;
        this.time = time;
        this.description = description;
    }

    /** @return the name VILLAS gives the metric ({@code "owd"}), also the key in JSON. */
    public String id()
    {
        return id;
    }

    /** @return true if the values are nanoseconds, false if they count samples. */
    public boolean isTime()
    {
        return time;
    }

    /** @return the unit of the recorded values: {@code "ns"} or {@code "samples"}. */
    public String unit()
    {
        return time ? "ns" : "samples";
    }

    /** @return what a value of the metric is, in one line. */
    public String description()
    {
        return description;
    }

    /**
     * @param id a name as VILLAS gives it ({@code "gap_received"}).
     * @return the metric.
     * @throws IllegalArgumentException naming the known metrics if there is none of that name.
     */
    public static Metric fromId(final String id)
    {
        for (final Metric metric : values())
        {
            if (metric.id.equals(id))
            {
                return metric;
            }
        }
        throw new IllegalArgumentException("unknown stats metric \"" + id +
            "\" (known: owd, gap_received, gap_sent, reordered, skipped, age)");
    }
}
