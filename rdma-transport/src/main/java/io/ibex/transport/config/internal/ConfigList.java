package io.ibex.transport.config.internal;

import io.ibex.transport.config.ConfigLocation;

import java.util.List;
import java.util.Objects;

/**
 * An ordered list of values: a libconfig list {@code ( )} or array {@code [ ]}, or a JSON array.
 */
public final class ConfigList implements ConfigValue
{
    private final List<ConfigValue> elements;
    private final ConfigLocation location;

    /**
     * @param elements the values, in order.
     * @param location where the list opens.
     */
    public ConfigList(final List<ConfigValue> elements, final ConfigLocation location)
    {
        this.elements = List.copyOf(elements);
        this.location = Objects.requireNonNull(location, "location");
    }

    /** @return the values, in order (unmodifiable). */
    public List<ConfigValue> elements()
    {
        return elements;
    }

    /** @return how many values. */
    public int size()
    {
        return elements.size();
    }

    /**
     * @param index the element, 0 to {@code size() - 1}.
     * @return the value at {@code index}.
     */
    public ConfigValue get(final int index)
    {
        return elements.get(index);
    }

    @Override
    public ConfigLocation location()
    {
        return location;
    }

    @Override
    public String kind()
    {
        return "list";
    }

    /** @return the list in libconfig syntax. */
    @Override
    public String toString()
    {
        final StringBuilder text = new StringBuilder("( ");
        for (int i = 0; i < elements.size(); i++)
        {
            text.append(i == 0 ? "" : ", ").append(elements.get(i));
        }
        return text.append(" )").toString();
    }

    /** @return whether {@code other} is a list of equal values, wherever it was written. */
    @Override
    public boolean equals(final Object other)
    {
        return other instanceof ConfigList list && elements.equals(list.elements);
    }

    @Override
    public int hashCode()
    {
        return elements.hashCode();
    }
}
