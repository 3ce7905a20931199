package io.ibex.samples.runner;

import java.util.Arrays;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Looks up an enum constant by the name a command-line option gives it, ignoring case.
 */
final class OptionNames
{
    private OptionNames()
    {
    }

    /**
     * @return the constant whose option name equals {@code text}, ignoring case.
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
        throw new IllegalArgumentException("\"" + text + "\" is not one of " +
            Arrays.stream(values).map(nameOf).collect(Collectors.joining(", ")));
    }
}
