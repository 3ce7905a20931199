package io.ibex.samples.runner;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a duration as people write one on a command line: {@code 10s}, {@code 500ms}, {@code 2m}, {@code 1h},
 * {@code 1.5s}; a number alone is seconds. Negative durations are refused.
 */
public final class DurationConverter implements ITypeConverter<Duration>
{
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)\\s*(ms|s|m|h)?");

    /**
     * @param text the option's value.
     * @return the duration, to the nanosecond.
     * @throws TypeConversionException naming the value and the accepted forms.
     */
    @Override
    public Duration convert(final String text)
    {
        final Matcher matcher = DURATION.matcher(text.trim());
        if (!matcher.matches())
        {
            throw new TypeConversionException("'" + text + "' is not a duration: write a number with ms, s, m or " +
                "h, such as 10s or 500ms (a number alone is seconds)");
        }
        final String unit = matcher.group(2) == null ? "s" : matcher.group(2);
        final double nanosPerUnit = switch (unit)
        {
            case "ms" -> 1e6;
            case "m" -> 60e9;
            case "h" -> 3600e9;
            default -> 1e9;
        };
        final double nanos = Double.parseDouble(matcher.group(1)) * nanosPerUnit;
        if (nanos > Long.MAX_VALUE)
        {
            throw new TypeConversionException("'" + text + "' is too long a duration");
        }
        return Duration.ofNanos(Math.round(nanos));
    }
}
