package io.ibex.benchmarks.report;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The generated section of docs/benchmarks.md: how to regenerate it, the machine and the settings, the
 * performance targets, then the host's and the guest's tables and plots. Every figure comes from the run's files.
 */
public final class ComparisonSection
{
    /** The command that runs the comparison and writes this section. */
    public static final String COMMAND = "benchmarks/compare.sh";

    private ComparisonSection()
    {
    }

    /**
     * Writes the section's plots and returns its Markdown.
     *
     * @param data      the run.
     * @param plots     the directory to write the plots into.
     * @param plotsLink the plots' directory as the Markdown links it, relative to the document.
     * @return the section's Markdown, without the markers.
     */
    public static String write(final ComparisonData data, final Path plots, final String plotsLink)
    {
        final StringBuilder markdown = new StringBuilder();
        markdown.append("## Side by side with the peers (generated)\n\n")
            .append("This section, down to the end marker, is written by `").append(COMMAND)
            .append("` from the files of one run (its output directory, `target/compare`): every figure in it ")
            .append("comes from them, and a figure the run did not measure says \"").append(Markdown.NOT_RUN)
            .append("\". Regenerate it with\n\n```sh\n")
            .append(COMMAND).append("            # full run: every size, forks, warm-up, several iterations\n")
            .append(COMMAND).append(" --quick    # fewer sizes, short iterations: under 10 minutes here\n")
            .append(COMMAND).append(" --host-only --quick    # without the Soft-RoCE guest\n")
            .append(COMMAND).append(" --guest-only   # the guest only, beside the host's files of the last run\n```\n\n")
            .append("A round trip on the host is JMH's, in µs; perftest and `ibex *-lat` print half a round ")
            .append("trip, as perftest does. Samples of 1, 8 and 64 values are 32, 88 and 536 bytes on the wire, ")
            .append("and are set against the peers' messages of those sizes. Idle strategies: nio and ibex ")
            .append("busy-poll on both sides (the JMH thread and the echo thread); any other strategy (Aeron's) is ")
            .append("a benchmark parameter and shows in the case's name. Aeron runs its media driver in `INVOKER` ")
            .append("mode, on the measuring thread: on two cores a driver thread of its own is starved by two ")
            .append("busy-spinning clients (UDP round trips of 4-8 ms, in scheduler ticks), and clients that yield ")
            .append("to it pay a `sched_yield` on every empty poll. Its ping-pong clients busy-spin (a yield per ")
            .append("empty poll cost IPC 0.89 against 0.25 µs), its stream's clients yield (a sender that spins ")
            .append("against back-pressure takes the core its receiver needs: 5.2 against 32 million 64-byte ")
            .append("messages/s over IPC).\n");
        machine(markdown, data);
        final List<Target> targets = Targets.of(data);
        targets(markdown, targets, data);
        ProfileReport.write(markdown, targets, data.profiles());
        HostReport.write(markdown, data.host(), plots, plotsLink);
        if (data.guestRan())
        {
            GuestReport.write(markdown, data, plots, plotsLink);
        }
        else
        {
            markdown.append("\n### Soft-RoCE guest\n\n").append(Markdown.NOT_RUN)
                .append(" (a host-only run): perftest, `ibex` and the sample channel on disni.\n");
        }
        return markdown.toString();
    }

    private static void machine(final StringBuilder markdown, final ComparisonData data)
    {
        markdown.append("\n### Machine and settings\n\nHost (`").append(ComparisonData.HOST_MACHINE).append("`):");
        lines(markdown, data.hostMachine());
        markdown.append("\nJMH as the results record it:\n\n");
        jmhSettings(markdown, "host", data.host());
        jmhSettings(markdown, "guest", data.guest());
        markdown.append("\nGuest (`").append(ComparisonData.GUEST).append("/machine.txt`):");
        lines(markdown, data.guestMachine());
    }

    private static void lines(final StringBuilder markdown, final List<String> lines)
    {
        if (lines.isEmpty())
        {
            markdown.append(' ').append(Markdown.NOT_RUN).append(".\n");
            return;
        }
        markdown.append("\n\n```\n");
        lines.forEach(line -> markdown.append(line).append('\n'));
        markdown.append("```\n");
    }

    /** One line per distinct setting: which benchmarks ran with it. */
    private static void jmhSettings(final StringBuilder markdown, final String where, final List<JmhResult> results)
    {
        if (results.isEmpty())
        {
            markdown.append("- ").append(where).append(": ").append(Markdown.NOT_RUN).append('\n');
            return;
        }
        final Map<String, TreeSet<String>> benchmarks = new LinkedHashMap<>();
        for (final JmhResult result : results)
        {
            final JmhResult.RunSettings run = result.run();
            final String settings = "JDK " + run.jdkVersion() + " (" + run.vm() + "), forks " + run.forks() +
                ", warm-up " + run.warmup() + ", measurement " + run.measurement() + ", JVM arguments " +
                (run.jvmArgs().isEmpty() ? "none" : "`" + String.join(" ", run.jvmArgs()) + "`");
            benchmarks.computeIfAbsent(settings, key -> new TreeSet<>()).add(result.className() + " " +
                result.mode());
        }
        benchmarks.forEach((settings, names) -> markdown.append("- ").append(where).append(", ")
            .append(String.join(", ", names)).append(": ").append(settings).append('\n'));
    }

    private static void targets(final StringBuilder markdown, final List<Target> targets, final ComparisonData data)
    {
        markdown.append("\n### Against the issue's targets\n\n");
        final Markdown.Table table = new Markdown.Table("target", "ibex", "peer", "ratio", "limit", "result",
            "top frame of a missed target's profile");
        for (final Target target : targets)
        {
            table.row(target.name(), figure(target.ibex(), target.unit()), figure(target.peer(), target.unit()),
                Markdown.ratio(target.ratio()), target.limitText(), target.verdict(),
                ProfileReport.dominant(target, data.profiles()));
        }
        markdown.append(table);
    }

    private static String figure(final double value, final String unit)
    {
        return Double.isNaN(value) ? Markdown.NOT_RUN : (unit.startsWith("M") ? Markdown.fixed(value, 4) :
            Markdown.micros(value)) + " " + unit;
    }
}
