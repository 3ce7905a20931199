package io.ibex.transport.config.internal;

import io.ibex.transport.config.ConfigLocation;

/**
 * A value of a config tree, read from either syntax (libconfig or JSON): a group of named settings, a list, or a
 * scalar. Every value knows where it was written. Two values are equal when their contents are, wherever they were
 * written, so the same config in both syntaxes reads to equal trees.
 */
public sealed interface ConfigValue permits ConfigGroup, ConfigList, ConfigScalar
{
    /** @return where the value starts. */
    ConfigLocation location();

    /** @return what kind of value this is, for messages: "group", "list", "string", "integer", "float", "boolean". */
    String kind();
}
