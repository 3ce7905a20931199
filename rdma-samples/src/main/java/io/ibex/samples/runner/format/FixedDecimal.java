package io.ibex.samples.runner.format;

import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Writes doubles in ASCII as glibc's {@code printf("%.*f")} does, which is how VILLASnode writes float values: the
 * exact binary value rounded to a fixed number of decimals (ties to even), every integer digit, no exponent;
 * {@code nan}, {@code inf} and {@code -0.0...} keep their sign. Nothing is allocated: the digits of the fraction
 * come from one 128-bit product, those of integers above 2<sup>63</sup> from a scratch big number the instance
 * keeps, so an instance serves one thread.
 */
public final class FixedDecimal
{
    /** The most decimals: 5<sup>17</sup> times a 53-bit fraction still fits 128 bits. */
    public static final int MAX_PRECISION = 17;
    /** The most bytes one value takes: a sign, 309 integer digits, the point and the decimals. */
    public static final int MAX_LENGTH = 1 + 309 + 1 + MAX_PRECISION;

    private static final int MANTISSA_BITS = 52;
    private static final long MANTISSA_MASK = (1L << MANTISSA_BITS) - 1;
    private static final int EXPONENT_MASK = 0x7ff;
    /** The unbiased exponent of the mantissa's lowest bit is the biased exponent minus this. */
    private static final int EXPONENT_BIAS = 1075;
    /** Below this shift of the 53-bit mantissa, the integer part fits a long. */
    private static final int LONG_SHIFT_LIMIT = 10;
    private static final long CHUNK = 1_000_000_000L;
    private static final int CHUNK_DIGITS = 9;
    /** Decimals are written in groups of {@link #GROUP_DIGITS} digits ({@link #eightDigits}), below this. */
    private static final int GROUP = 100_000_000;
    private static final int GROUP_DIGITS = 8;

    private final int precision;
    private final long scale;
    private final long fivePower;
    /** A 32-bit-word big number, least significant word first, for integers of 2^63 and above (up to 2^1024). */
    private final int[] words = new int[34];
    /** Its base-10^9 digit groups, least significant first. */
    private final int[] chunks = new int[36];

    /**
     * @param precision the decimals, 0..{@value #MAX_PRECISION}; 0 writes no point, as C.
     * @throws IllegalArgumentException if outside that range.
     */
    public FixedDecimal(final int precision)
    {
        if (precision < 0 || precision > MAX_PRECISION)
        {
            throw new IllegalArgumentException("precision " + precision + " outside 0.." + MAX_PRECISION);
        }
        this.precision = precision;
        long ten = 1;
        long five = 1;
        for (int i = 0; i < precision; i++)
        {
            ten *= 10;
            five *= 5;
        }
        this.scale = ten;
        this.fivePower = five;
    }

    /** @return the decimals it writes. */
    public int precision()
    {
        return precision;
    }

    /**
     * Writes a value as {@code %.Nf} does ({@code %+.Nf} with {@code plusSign}).
     *
     * @param buffer   where to write; {@value #MAX_LENGTH} bytes from {@code index} are enough for any value.
     * @param index    where the value starts.
     * @param value    the value.
     * @param plusSign whether a value without a minus sign gets a plus sign.
     * @return the bytes written.
     */
    public int put(final MutableDirectBuffer buffer, final int index, final double value, final boolean plusSign)
    {
        final long bits = Double.doubleToRawLongBits(value);
        int i = index;
        if (bits < 0)
        {
            buffer.putByte(i++, (byte)'-');
        }
        else if (plusSign)
        {
            buffer.putByte(i++, (byte)'+');
        }
        final int biased = (int)(bits >>> MANTISSA_BITS) & EXPONENT_MASK;
        final long fraction = bits & MANTISSA_MASK;
        if (biased == EXPONENT_MASK)
        {
            return i - index + buffer.putStringWithoutLengthAscii(i, fraction == 0 ? "inf" : "nan");
        }
        final long mantissa = biased == 0 ? fraction : fraction | 1L << MANTISSA_BITS;
        final int exponent = biased == 0 ? 1 - EXPONENT_BIAS : biased - EXPONENT_BIAS;
        if (exponent > LONG_SHIFT_LIMIT)
        {
            i += putBigInteger(buffer, i, mantissa, exponent);
            return i - index + putDecimals(buffer, i, 0);
        }
        if (exponent >= 0)
        {
            i += buffer.putNaturalLongAscii(i, mantissa << exponent);
            return i - index + putDecimals(buffer, i, 0);
        }
        return i - index + putFixed(buffer, i, mantissa, -exponent);
    }

    /**
     * The value is mantissa / 2^shift: an integer part that fits a long and a fraction to round to the decimals.
     */
    private int putFixed(final MutableDirectBuffer buffer, final int index, final long mantissa, final int shift)
    {
        long integer = shift >= Long.SIZE ? 0 : mantissa >>> shift;
        final long fraction = shift >= Long.SIZE ? mantissa : mantissa & (-1L >>> (Long.SIZE - shift));
        long decimals = roundedDecimals(fraction, shift, integer);
        if (decimals == scale)
        {
            integer++;
            decimals = 0;
        }
        final int length = buffer.putNaturalLongAscii(index, integer);
        return length + putDecimals(buffer, index + length, decimals);
    }

