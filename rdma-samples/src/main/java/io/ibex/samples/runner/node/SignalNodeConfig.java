package io.ibex.samples.runner.node;

import io.ibex.transport.config.ConfigException;
import io.ibex.transport.config.internal.ConfigGroup;
import io.ibex.transport.config.internal.ConfigList;
import io.ibex.transport.config.internal.ConfigScalar;
import io.ibex.transport.config.internal.ConfigValue;
import io.ibex.transport.config.internal.GroupBinder;
import io.ibex.transport.sample.Sample;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The settings of a {@code signal} node, bound from its config group with the keys and defaults of VILLASnode's
 * {@code signal} node-type; every key is checked, and unknown ones are rejected.
 *
 * @param name          the node's name.
 * @param signals       one per value, in sample order.
 * @param rate          steps per second.
 * @param limit         the step counter at which the node ends; 0 or less: never.
 * @param realtime      whether steps are paced at the rate (else produced as fast as they are read).
 * @param monitorMissed whether steps passed over by a late read are counted.
 * @param inHooks       {@code in.hooks} (or {@code hooks}) as written, or null.
 * @param outHooks      {@code out.hooks} as written, or null.
 */
record SignalNodeConfig(String name, List<GeneratedSignal> signals, double rate, long limit, boolean realtime,
    boolean monitorMissed, ConfigValue inHooks, ConfigValue outHooks)
{
    /** The node type's name in a config. */
    static final String TYPE = "signal";
    /** VILLAS's default rate: 10 steps per second. */
    static final double DEFAULT_RATE = 10;
    /** VILLAS's default limit: none. */
    static final long DEFAULT_LIMIT = -1;

    /** @return these settings with no limit. */
    SignalNodeConfig withoutLimit()
    {
        return new SignalNodeConfig(name, signals, rate, DEFAULT_LIMIT, realtime, monitorMissed, inHooks, outHooks);
    }

    /**
     * @param name     the node's name.
     * @param settings its group.
     * @return the settings, checked.
     * @throws ConfigException naming the key, its value and its location.
     */
    static SignalNodeConfig bind(final String name, final ConfigGroup settings)
    {
        final GroupBinder node = GroupBinder.of(settings);
        final String type = node.string("type");
        if (type != null && !type.equals(TYPE))
        {
            throw node.error("type", "type = " + ConfigScalar.quote(type) + ": not a signal node");
        }
        final int values = values(node);
        final Waveform[] waveforms = waveforms(name, node, values);
        final double[] frequency = perValue(node, "frequency", values, GeneratedSignal.DEFAULT_FREQUENCY);
        final double[] amplitude = perValue(node, "amplitude", values, GeneratedSignal.DEFAULT_AMPLITUDE);
        final double[] stddev = perValue(node, "stddev", values, GeneratedSignal.DEFAULT_STDDEV);
        final double[] offset = perValue(node, "offset", values, GeneratedSignal.DEFAULT_OFFSET);
        final double[] pulseWidth = perValue(node, "pulse_width", values, GeneratedSignal.DEFAULT_PULSE_WIDTH);
        final double[] pulseLow = perValue(node, "pulse_low", values, GeneratedSignal.DEFAULT_PULSE_LOW);
        final double[] pulseHigh = perValue(node, "pulse_high", values, GeneratedSignal.DEFAULT_PULSE_HIGH);
        final double[] phase = perValue(node, "phase", values, GeneratedSignal.DEFAULT_PHASE);
        checkRampPeriods(node, waveforms, frequency);
        final List<GeneratedSignal> signals = new ArrayList<>(values);
        for (int i = 0; i < values; i++)
        {
            signals.add(new GeneratedSignal(waveforms[i], frequency[i], amplitude[i], stddev[i], offset[i],
                pulseWidth[i], pulseLow[i], pulseHigh[i], phase[i]));
        }
        final double rate = rate(node);
        final Long limit = node.integer("limit");
        final Boolean realtime = node.bool("realtime");
        final Boolean monitorMissed = node.bool("monitor_missed");
        final GroupBinder in = node.group("in");
        final GroupBinder out = node.group("out");
        rejectSignalList(node);
        rejectSignalList(in);
        final ConfigValue inHooks = inHooks(node, in);
        final ConfigValue outHooks = out.value("hooks");
        node.finish();
        return new SignalNodeConfig(name, List.copyOf(signals), rate, limit == null ? DEFAULT_LIMIT : limit,
            realtime == null || realtime, monitorMissed == null || monitorMissed, inHooks, outHooks);
    }

    private static int values(final GroupBinder node)
    {
        final Integer values = node.int32("values");
        if (values == null)
        {
            return 1;
        }
        if (values < 1 || values > Sample.MAX_CAPACITY)
        {
            throw node.error("values", "values = " + values + ": a signal node makes 1.." + Sample.MAX_CAPACITY +
                " values a sample");
        }
        return values;
    }

    /**
     * {@code signal}: one type for every value ({@code mixed}: value i gets type i mod 7), or a list of one type
     * per value.
     */
    private static Waveform[] waveforms(final String name, final GroupBinder node, final int values)
    {
        final ConfigValue signal = node.value("signal");
        final Waveform[] waveforms = new Waveform[values];
        if (signal == null)
        {
            throw new ConfigException(node.location(), "signal node '" + name + "' has no signal: give one of " +
                Waveform.names() + ", or a list of one per value");
        }
        if (signal instanceof ConfigList list)
        {
            if (list.size() != values)
            {
                throw node.error("signal", "signal lists " + list.size() + " types but " +
                    valuesAsWritten(node, values) + ": give one type per value");
            }
            for (int i = 0; i < values; i++)
            {
                waveforms[i] = listedWaveform(list.get(i), "signal[" + i + "]");
            }
        }
        else if (signal instanceof ConfigScalar scalar && scalar.value() instanceof String text)
        {
            for (int i = 0; i < values; i++)
            {
                waveforms[i] = text.equals(Waveform.MIXED) ? Waveform.mixed(i) : waveform(scalar, "signal", text);
            }
        }
        else
        {
            throw node.error("signal", "signal must be a signal type or a list of them, not " + found(signal));
        }
        return waveforms;
    }

    private static Waveform listedWaveform(final ConfigValue element, final String path)
    {
        if (!(element instanceof ConfigScalar scalar && scalar.value() instanceof String text))
        {
            throw new ConfigException(element.location(), path + " must be a signal type, not " + found(element));
        }
        if (text.equals(Waveform.MIXED))
        {
            throw new ConfigException(element.location(), path + " = \"mixed\": mixed gives every value of a " +
                "sample its type, so it stands alone (signal = \"mixed\"), not in a list");
        }
        return waveform(scalar, path, text);
    }

    private static Waveform waveform(final ConfigScalar scalar, final String path, final String text)
    {
        try
        {
            return Waveform.fromConfigName(text);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ConfigException(scalar.location(), path + " = " + scalar + ": " + ex.getMessage());
        }
    }

    /**
     * A parameter VILLAS gives every value: a number for all, or a list of one number per value.
     */
    private static double[] perValue(final GroupBinder node, final String key, final int values,
        final double defaultValue)
    {
        final ConfigValue value = node.value(key);
        final double[] numbers = new double[values];
        if (value == null)
        {
            Arrays.fill(numbers, defaultValue);
        }
        else if (value instanceof ConfigList list)
        {
            if (list.size() != values)
            {
                throw node.error(key, key + " lists " + list.size() + " numbers but " + valuesAsWritten(node, values) +
                    ": give one number for all values, or one per value");
            }
            for (int i = 0; i < values; i++)
            {
                if (!(list.get(i) instanceof ConfigScalar scalar && scalar.value() instanceof Number number))
                {
                    throw new ConfigException(list.get(i).location(),
                        key + "[" + i + "] must be a number, not " + found(list.get(i)));
                }
                numbers[i] = number.doubleValue();
            }
        }
        else if (value instanceof ConfigScalar scalar && scalar.value() instanceof Number number)
        {
            Arrays.fill(numbers, number.doubleValue());
        }
        else
        {
            throw node.error(key, key + " must be a number or a list of one number per value, not " + found(value));
        }
        return numbers;
    }

    private static double rate(final GroupBinder node)
    {
        final Double rate = node.number("rate");
        if (rate == null)
        {
            return DEFAULT_RATE;
        }
        if (!(rate > 0 && rate <= StepPacer.MAX_RATE))
        {
            throw node.error("rate", "rate = " + rate + ": steps per second must be above 0 and at most " +
                (long)StepPacer.MAX_RATE + " (a step of at least a nanosecond)");
        }
        return rate;
    }

    /**
     * VILLAS refuses signal definitions on a node that makes its own ({@code signals} at the node level is short for
     * {@code in.signals}).
     */
    private static void rejectSignalList(final GroupBinder group)
    {
        if (group.setting("signals") != null)
        {
            throw group.error("signals", group.path("signals") + ": a signal node makes its own signals (a float " +
                "per value, named after its type); set values and signal instead");
        }
    }

    /**
     * {@code hooks} at the node level is short for {@code in.hooks}: a signal node only reads.
     */
    private static ConfigValue inHooks(final GroupBinder node, final GroupBinder in)
    {
        final ConfigValue shorthand = node.value("hooks");
        final ConfigValue full = in.value("hooks");
        if (shorthand != null && full != null)
        {
            throw new ConfigException(full.location(), "in.hooks and hooks (at " + shorthand.location() +
                ") both give the hooks of a signal node, which only reads: give only one");
        }
        return full != null ? full : shorthand;
    }

    /**
     * A ramp takes {@code frequency} as its period: 0 would make it NaN (t mod 0).
     */
    private static void checkRampPeriods(final GroupBinder node, final Waveform[] waveforms, final double[] frequency)
    {
        for (int i = 0; i < waveforms.length; i++)
        {
            if (waveforms[i] == Waveform.RAMP && frequency[i] == 0)
            {
                final ConfigValue written = node.value("frequency");
                final boolean listed = written instanceof ConfigList;
                throw new ConfigException(listed ? ((ConfigList)written).get(i).location() : written.location(),
                    (listed ? "frequency[" + i + "]" : "frequency") + " = 0 for a ramp (signal " + i + "): VILLAS " +
                    "takes a ramp's frequency as its period in seconds, and a period of 0 makes every value NaN");
            }
        }
    }

    /** @return how the message names the value count: as written, or as the default. */
    private static String valuesAsWritten(final GroupBinder node, final int values)
    {
        return node.setting("values") == null ? "values = 1 (the default)" : "values = " + values;
    }

    private static String found(final ConfigValue value)
    {
        return value instanceof ConfigScalar ? value.kind() + " " + value : "a " + value.kind();
    }
}
