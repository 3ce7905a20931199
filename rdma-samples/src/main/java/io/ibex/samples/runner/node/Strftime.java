package io.ibex.samples.runner.node;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.TextStyle;
import java.time.temporal.IsoFields;
import java.util.Locale;

/**
 * Expands C's strftime(3) conversions as VILLASnode's file node does for its {@code uri}: in UTC (gmtime_r) and the
 * C locale. Every conversion of glibc without flags, widths or the E and O modifiers; anything else is an error
 * rather than text that silently stays in a file name.
 */
final class Strftime
{
    private static final Locale C_LOCALE = Locale.US;

    private Strftime()
    {
    }

    /**
     * @param pattern      text with conversions such as {@code logs/ib_results-%Y%m%d_%H-%M-%S.log}.
     * @param epochSeconds the time, in seconds since 1970-01-01 UTC.
     * @return the pattern with every conversion replaced.
     * @throws IllegalArgumentException naming the conversion and its position if it is not one of strftime's.
     */
    static String format(final String pattern, final long epochSeconds)
    {
        final ZonedDateTime time = Instant.ofEpochSecond(epochSeconds).atZone(ZoneOffset.UTC);
        final StringBuilder text = new StringBuilder(pattern.length() + 16);
        for (int i = 0; i < pattern.length(); i++)
        {
            final char c = pattern.charAt(i);
            if (c != '%')
            {
                text.append(c);
                continue;
            }
            if (++i == pattern.length())
            {
                throw new IllegalArgumentException("'" + pattern + "' ends with a lone '%' (write %% for a %)");
            }
            final String conversion = conversion(pattern.charAt(i), time, epochSeconds);
            if (conversion == null)
            {
                throw new IllegalArgumentException("%" + pattern.charAt(i) + " at character " + i + " of '" + pattern +
                    "' is not a strftime conversion this runner knows (no flags, widths or E/O modifiers; %% for a %)");
            }
            text.append(conversion);
        }
        return text.toString();
    }

    private static String conversion(final char c, final ZonedDateTime t, final long epochSeconds)
    {
        final int weekday = t.getDayOfWeek().getValue() % 7;
        final int yearDay = t.getDayOfYear() - 1;
        return switch (c)
        {
            case 'a' -> t.getDayOfWeek().getDisplayName(TextStyle.SHORT, C_LOCALE);
            case 'A' -> t.getDayOfWeek().getDisplayName(TextStyle.FULL, C_LOCALE);
            case 'b', 'h' -> t.getMonth().getDisplayName(TextStyle.SHORT, C_LOCALE);
            case 'B' -> t.getMonth().getDisplayName(TextStyle.FULL, C_LOCALE);
            case 'c' -> format("%a %b %e %H:%M:%S %Y", epochSeconds);
            case 'C' -> two(Math.floorDiv(t.getYear(), 100));
            case 'd' -> two(t.getDayOfMonth());
            case 'D', 'x' -> format("%m/%d/%y", epochSeconds);
            case 'e' -> spaced(t.getDayOfMonth());
            case 'F' -> format("%Y-%m-%d", epochSeconds);
            case 'g' -> two(Math.floorMod(t.get(IsoFields.WEEK_BASED_YEAR), 100));
            case 'G' -> Integer.toString(t.get(IsoFields.WEEK_BASED_YEAR));
            case 'H' -> two(t.getHour());
            case 'I' -> two(twelveHour(t));
            case 'j' -> String.format(Locale.ROOT, "%03d", yearDay + 1);
            case 'k' -> spaced(t.getHour());
            case 'l' -> spaced(twelveHour(t));
            case 'm' -> two(t.getMonthValue());
            case 'M' -> two(t.getMinute());
            case 'n' -> "\n";
            case 'p' -> t.getHour() < 12 ? "AM" : "PM";
            case 'P' -> t.getHour() < 12 ? "am" : "pm";
            case 'r' -> format("%I:%M:%S %p", epochSeconds);
            case 'R' -> format("%H:%M", epochSeconds);
            case 's' -> Long.toString(epochSeconds);
            case 'S' -> two(t.getSecond());
            case 't' -> "\t";
            case 'T', 'X' -> format("%H:%M:%S", epochSeconds);
            case 'u' -> Integer.toString(t.getDayOfWeek().getValue());
            case 'U' -> two((yearDay + 7 - weekday) / 7);
            case 'V' -> two(t.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR));
            case 'w' -> Integer.toString(weekday);
            case 'W' -> two((yearDay + 7 - (weekday + 6) % 7) / 7);
            case 'y' -> two(Math.floorMod(t.getYear(), 100));
            case 'Y' -> Integer.toString(t.getYear());
            case 'z' -> "+0000";
            case 'Z' -> "GMT";
            case '%' -> "%";
            default -> null;
        };
    }

    private static int twelveHour(final ZonedDateTime t)
    {
        final int hour = t.getHour() % 12;
        return hour == 0 ? 12 : hour;
    }

    private static String two(final int value)
    {
        return value < 10 ? "0" + value : Integer.toString(value);
    }

    private static String spaced(final int value)
    {
        return value < 10 ? " " + value : Integer.toString(value);
    }
}
