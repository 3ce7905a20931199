package io.ibex.samples.runner.format;

import java.nio.charset.StandardCharsets;

/**
 * Reads the fields of one line of ASCII text in place: numbers as C's strtoul, strtol and strtod read them (without
 * their leniency: no leading blanks inside a field, no overflow clamping, no hexadecimal), and errors that name the
 * file, line and column.
 */
final class LineCursor
{
    private static final int TOKEN_PREVIEW = 40;
    private static final byte[] INFINITY = "infinity".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] INF = "inf".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NAN = "nan".getBytes(StandardCharsets.US_ASCII);
    private static final long NEGATIVE_NAN = 0xfff8_0000_0000_0000L;

    private final String source;
    private byte[] bytes;
    private int lineStart;
    private int position;
    private int end;
    private long line;

    /**
     * @param source the file as it was named, for errors.
     */
    LineCursor(final String source)
    {
        this.source = source;
    }

    /** Points the cursor at a line, {@code bytes[from, to)} without its delimiter. */
    void reset(final byte[] bytes, final int from, final int to, final long line)
    {
        this.bytes = bytes;
        this.lineStart = from;
        this.position = from;
        this.end = to;
        this.line = line;
    }

    /** @return where the cursor is. */
    int position()
    {
        return position;
    }

    /** @return whether the whole line is read. */
    boolean atEnd()
    {
        return position >= end;
    }

    /** @return the byte at the cursor, or -1 at the end. */
    int peek()
    {
        return position < end ? bytes[position] : -1;
    }

    /** Moves back to an earlier position of the line. */
    void rewindTo(final int earlier)
    {
        position = earlier;
    }

    /** Moves past one byte. */
    void skip()
    {
        position++;
    }

    /** @return whether the byte at the cursor is {@code c}, moving past it if so. */
    boolean accept(final char c)
    {
        if (peek() == c)
        {
            position++;
            return true;
        }
        return false;
    }

    /** @return how many spaces, tabs and carriage returns it moved past. */
    int skipBlanks()
    {
        final int from = position;
        while (position < end && isBlank(bytes[position]))
        {
            position++;
        }
        return position - from;
    }

    /** @return the line's text from {@code from} up to the next blank, shortened if long, for a message. */
    String token(final int from)
    {
        int to = from;
        while (to < end && !isBlank(bytes[to]))
        {
            to++;
        }
        final String text = new String(bytes, from, Math.min(to - from, TOKEN_PREVIEW), StandardCharsets.US_ASCII);
        return to - from > TOKEN_PREVIEW ? text + "..." : text;
    }

    /** @return the line's text from {@code from} up to {@code to}. */
    String text(final int from, final int to)
    {
        return new String(bytes, from, to - from, StandardCharsets.UTF_8);
    }

    /**
     * @param at      a position in the line.
     * @param problem what is wrong there.
     * @return an exception naming the file, line and column.
     */
    SampleFileException error(final int at, final String problem)
    {
        return new SampleFileException(source, line, at - lineStart + 1, problem);
    }

    /**
     * Reads digits as an unsigned 64-bit number.
     *
     * @param what names the field, for errors.
     * @return the number's 64 bits.
     * @throws SampleFileException if there is no digit or the number exceeds 2^64 - 1.
     */
    long unsigned(final String what)
    {
        final int from = position;
        long value = 0;
        while (position < end && isDigit(bytes[position]))
        {
            final int digit = bytes[position] - '0';
            if (Long.compareUnsigned(value, Long.divideUnsigned(-1L - digit, 10)) > 0)
            {
                throw error(from, what + " " + digits(from) + " exceeds 2^64 - 1");
            }
            value = value * 10 + digit;
            position++;
        }
        if (position == from)
        {
            throw error(from, "expected " + what + " (digits), found " + found(from));
        }
        return value;
    }

    /**
     * Reads an optionally signed decimal integer.
     *
     * @param what names the field, for errors.
     * @return the number.
     * @throws SampleFileException if there is none or it does not fit 64 bits.
     */
    long signed(final String what)
    {
        final int from = position;
        final boolean negative = accept('-');
        if (!negative)
        {
            accept('+');
        }
        final int digits = position;
        long value = 0;
        while (position < end && isDigit(bytes[position]))
        {
            final int digit = bytes[position] - '0';
            if (value < (Long.MIN_VALUE + digit) / 10)
            {
                throw error(from, what + " " + digits(from) + " does not fit 64 bits");
            }
            value = value * 10 - digit;
            position++;
        }
        if (position == digits)
        {
            position = from;
            throw error(from, what + ": " + found(from) + " is not an integer");
        }
        if (!negative && value == Long.MIN_VALUE)
        {
            throw error(from, what + " " + digits(from) + " does not fit 64 bits");
        }
        return negative ? value : -value;
    }

    /**
     * Reads a decimal floating-point number as strtod does: an optional sign, then digits with an optional point
     * and exponent, or {@code inf}, {@code infinity}, {@code nan} in any case.
     *
     * @param what names the field, for errors.
     * @return the number, rounded to the nearest double as strtod rounds.
     * @throws SampleFileException if there is none.
     */
    double decimal(final String what)
    {
        final int from = position;
        final boolean negative = accept('-');
        if (!negative)
        {
            accept('+');
        }
        if (acceptWord(INFINITY) || acceptWord(INF))
        {
            return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        if (acceptWord(NAN))
        {
            return negative ? Double.longBitsToDouble(NEGATIVE_NAN) : Double.NaN;
        }
        final int mantissaDigits = skipDigits() + (accept('.') ? skipDigits() : 0);
        if (mantissaDigits == 0)
        {
            position = from;
            throw error(from, what + ": " + found(from) + " is not a number");
        }
        final int exponent = position;
        if (accept('e') || accept('E'))
        {
            if (!accept('+'))
            {
                accept('-');
            }
            if (skipDigits() == 0)
            {
                position = exponent;
            }
        }
        return Double.parseDouble(new String(bytes, from, position - from, StandardCharsets.US_ASCII));
    }

    /** @return what is at {@code from}: the text up to the next blank, quoted, a blank, or the end of the line. */
    String found(final int from)
    {
        if (from >= end)
        {
            return "the end of the line";
        }
        return switch (bytes[from])
        {
            case '\t' -> "a tab";
            case ' ' -> "a space";
            case '\r' -> "a carriage return";
            default -> "'" + token(from) + "'";
        };
    }

    /** @return the sign and digits from {@code from}, for a message about a number too large. */
    private String digits(final int from)
    {
        int to = from + 1;
        while (to < end && isDigit(bytes[to]))
        {
            to++;
        }
        return text(from, to);
    }

    private int skipDigits()
    {
        final int from = position;
        while (position < end && isDigit(bytes[position]))
        {
            position++;
        }
        return position - from;
    }

    private boolean acceptWord(final byte[] word)
    {
        if (end - position < word.length)
        {
            return false;
        }
        for (int i = 0; i < word.length; i++)
        {
            if ((bytes[position + i] | 0x20) != word[i])
            {
                return false;
            }
        }
        position += word.length;
        return true;
    }

    private static boolean isDigit(final byte b)
    {
        return b >= '0' && b <= '9';
    }

    /** @return whether a byte separates fields: a space, a tab, or the carriage return of a CRLF line. */
    static boolean isBlank(final byte b)
    {
        return b == ' ' || b == '\t' || b == '\r';
    }
}
