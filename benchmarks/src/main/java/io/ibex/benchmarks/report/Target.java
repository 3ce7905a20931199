package io.ibex.benchmarks.report;

import java.util.Locale;

/**
 * One of the performance targets ({@link Targets}): a figure of ibex against the same figure of a peer, whose
 * ratio must stay at most (latency) or at least (rate) a limit.
 *
 * @param name   what is compared, e.g. {@code rxe: ibex send-lat / ib_send_lat, median, 64 B}.
 * @param ibex   ibex's figure, NaN when not measured in this run.
 * @param peer   the peer's figure, NaN when not measured in this run.
 * @param unit   the figures' unit, e.g. {@code µs}.
 * @param limit  the ratio ibex / peer the target allows.
 * @param atMost true when the ratio must be at most the limit, false when at least.
 * @param profile the profile of ibex's case, if the run records one: its path in the run's directory without
 *               {@code .jfr} ({@link ComparisonData#profiles()}); null when none is recorded.
 */
public record Target(String name, double ibex, double peer, String unit, double limit, boolean atMost,
    String profile)
{
    /**
     * @return ibex / peer, NaN when either was not measured.
     */
    public double ratio()
    {
        return ibex / peer;
    }

    /**
     * @return whether both figures were measured.
     */
    public boolean measured()
    {
        return !Double.isNaN(ratio()) && !Double.isInfinite(ratio());
    }

    /**
     * @return whether the ratio is within the limit; false when not measured.
     */
    public boolean met()
    {
        return measured() && (atMost ? ratio() <= limit : ratio() >= limit);
    }

    /**
     * @return the limit as the report states it, e.g. {@code ≤ 1.10 ×}.
     */
    public String limitText()
    {
        return (atMost ? "≤ " : "≥ ") + Markdown.ratio(limit) + " ×";
    }

    /**
     * @return {@code met} or {@code missed} with how far the ratio is from the limit in percent of the limit, or
     *     {@value Markdown#NOT_RUN}.
     */
    public String verdict()
    {
        if (!measured())
        {
            return Markdown.NOT_RUN;
        }
        final double off = Math.abs(ratio() / limit - 1) * 100;
        return String.format(Locale.ROOT, met() ? "**met**, %.1f %% inside the limit" :
            "**missed**, by %.1f %% of the limit", off);
    }
}
