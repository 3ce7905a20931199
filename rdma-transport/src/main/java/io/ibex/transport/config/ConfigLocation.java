package io.ibex.transport.config;

import java.util.Objects;

/**
 * Where a config value came from: a source (a file name, or what built the value, such as a builder method), a
 * line and a column. Lines and columns count from 1; a column counts characters, a tab is one.
 *
 * @param source the file as it was named, or what built the value.
 * @param line   the line, from 1; 0 when the source has no lines (a builder).
 * @param column the column, from 1; 0 when the source has no lines.
 */
public record ConfigLocation(String source, int line, int column)
{
    /**
     * Checks the fields.
     *
     * @param source the file as it was named, or what built the value.
     * @param line   the line, from 1; 0 when the source has no lines (a builder).
     * @param column the column, from 1; 0 when the source has no lines.
     */
    public ConfigLocation
    {
        Objects.requireNonNull(source, "source");
    }

    /**
     * @param source what built the value, e.g. {@code "ChannelConfig.builder().in(...).vectorize"}.
     * @return a location without line and column.
     */
    public static ConfigLocation of(final String source)
    {
        return new ConfigLocation(source, 0, 0);
    }

    /** @return {@code "file:line:column"}, or only the source when it has no lines. */
    @Override
    public String toString()
    {
        return line == 0 ? source : source + ':' + line + ':' + column;
    }
}
