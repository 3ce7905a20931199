package io.ibex.samples.runner.format;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FixedDecimalTest
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[FixedDecimal.MAX_LENGTH + 1]);

    @Test
    void writesWhatGlibcPrintfWrote() throws IOException
    {
        final String fixture;
        try (InputStream in = FixedDecimalTest.class.getResourceAsStream("glibc-printf.txt"))
        {
            fixture = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
        int checked = 0;
        for (final String line : fixture.lines().toList())
        {
            if (line.startsWith("#"))
            {
                continue;
            }
            final String[] fields = line.split(" ");
            final double value = Double.longBitsToDouble(Long.parseUnsignedLong(fields[0], 16));
            assertEquals(fields[2], format(Integer.parseInt(fields[1]), value, false), line);
            checked++;
        }
        assertEquals(600, checked);
    }

    @Test
    void roundsTheExactBinaryValueTiesToEvenAsGlibc()
    {
        // Outputs of glibc's printf for these calls.
        assertEquals("0", format(0, 0.5, false));
        assertEquals("2", format(0, 1.5, false));
        assertEquals("2", format(0, 2.5, false));
        assertEquals("0.2", format(1, 0.25, false));
        assertEquals("0.3", format(1, 0.35, false));
        assertEquals("-0.00", format(2, -0.001, false));
        assertEquals("0.10000000000000001", format(17, 0.1, false));
        assertEquals("0.00000000000000002", format(17, 1.5e-17, false));
        assertEquals("0.00000000000000001", format(17, 5e-18, false));
        assertEquals("0.00000000000000000", format(17, 1e-20, false));
        assertEquals("123456789.12345679104328156", format(17, 123456789.123456789, false));
        assertEquals("1.00000000000000000", format(17, 0.999999999999999999, false));
    }

    @Test
    void writesSignsNanAndInfinityAsC()
    {
        assertEquals("-0.00000000000000000", format(17, -0.0, false));
        assertEquals("+0.00000000000000000", format(17, 0.0, true));
        assertEquals("nan", format(17, Double.NaN, false));
        assertEquals("-nan", format(17, Double.longBitsToDouble(0xfff8_0000_0000_0000L), false));
        assertEquals("+nan", format(17, Double.NaN, true));
        assertEquals("inf", format(17, Double.POSITIVE_INFINITY, false));
        assertEquals("+inf", format(17, Double.POSITIVE_INFINITY, true));
        assertEquals("-inf", format(17, Double.NEGATIVE_INFINITY, true));
    }

    @Test
    void writesEveryDigitOfTheLargestAndSmallestValues()
    {
        assertEquals(exact(17, Double.MAX_VALUE), format(17, Double.MAX_VALUE, false));
        assertEquals(FixedDecimal.MAX_LENGTH, format(17, -Double.MAX_VALUE, false).length());
        assertEquals("-0.00000000000000000", format(17, -Double.MIN_VALUE, false));
        assertEquals("9007199254740994.0", format(1, 9007199254740994.0, false));
        assertEquals("9223372036854774784.0", format(1, Math.nextDown(0x1p63), false));
        assertEquals("9223372036854775808.0", format(1, 0x1p63, false));
    }

    @Test
    void agreesWithTheExactDecimalExpansionForRandomValuesAndEveryPrecision()
    {
        final Random random = new Random(42);
        for (int i = 0; i < 200_000; i++)
        {
            final double value = switch (i % 4)
            {
                case 0 -> Double.longBitsToDouble(random.nextLong());
                case 1 -> random.nextGaussian() * Math.pow(10, random.nextInt(40) - 20);
                case 2 -> (random.nextInt(1 << 20) + 0.5) / (1L << random.nextInt(40));
                default -> random.nextInt(2000) / 16.0 - 62.5;
            };
            if (Double.isFinite(value))
            {
                final int precision = random.nextInt(FixedDecimal.MAX_PRECISION + 1);
                assertEquals(exact(precision, value), format(precision, value, false), () -> "value " + value);
            }
        }
    }

    @Test
    void writesEveryEightDigitGroupAsAsciiDigitsFirstDigitFirst()
    {
        // every value below 10^8, against a decimal counter kept as eight ASCII bytes (the first in the lowest byte)
        final byte[] digits = "00000000".getBytes(StandardCharsets.US_ASCII);
        for (int value = 0; value < 100_000_000; value++)
        {
            long expected = 0;
            for (int i = 7; i >= 0; i--)
            {
                expected = expected << 8 | digits[i];
            }
            if (FixedDecimal.eightDigits(value) != expected)
            {
                assertEquals(new String(digits, StandardCharsets.US_ASCII), ascii(FixedDecimal.eightDigits(value)),
                    "the digits of " + value);
            }
            int i = 7;
            while (i >= 0 && digits[i] == '9')
            {
                digits[i--] = '0';
            }
            if (i >= 0)
            {
                digits[i]++;
            }
        }
    }

    private static String ascii(final long eightDigits)
    {
        final byte[] bytes = new byte[8];
        for (int i = 0; i < 8; i++)
        {
            bytes[i] = (byte)(eightDigits >>> (8 * i));
        }
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    @Test
    void refusesAPrecisionItCannotRoundExactly()
    {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new FixedDecimal(18)).getMessage()
            .contains("precision 18 outside 0..17"));
        assertThrows(IllegalArgumentException.class, () -> new FixedDecimal(-1));
    }

    private String format(final int precision, final double value, final boolean plusSign)
    {
        final int length = new FixedDecimal(precision).put(buffer, 1, value, plusSign);
        return buffer.getStringWithoutLengthAscii(1, length);
    }

    /** The decimal expansion of the binary value, rounded half to even, with the sign of negative zero. */
    private static String exact(final int precision, final double value)
    {
        final BigDecimal rounded = new BigDecimal(Math.abs(value)).setScale(precision, RoundingMode.HALF_EVEN);
        return (Double.doubleToRawLongBits(value) < 0 ? "-" : "") + rounded.toPlainString();
    }
}
