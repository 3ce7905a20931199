package io.ibex.samples.runner.node;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * What a value of the signal generator follows, in VILLASnode's order: {@code mixed} gives value {@code i} the
 * waveform {@code i mod 7} of this order (random, sine, square, triangle, ramp, counter, constant); pulse comes
 * after them and is never mixed in.
 */
enum Waveform
{
    /** A random walk from the offset: each step adds a normally distributed increment (mean 0, stddev). */
    RANDOM("random"),
    /** offset + amplitude sin(2 pi frequency t + phase). */
    SINE("sine"),
    /** offset - amplitude in the first half of each period, offset + amplitude in the second. */
    SQUARE("square"),
    /** offset + amplitude at the start of each period, offset - amplitude at its middle, linear between. */
    TRIANGLE("triangle"),
    /** offset + amplitude (t mod frequency): VILLAS takes {@code frequency} as the ramp's period in seconds. */
    RAMP("ramp"),
    /** offset + amplitude times the step counter. */
    COUNTER("counter"),
    /** offset + amplitude. */
    CONSTANT("constant"),
    /** offset + pulse_high while the position in the period is at most pulse_width / rate, else offset + pulse_low. */
    PULSE("pulse");

    /** The config name that asks for the {@link #mixed} waveforms. */
    static final String MIXED = "mixed";

    private static final Waveform[] VALUES = values();
    /** How many waveforms {@code mixed} cycles through: all but pulse. */
    private static final int MIXED_CYCLE = 7;

    private final String configName;

    Waveform(final String configName)
    {
        this.configName = configName;
    }

    /** @return the name a config gives it ({@code signal = "sine"}), which also names the signal it makes. */
    String configName()
    {
        return configName;
    }

    /**
     * @param index a value's index in the sample.
     * @return the waveform {@code signal = "mixed"} gives that value.
     */
    static Waveform mixed(final int index)
    {
        return VALUES[index % MIXED_CYCLE];
    }

    /**
     * @param name a waveform as a config names it (exactly, as VILLAS compares it); not {@value #MIXED}.
     * @return the waveform.
     * @throws IllegalArgumentException naming the accepted names.
     */
    static Waveform fromConfigName(final String name)
    {
        for (final Waveform waveform : VALUES)
        {
            if (waveform.configName.equals(name))
            {
                return waveform;
            }
        }
        throw new IllegalArgumentException("unknown signal type; one of " + names());
    }

    /** @return every accepted name, {@value #MIXED} included, for messages. */
    static String names()
    {
        return Arrays.stream(VALUES).map(Waveform::configName).collect(Collectors.joining(", ")) + ", " + MIXED;
    }
}
