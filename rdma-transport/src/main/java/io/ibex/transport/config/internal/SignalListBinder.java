package io.ibex.transport.config.internal;

import io.ibex.transport.config.ConfigException;
import io.ibex.transport.config.ConfigLocation;
import io.ibex.transport.sample.Sample;
import io.ibex.transport.sample.Signal;
import io.ibex.transport.sample.SignalList;
import io.ibex.transport.sample.SignalType;
import io.ibex.transport.sample.SignalValues;

import java.util.ArrayList;
import java.util.List;

/**
 * Binds a node's signals as VILLAS writes them: a list of {@code {name, unit, type, init}} groups, a count of
 * floats, or a format string such as {@code "12f3i"}; {@code signals} at the node level is short for
 * {@code in.signals}. Every node type that takes signals binds them here, so they read alike.
 */
public final class SignalListBinder
{
    private static final String KEY = "signals";

    private SignalListBinder()
    {
    }

    /**
     * @param node the node's binder.
     * @param in   the binder of its {@code in} group.
     * @return the binder whose {@code signals} key holds the node's signals: the node's when the shorthand is
     *         used, else {@code in} (whether or not it has the key).
     * @throws ConfigException if both are set.
     */
    public static GroupBinder holder(final GroupBinder node, final GroupBinder in)
    {
        final ConfigLocation shorthand = node.valueLocation(KEY);
        final ConfigLocation full = in.valueLocation(KEY);
        if (shorthand != null && full != null)
        {
            throw new ConfigException(full, in.path(KEY) + " and " + node.path(KEY) + " (at " + shorthand +
                ") are the same setting: give only one");
        }
        return shorthand != null ? node : in;
    }

    /**
     * @param node the node's binder.
     * @param in   the binder of its {@code in} group.
     * @return the node's signals, or null if neither {@code in.signals} nor {@code signals} is set.
     * @throws ConfigException naming the key, its location and what is wrong.
     */
    public static SignalList bind(final GroupBinder node, final GroupBinder in)
    {
        return signals(holder(node, in), KEY);
    }

    /**
     * @param group the group holding the key.
     * @param name  the key, now known.
     * @return the signals it gives, or null if it is absent.
     * @throws ConfigException naming the key, its location and what is wrong.
     */
    public static SignalList signals(final GroupBinder group, final String name)
    {
        final ConfigValue value = group.value(name);
        if (value == null)
        {
            return null;
        }
        if (value instanceof ConfigList list)
        {
            if (list.size() == 0 || list.size() > Sample.MAX_CAPACITY)
            {
                throw group.error(name, group.path(name) + " has " + list.size() + " signals; a sample carries 1.." +
                    Sample.MAX_CAPACITY);
            }
            final List<Signal> signals = new ArrayList<>();
            for (final GroupBinder signal : group.groups(name))
            {
                signals.add(signal(signal, signals.size()));
            }
            return new SignalList(signals);
        }
        final Object scalar = value instanceof ConfigScalar s ? s.value() : null;
        if (scalar instanceof Long count)
        {
            if (count < 1 || count > Sample.MAX_CAPACITY)
            {
                throw group.error(name, group.path(name) + " = " + count + " is outside 1.." + Sample.MAX_CAPACITY);
            }
            return SignalList.ofCount(count.intValue());
        }
        if (scalar instanceof String)
        {
            return group.parsed(name, SignalList::parseFormat);
        }
        throw group.error(name, group.path(name) + " must be a list of signals, a count or a format string, not " +
            (scalar == null ? "a " + value.kind() : value.kind() + " " + value));
    }

    private static Signal signal(final GroupBinder signal, final int index)
    {
        final String name = signal.string("name");
        final String unit = signal.string("unit");
        final SignalType type = signal.value("type") == null ? SignalType.FLOAT :
            signal.parsed("type", SignalType::fromConfigName);
        return new Signal(name == null ? "signal" + index : name, unit == null ? "" : unit, type, init(signal, type));
    }

    private static long init(final GroupBinder signal, final SignalType type)
    {
        return switch (type)
        {
            case INTEGER ->
            {
                final Long value = signal.integer("init");
                yield value == null ? 0 : value;
            }
            case BOOLEAN ->
            {
                final Boolean value = signal.bool("init");
                yield SignalValues.ofBoolean(value != null && value);
            }
            case FLOAT, COMPLEX ->
            {
                final Double value = signal.number("init");
                yield SignalValues.ofNumber(type, value == null ? 0 : value);
            }
        };
    }
}
