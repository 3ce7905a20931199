package io.ibex.benchmarks.report;

import io.ibex.samples.perf.ThreadSamples;

import java.util.List;
import java.util.Map;

/**
 * The part of the section that says what dominates where a target is missed: for each missed target, the profile
 * of ibex's case ({@link Profile}), its top frames and innermost ibex frames by share of the working samples.
 */
final class ProfileReport
{
    /** What a target whose case the comparison does not record (the two-JVM cases) says instead. */
    static final String NOT_PROFILED = "no profile recorded for this case";

    /** Rows of a profile's table: the top frames beyond these are summed into one "other" row. */
    static final int ROWS = 8;

    private ProfileReport()
    {
    }

    /**
     * @param target   a target.
     * @param profiles the run's profiles.
     * @return the profile of a missed target's case, a short "what dominates" for the targets' table; empty for a
     *     target that is met or not measured, {@value Markdown#NOT_RUN} for a missed one without a profile.
     */
    static String dominant(final Target target, final Map<String, Profile> profiles)
    {
        if (!target.measured() || target.met())
        {
            return "";
        }
        if (null == target.profile())
        {
            return NOT_PROFILED;
        }
        final Profile profile = profiles.get(target.profile());
        if (null == profile || 0 == profile.working())
        {
            return Markdown.NOT_RUN;
        }
        final Profile.Share top = profile.frames().get(0);
        return share(profile, top) + " " + top.what();
    }

    /**
     * Appends the profiles of the missed targets.
     *
     * @param markdown the section so far.
     * @param targets  the targets.
     * @param profiles the run's profiles.
     */
    static void write(final StringBuilder markdown, final List<Target> targets, final Map<String, Profile> profiles)
    {
        final List<Target> missed = targets.stream().filter(target -> target.measured() && !target.met()).toList();
        markdown.append("\n### What dominates where a target is missed (profiles)\n\n");
        if (missed.isEmpty())
        {
            markdown.append("No target is missed in this run.\n");
            return;
        }
        markdown.append("Each case a target is about is recorded where no figure comes from, under JFR: ibex's ")
            .append("verbs-level clients in the guest run their measured loop again after their results, in the ")
            .append("same JVMs (`--jfr`, `--jfr-rounds`), and the sample channel's round trips run once more after ")
            .append("the measured runs (thread samples of the measured part every ").append(ThreadSamples.PERIOD_MS)
            .append(" ms, of threads ")
            .append("in Java code and of threads in native methods alike), into `profiles/` and `guest/profiles/`. The ")
            .append("shares count, not the times: the recording slows the run down, most of all under emulation. ")
            .append("JFR samples at most five threads in Java code and one in a native method a period, so a ")
            .append("native share is a lower bound where several threads are in native calls at once. ")
            .append("Samples of threads asleep in a native wait (a selector, a socket, an event channel) are left ")
            .append("out; the shares are of the samples of working threads. A frame marked `[native]` is a native ")
            .append("method: on disni the verbs calls, whose time is libibverbs' and the kernel's rxe's, not Java's. ")
            .append("The innermost ibex frame is the ibex method the sample is under.\n");
        for (final Target target : missed)
        {
            markdown.append("\n#### ").append(target.name()).append(": ").append(target.verdict()).append("\n\n");
            if (null == target.profile())
            {
                markdown.append(NOT_PROFILED).append(".\n");
                continue;
            }
            final Profile profile = profiles.get(target.profile());
            if (null == profile || 0 == profile.working())
            {
                markdown.append("`").append(target.profile()).append(".jfr`: ").append(Markdown.NOT_RUN)
                    .append(null == profile ? " (no recording)" : " (no samples of working threads)").append(".\n");
                continue;
            }
            describe(markdown, target.profile(), profile);
        }
    }

    private static void describe(final StringBuilder markdown, final String path, final Profile profile)
    {
        markdown.append('`').append(path).append(".jfr`: ").append(profile.working())
            .append(" samples of working threads, ").append(percent(100.0 * profile.nativeCount() / profile.working()))
            .append(" in native methods and ").append(percent(100.0 * profile.javaCount() / profile.working()))
            .append(" in Java; ").append(profile.waiting()).append(" samples of waiting threads left out. Threads: ");
        final List<Profile.Share> threads = profile.threads();
        for (int i = 0; i < Math.min(threads.size(), 4); i++)
        {
            markdown.append(i == 0 ? "" : ", ").append(share(profile, threads.get(i))).append(" `")
                .append(threads.get(i).what()).append('`');
        }
        markdown.append(threads.size() > 4 ? ", others.\n\n" : ".\n\n");
        final Markdown.Table table = new Markdown.Table("share", "top frame", "share", "innermost ibex frame");
        final List<Profile.Share> frames = profile.frames();
        final List<Profile.Share> ibexFrames = profile.ibexFrames();
        final int rows = Math.max(Math.min(frames.size(), ROWS), Math.min(ibexFrames.size(), ROWS));
        for (int row = 0; row < rows; row++)
        {
            table.row(cell(profile, frames, row, true), cell(profile, frames, row, false),
                cell(profile, ibexFrames, row, true), cell(profile, ibexFrames, row, false));
        }
        markdown.append(table);
    }

    /** A cell of a table of shares: the last row sums what does not fit. */
    private static String cell(final Profile profile, final List<Profile.Share> shares, final int row,
        final boolean isShare)
    {
        if (row >= shares.size())
        {
            return "";
        }
        final Profile.Share share;
        if (row == ROWS - 1 && shares.size() > ROWS)
        {
            share = new Profile.Share("(" + (shares.size() - row) + " others)",
                shares.subList(row, shares.size()).stream().mapToInt(Profile.Share::samples).sum());
        }
        else
        {
            share = shares.get(row);
        }
        return isShare ? share(profile, share) : "`" + share.what() + "`";
    }

    private static String share(final Profile profile, final Profile.Share share)
    {
        return percent(profile.percent(share));
    }

    private static String percent(final double percent)
    {
        return Markdown.fixed(percent, 0) + " %";
    }
}
