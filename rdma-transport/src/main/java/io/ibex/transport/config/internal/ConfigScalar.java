package io.ibex.transport.config.internal;

import io.ibex.transport.config.ConfigLocation;

import java.util.Objects;

/**
 * A single value: a {@link String}, a {@link Long} (every integer, whatever its size in the file), a
 * {@link Double} or a {@link Boolean}.
 */
public final class ConfigScalar implements ConfigValue
{
    private final Object value;
    private final ConfigLocation location;

    /**
     * @param value    a String, Long, Double or Boolean.
     * @param location where it was written.
     * @throws IllegalArgumentException for any other type.
     */
    public ConfigScalar(final Object value, final ConfigLocation location)
    {
        if (!(value instanceof String || value instanceof Long || value instanceof Double ||
            value instanceof Boolean))
        {
            throw new IllegalArgumentException("a config scalar is a String, Long, Double or Boolean, not " +
                (value == null ? "null" : value.getClass().getName()));
        }
        this.value = value;
        this.location = Objects.requireNonNull(location, "location");
    }

    /** @return the String, Long, Double or Boolean. */
    public Object value()
    {
        return value;
    }

    @Override
    public ConfigLocation location()
    {
        return location;
    }

    @Override
    public String kind()
    {
        if (value instanceof String)
        {
            return "string";
        }
        if (value instanceof Long)
        {
            return "integer";
        }
        return value instanceof Double ? "float" : "boolean";
    }

    /** @return the value as a libconfig file writes it: strings quoted with escapes, the rest as is. */
    @Override
    public String toString()
    {
        return value instanceof String text ? quote(text) : value.toString();
    }

    /**
     * @param text any string.
     * @return it in double quotes, with the escapes libconfig reads for quotes, backslashes and control characters.
     */
    public static String quote(final String text)
    {
        final StringBuilder quoted = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            switch (c)
            {
                case '"', '\\' -> quoted.append('\\').append(c);
                case '\n' -> quoted.append("\\n");
                case '\t' -> quoted.append("\\t");
                case '\r' -> quoted.append("\\r");
                case '\f' -> quoted.append("\\f");
                default -> quoted.append(c < ' ' ? String.format("\\x%02x", (int)c) : String.valueOf(c));
            }
        }
        return quoted.append('"').toString();
    }

    /** @return whether {@code other} is a scalar with an equal value, wherever it was written. */
    @Override
    public boolean equals(final Object other)
    {
        return other instanceof ConfigScalar scalar && value.equals(scalar.value);
    }

    @Override
    public int hashCode()
    {
        return value.hashCode();
    }
}
