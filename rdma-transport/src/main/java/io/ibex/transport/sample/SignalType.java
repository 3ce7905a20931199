package io.ibex.transport.sample;

/**
 * The type of a signal, as VILLASnode's: every value takes one 8-byte slot on the wire, whatever its type.
 */
public enum SignalType
{
    /** IEEE 754 double. */
    FLOAT("float", 'f'),
    /** Signed 64-bit integer. */
    INTEGER("integer", 'i'),
    /** 0 or 1 in a 64-bit slot. */
    BOOLEAN("boolean", 'b'),
    /** Two IEEE 754 floats: real part in the lower 4 bytes, imaginary part in the upper 4 (C's complex float). */
    COMPLEX("complex", 'c');

    private final String configName;
    private final char formatChar;

    SignalType(final String configName, final char formatChar)
    {
        this.configName = configName;
        this.formatChar = formatChar;
    }

    /** @return the name in a VILLAS signal list ({@code type = "float"}). */
    public String configName()
    {
        return configName;
    }

    /** @return the letter in a VILLAS format string ({@code "12f3i"}). */
    public char formatChar()
    {
        return formatChar;
    }

    /**
     * @param name a type as a VILLAS signal list names it (case-insensitive).
     * @return the type.
     * @throws IllegalArgumentException naming the value and the accepted ones.
     */
    public static SignalType fromConfigName(final String name)
    {
        for (final SignalType type : values())
        {
            if (type.configName.equalsIgnoreCase(name))
            {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown signal type '" + name + "' (float, integer, boolean, complex)");
    }

    /**
     * @param c a letter of a VILLAS format string.
     * @return the type, or null if the letter names none.
     */
    static SignalType fromFormatChar(final char c)
    {
        for (final SignalType type : values())
        {
            if (type.formatChar == c)
            {
                return type;
            }
        }
        return null;
    }
}
