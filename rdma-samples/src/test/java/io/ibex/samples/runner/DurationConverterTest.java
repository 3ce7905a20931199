package io.ibex.samples.runner;

import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Durations as the command line takes them.
 */
class DurationConverterTest
{
    private final DurationConverter converter = new DurationConverter();

    @Test
    void unitsAndFractions()
    {
        assertEquals(Duration.ofSeconds(10), converter.convert("10s"));
        assertEquals(Duration.ofSeconds(10), converter.convert("10"));
        assertEquals(Duration.ofMillis(500), converter.convert("500ms"));
        assertEquals(Duration.ofMillis(1500), converter.convert("1.5s"));
        assertEquals(Duration.ofMinutes(2), converter.convert("2m"));
        assertEquals(Duration.ofHours(1), converter.convert("1h"));
        assertEquals(Duration.ZERO, converter.convert("0"));
    }

    @Test
    void anythingElseIsRefusedByValue()
    {
        for (final String text : new String[] {"-1s", "ten", "5 days", "", "1e3"})
        {
            final TypeConversionException error = assertThrows(TypeConversionException.class,
                () -> converter.convert(text));
            assertEquals("'" + text + "' is not a duration: write a number with ms, s, m or h, such as 10s or 500ms " +
                "(a number alone is seconds)", error.getMessage());
        }
    }
}
