package io.ibex.samples.runner.node;

import io.ibex.samples.runner.format.VillasHuman;
import io.ibex.samples.runner.format.VillasHumanReader;
import io.ibex.samples.runner.format.VillasHumanWriter;
import io.ibex.transport.config.ConfigException;
import io.ibex.transport.config.ConfigLocation;
import io.ibex.transport.config.internal.ConfigGroup;
import io.ibex.transport.config.internal.ConfigScalar;
import io.ibex.transport.config.internal.ConfigValue;
import io.ibex.transport.config.internal.GroupBinder;
import io.ibex.transport.config.internal.SignalListBinder;
import io.ibex.transport.sample.SignalList;

import java.util.Locale;

/**
 * The settings of a {@code file} node, as VILLASnode's file node-type parses them (lib/nodes/file.cpp), bound with
 * every key accounted for.
 *
 * @param uri           the file name, with strftime conversions, relative to the runner's base directory.
 * @param uriLocation   where the uri was written, for errors about the file.
 * @param signals       {@code in.signals} (or {@code signals}): the types replayed values are read as; null if
 *                      not given.
 * @param eof           what replay does at the end of the file.
 * @param rate          samples per second of replay, or 0 to replay by the file's timestamps.
 * @param epochMode     how replay maps the file's timestamps to now.
 * @param epochNanos    {@code in.epoch} in nanoseconds.
 * @param skip          samples to skip at the start of the file.
 * @param inBufferSize  bytes read at a time.
 * @param flush         whether every write goes to the file at once.
 * @param outBufferSize bytes gathered before they go to the file.
 * @param inHooks       {@code in.hooks} as written, or null.
 * @param outHooks      {@code out.hooks} as written, or null.
 */
record FileNodeSettings(
    String uri, ConfigLocation uriLocation, SignalList signals, Eof eof, double rate, EpochMode epochMode,
    long epochNanos, int skip, int inBufferSize, boolean flush, int outBufferSize, ConfigValue inHooks,
    ConfigValue outHooks)
{
    /** What replay does at the end of the file: {@code in.eof}. */
    enum Eof
    {
        /** End: the node reads no more ({@code "stop"}, or {@code "exit"} as VILLAS also says). */
        STOP,
        /** Start over from the first sample. */
        REWIND,
        /** Wait for more lines to be appended, looking every 100 ms. */
        WAIT;

        static Eof fromConfigName(final String name)
        {
            return switch (name)
            {
                case "stop", "exit" -> STOP;
                case "rewind" -> REWIND;
                case "wait" -> WAIT;
                default -> throw new IllegalArgumentException("'" + name + "' is not one of stop, exit, rewind, wait");
            };
        }
    }

    /**
     * When replay sends each sample, without {@code in.rate}: at its timestamp plus an offset that depends on the
     * first sample's timestamp (first), the time replay starts (now) and {@code in.epoch}.
     */
    enum EpochMode
    {
        /** offset = now - first + epoch: the first sample goes at now + epoch. */
        DIRECT,
        /** offset = now + epoch: for files whose timestamps start near 0. */
        WAIT,
        /** offset = epoch. */
        RELATIVE,
        /** offset = epoch - first: the first sample goes at the time epoch. */
        ABSOLUTE,
        /** No offset and no waiting: as fast as the path takes them, timestamps as in the file. */
        ORIGINAL;

        static EpochMode fromConfigName(final String name)
        {
            for (final EpochMode mode : values())
            {
                if (mode.name().toLowerCase(Locale.ROOT).equals(name))
                {
                    return mode;
                }
            }
            throw new IllegalArgumentException("'" + name + "' is not one of direct, wait, relative, absolute, " +
                "original");
        }
    }

    /**
     * @param name  the node's name.
     * @param group its settings.
     * @return the settings, every key checked.
     * @throws ConfigException naming the key, its location and what is wrong, or the first unknown key.
     */
    static FileNodeSettings bind(final String name, final ConfigGroup group)
    {
        final GroupBinder node = GroupBinder.of(group);
        final String type = node.string("type");
        if (type != null && !type.equals(FileNode.TYPE))
        {
            throw node.error("type", "type = " + ConfigScalar.quote(type) + ": not a file node");
        }
        final String uri = node.parsed("uri", FileNodeSettings::checkUri);
        if (uri == null)
        {
            throw new ConfigException(group.location(), "file node '" + name + "' needs a uri (the file to write " +
                "or replay)");
        }
        final String format = node.string("format");
        if (format != null && !format.equals(VillasHuman.NAME))
        {
            throw node.error("format", "format = " + ConfigScalar.quote(format) + ": only " + VillasHuman.NAME +
                " is supported");
        }
        final GroupBinder in = node.group("in");
        final GroupBinder out = node.group("out");
        final Eof eof = in.parsed("eof", Eof::fromConfigName);
        final EpochMode epochMode = in.parsed("epoch_mode", EpochMode::fromConfigName);
        final Double epoch = in.number("epoch");
        if (epoch != null && !(Math.abs(epoch) < 1e10))
        {
            throw in.error("epoch", "in.epoch = " + epoch + " is not a number of seconds within 1e10 of 0");
        }
        if (epochMode == EpochMode.ORIGINAL && in.value("rate") != null)
        {
            throw in.error("rate", "in.rate has no effect with in.epoch_mode = \"original\" (no waiting at all; " +
                "VILLAS ignores it): give one of them");
        }
        final Boolean flush = out.bool("flush");
        final FileNodeSettings settings = new FileNodeSettings(uri, node.valueLocation("uri"),
            SignalListBinder.bind(node, in), eof == null ? Eof.STOP : eof, rate(in),
            epochMode == null ? EpochMode.DIRECT : epochMode, epoch == null ? 0 : Math.round(epoch * 1e9),
            atLeastZero(in, "skip", 0), bufferSize(in, VillasHumanReader.MIN_BUFFER_SIZE), flush != null && flush,
            bufferSize(out, VillasHumanWriter.MIN_BUFFER_SIZE), in.value("hooks"), out.value("hooks"));
        node.finish();
        return settings;
    }

    private static String checkUri(final String uri)
    {
        if (uri.isEmpty())
        {
            throw new IllegalArgumentException("the file name is empty");
        }
        Strftime.format(uri, 0);
        return uri;
    }

    private static double rate(final GroupBinder in)
    {
        final Double rate = in.number("rate");
        if (rate != null && !(rate >= 0 && rate <= StepPacer.MAX_RATE))
        {
            throw in.error("rate", in.path("rate") + " = " + rate + " is outside 0.." + StepPacer.MAX_RATE +
                " samples per second (0: by the file's timestamps)");
        }
        return rate == null ? 0 : rate;
    }

    /** {@code buffer_size}: 0 or absent is the default; smaller than the minimum is raised to it. */
    private static int bufferSize(final GroupBinder group, final int minimum)
    {
        final int size = atLeastZero(group, "buffer_size", 0);
        return size == 0 ? VillasHuman.DEFAULT_BUFFER_SIZE : Math.max(size, minimum);
    }

    private static int atLeastZero(final GroupBinder group, final String key, final int absent)
    {
        final Integer value = group.int32(key);
        if (value != null && value < 0)
        {
            throw group.error(key, group.path(key) + " = " + value + " must not be negative");
        }
        return value == null ? absent : value;
    }
}