    /**
     * @return fraction / 2^shift * 10^precision rounded to an integer, ties to even (to the parity of the integer
     *         part when there are no decimals): at most 10^precision, which the caller carries.
     */
    private long roundedDecimals(final long fraction, final int shift, final long integer)
    {
        // fraction * 10^p / 2^shift = fraction * 5^p / 2^(shift - p): one product below 2^93, then a shift.
        final int rest = shift - precision;
        if (rest <= 0)
        {
            return fraction * fivePower << -rest;
        }
        if (rest >= 2 * Long.SIZE - 1)
        {
            return 0;
        }
        final long high = Math.multiplyHigh(fraction, fivePower);
        final long low = fraction * fivePower;
        final long quotient;
        final int comparison;
        if (rest < Long.SIZE)
        {
            quotient = (low >>> rest) | (high << (Long.SIZE - rest));
            comparison = Long.compareUnsigned(low & (-1L >>> (Long.SIZE - rest)), 1L << (rest - 1));
        }
        else
        {
            final int highRest = rest - Long.SIZE;
            quotient = high >>> highRest;
            final long remainderHigh = highRest == 0 ? 0 : high & (-1L >>> (Long.SIZE - highRest));
            final long halfHigh = highRest == 0 ? 0 : 1L << (highRest - 1);
            final long halfLow = highRest == 0 ? Long.MIN_VALUE : 0;
            final int highComparison = Long.compareUnsigned(remainderHigh, halfHigh);
            comparison = highComparison != 0 ? highComparison : Long.compareUnsigned(low, halfLow);
        }
        final long parity = precision == 0 ? integer : quotient;
        return comparison > 0 || (comparison == 0 && (parity & 1) != 0) ? quotient + 1 : quotient;
    }

    /**
     * Writes mantissa * 2^exponent, an integer of 2^63 or more, in decimal: the mantissa shifted into 32-bit words,
     * then divided by 10^9 until nothing is left.
     */
    private int putBigInteger(final MutableDirectBuffer buffer, final int index, final long mantissa,
        final int exponent)
    {
        Arrays.fill(words, 0);
        final int wordIndex = exponent / Integer.SIZE;
        final int bitShift = exponent % Integer.SIZE;
        final long lowBits = mantissa << bitShift;
        words[wordIndex] = (int)lowBits;
        words[wordIndex + 1] = (int)(lowBits >>> Integer.SIZE);
        words[wordIndex + 2] = bitShift == 0 ? 0 : (int)(mantissa >>> (Long.SIZE - bitShift));
        int length = wordIndex + 3;
        int chunkCount = 0;
        while (length > 0)
        {
            long remainder = 0;
            for (int k = length - 1; k >= 0; k--)
            {
                final long current = remainder << Integer.SIZE | (words[k] & 0xffff_ffffL);
                words[k] = (int)(current / CHUNK);
                remainder = current % CHUNK;
            }
            chunks[chunkCount++] = (int)remainder;
            while (length > 0 && words[length - 1] == 0)
            {
                length--;
            }
        }
        int i = index + buffer.putNaturalIntAscii(index, chunks[chunkCount - 1]);
        for (int k = chunkCount - 2; k >= 0; k--)
        {
            buffer.putNaturalPaddedIntAscii(i, CHUNK_DIGITS, chunks[k]);
            i += CHUNK_DIGITS;
        }
        return i - index;
    }

    /**
     * Writes the point and the decimals, zero-padded; nothing when the precision is 0. From the end: eight digits at
     * a time ({@link #eightDigits}), then one at a time: a file node writes 17 decimals of every value, and a
     * division per digit would be a large part of its cost.
     */
    private int putDecimals(final MutableDirectBuffer buffer, final int index, final long decimals)
    {
        if (precision == 0)
        {
            return 0;
        }
        buffer.putByte(index, (byte)'.');
        long rest = decimals;
        int end = index + 1 + precision;
        for (int left = precision; left >= GROUP_DIGITS; left -= GROUP_DIGITS)
        {
            end -= GROUP_DIGITS;
            buffer.putLong(end, eightDigits((int)(rest % GROUP)), ByteOrder.LITTLE_ENDIAN);
            rest /= GROUP;
        }
        for (int i = end - 1; i > index; i--)
        {
            buffer.putByte(i, (byte)('0' + rest % 10));
            rest /= 10;
        }
        return precision + 1;
    }

    /**
     * The eight ASCII digits of {@code value} (below 10<sup>8</sup>, zero-padded), the first in the lowest byte: the
     * value split into two halves of four digits, each of those into two of two, each of those into two digits, all
     * halves at once in lanes of one long; each quotient is a multiplication and a shift, exact in that range
     * (q = d * 10486 >> 20 is d / 100 for d below 10<sup>4</sup>, q = e * 103 >> 10 is e / 10 for e below 100).
     */
    static long eightDigits(final int value)
    {
        final long fours = value / 10_000 | (long)(value % 10_000) << 32;
        final long hundreds = (fours * 10_486 >>> 20) & 0x0000_007F_0000_007FL;
        final long twos = hundreds | (fours - hundreds * 100) << 16;
        final long tens = (twos * 103 >>> 10) & 0x000F_000F_000F_000FL;
        return (tens | (twos - tens * 10) << 8) + 0x3030_3030_3030_3030L;
    }
}
