package io.ibex.transport.config;

import java.util.Arrays;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Looks up an enum constant by the name a config gives it, ignoring case.
 */
final class ConfigNames
{
    private ConfigNames()
    {
    }

    /**
     * @param values the constants.
     * @param text   the name in the config.
     * @param nameOf a constant's config name.
     * @param <E>    the enum.
     * @return the constant whose config name equals {@code text}, ignoring case.
     * @throws IllegalArgumentException naming the value and the accepted names.
     */
    static <E extends Enum<E>> E parse(final E[] values, final String text, final Function<E, String> nameOf)
    {
        for (final E value : values)
        {
            if (nameOf.apply(value).equalsIgnoreCase(text))
            {
                return value;
            }
        }
        throw new IllegalArgumentException("\"" + text + "\" is not one of " + list(values, nameOf));
    }

    /**
     * @return the config names, comma-separated, for messages and docs.
     */
    static <E extends Enum<E>> String list(final E[] values, final Function<E, String> nameOf)
    {
        return Arrays.stream(values).map(nameOf).collect(Collectors.joining(", "));
    }
}
