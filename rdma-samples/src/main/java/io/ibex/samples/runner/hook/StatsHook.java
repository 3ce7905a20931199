package io.ibex.samples.runner.hook;

import io.ibex.samples.runner.node.NodeContext;
import io.ibex.transport.config.ConfigLocation;
import io.ibex.transport.config.internal.ConfigScalar;
import io.ibex.transport.config.internal.GroupBinder;
import io.ibex.transport.sample.Sample;
import io.ibex.transport.stats.ChannelStats;
import io.ibex.transport.stats.StatsSnapshot;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * VILLASnode's {@code stats} hook on {@link ChannelStats}: owd, gaps, reordered and skipped of the samples its node
 * reads (or its path moves), and the age of the samples written to its node; at the end the table (format
 * {@code human}) or JSON object (format {@code json}), with buckets when {@code verbose}, to its {@code output}
 * file or into the runner's summary. Options as VILLAS: {@code format}, {@code verbose}, {@code warmup} (500),
 * {@code buckets} (20), {@code output}.
 */
public final class StatsHook implements Hook
{
    /** The hook's type in a config. */
    public static final String TYPE = "stats";

    private final String name;
    private final boolean json;
    private final boolean verbose;
    private final int buckets;
    private final Path output;
    private final ChannelStats stats;
    private Writer writer;
    private String report;

    private StatsHook(final String name, final boolean json, final boolean verbose, final int warmUp,
        final int buckets, final Path output, final NodeContext context)
    {
        this.name = name;
        this.json = json;
        this.verbose = verbose;
        this.buckets = buckets;
        this.output = output;
        this.stats = new ChannelStats(warmUp, context.clock());
    }

    static Hook create(final GroupBinder settings, final String owner, final NodeContext context)
    {
        final String format = settings.string("format");
        if (format != null && !format.equals("human") && !format.equals("json"))
        {
            throw settings.error("format", "format = " + ConfigScalar.quote(format) + ": the stats formats are " +
                "human and json" + (format.equals("matlab") ? " (VILLAS's matlab is not supported)" : ""));
        }
        final Boolean verbose = settings.bool("verbose");
        final Integer warmUp = settings.int32("warmup");
        if (warmUp != null && warmUp < 2)
        {
            throw settings.error("warmup", "warmup = " + warmUp + " must be at least 2 (the mean and standard " +
                "deviation of the warm-up values place the buckets)");
        }
        final Integer buckets = settings.int32("buckets");
        if (buckets != null && buckets < 1)
        {
            throw settings.error("buckets", "buckets = " + buckets + " must be at least 1");
        }
        final String output = settings.string("output");
        final ConfigLocation location = settings.location();
        return new StatsHook(TYPE + " hook of " + owner + " (" + location + ")", "json".equals(format),
            verbose != null && verbose, warmUp == null ? ChannelStats.DEFAULT_WARM_UP : warmUp,
            buckets == null ? StatsSnapshot.DEFAULT_BUCKETS : buckets,
            output == null ? null : context.baseDirectory().resolve(output).toAbsolutePath().normalize(), context);
    }

    @Override
    public String type()
    {
        return TYPE;
    }

    /** Opens the output file, so that an unwritable one fails before any sample moves. */
    @Override
    public void start()
    {
        if (output != null && writer == null)
        {
            try
            {
                writer = Files.newBufferedWriter(output, StandardCharsets.UTF_8);
            }
            catch (final IOException ex)
            {
                throw new HookException(name, "cannot write its output " + output + ": " + ex, ex);
            }
        }
    }

    @Override
    public void onRead(final Sample sample)
    {
        stats.onReceived(sample);
    }

    @Override
    public void onWrite(final Sample sample)
    {
        stats.onSent(sample);
    }

    @Override
    public void stop()
    {
        if (report != null)
        {
            return;
        }
        final StatsSnapshot snapshot = stats.snapshot();
        final String text = json ? snapshot.toJson(verbose, buckets) + System.lineSeparator() :
            snapshot.toText(verbose, buckets);
        if (writer == null)
        {
            report = name + ":" + System.lineSeparator() + text;
            return;
        }
        try (Writer closing = writer)
        {
            closing.write(text);
            report = name + ": written to " + output;
        }
        catch (final IOException ex)
        {
            report = name + ": writing " + output + " failed";
            throw new HookException(name, "cannot write its output " + output + ": " + ex, ex);
        }
    }

    @Override
    public String report()
    {
        return report;
    }
}
