package io.ibex.transport.sample;

/**
 * Conversions between typed signal values and the 8 bytes of their slot, as the C node-type stores them.
 */
public final class SignalValues
{
    private SignalValues()
    {
    }

    /**
     * @param value a VILLAS float (a double).
     * @return the slot bits of a float value.
     */
    public static long ofFloat(final double value)
    {
        return Double.doubleToRawLongBits(value);
    }

    /**
     * @param value the value.
     * @return the slot bits of a boolean value.
     */
    public static long ofBoolean(final boolean value)
    {
        return value ? 1 : 0;
    }

    /**
     * @param real the real part.
     * @param imag the imaginary part.
     * @return the slot bits of a complex value: real part in the lower 4 bytes, imaginary in the upper.
     */
    public static long ofComplex(final float real, final float imag)
    {
        return (Float.floatToRawIntBits(real) & 0xffff_ffffL) | ((long)Float.floatToRawIntBits(imag) << 32);
    }

    /**
     * @param bits slot bits.
     * @return the float value of slot bits.
     */
    public static double toFloat(final long bits)
    {
        return Double.longBitsToDouble(bits);
    }

    /**
     * @param bits slot bits.
     * @return the boolean value of slot bits (any non-zero is true, as in C).
     */
    public static boolean toBoolean(final long bits)
    {
        return bits != 0;
    }

    /**
     * @param bits slot bits of a complex value.
     * @return the real part of complex slot bits.
     */
    public static float real(final long bits)
    {
        return Float.intBitsToFloat((int)bits);
    }

    /**
     * @param bits slot bits of a complex value.
     * @return the imaginary part of complex slot bits.
     */
    public static float imag(final long bits)
    {
        return Float.intBitsToFloat((int)(bits >>> 32));
    }

    /**
     * @param type  the signal type.
     * @param value a number as a config gives it (for COMPLEX: the real part, imaginary 0).
     * @return its slot bits.
     */
    public static long ofNumber(final SignalType type, final double value)
    {
        return switch (type)
        {
            case FLOAT -> ofFloat(value);
            case INTEGER -> (long)value;
            case BOOLEAN -> ofBoolean(value != 0);
            case COMPLEX -> ofComplex((float)value, 0);
        };
    }
}
