package io.ibex.transport.sample;

import java.util.Objects;

/**
 * One signal of a sample: its name, unit, type and initial value. The initial value is kept as the 8 bytes its
 * slot holds ({@link SignalValues}), so a sample is initialised by copying slots.
 *
 * @param name     the signal's name ("" if none).
 * @param unit     its unit ("" if none).
 * @param type     its type.
 * @param initBits its initial value as slot bits.
 */
public record Signal(String name, String unit, SignalType type, long initBits)
{
    /**
     * Checks the fields.
     *
     * @param name     the signal's name ("" if none).
     * @param unit     its unit ("" if none).
     * @param type     its type.
     * @param initBits its initial value as slot bits.
     */
    public Signal
    {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(unit, "unit");
        Objects.requireNonNull(type, "type");
    }

    /**
     * @param name the name.
     * @param type the type.
     * @return a signal without unit whose initial value is zero.
     */
    public static Signal of(final String name, final SignalType type)
    {
        return new Signal(name, "", type, 0);
    }
}
