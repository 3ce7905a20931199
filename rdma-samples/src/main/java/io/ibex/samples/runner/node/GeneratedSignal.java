package io.ibex.samples.runner.node;

import java.util.Objects;

/**
 * One value of the signal generator: its waveform and the parameters VILLASnode gives every value (each a number
 * for all values, or a list with one per value, in the config).
 *
 * @param waveform   what the value follows.
 * @param frequency  periods per second (sine, square, triangle, pulse); a ramp's period in seconds.
 * @param amplitude  the swing around the offset (sine, square, triangle, constant), the slope of a ramp, the
 *                   increment per step of a counter.
 * @param stddev     the standard deviation of a random walk's increments.
 * @param offset     added to every waveform; where a random walk starts.
 * @param pulseWidth a pulse's width: it is high while the position in the period is at most pulseWidth / rate.
 * @param pulseLow   a pulse's value outside the pulse (before the offset is added).
 * @param pulseHigh  a pulse's value inside it (before the offset is added).
 * @param phase      radians added to the angle (sine), or phase / 2 pi of a period (square, triangle, pulse).
 */
record GeneratedSignal(Waveform waveform, double frequency, double amplitude, double stddev, double offset,
    double pulseWidth, double pulseLow, double pulseHigh, double phase)
{
    /** VILLAS's default frequency: 1 Hz. */
    static final double DEFAULT_FREQUENCY = 1;
    /** VILLAS's default amplitude. */
    static final double DEFAULT_AMPLITUDE = 1;
    /** VILLAS's default standard deviation of a random walk's steps. */
    static final double DEFAULT_STDDEV = 0.2;
    /** VILLAS's default offset. */
    static final double DEFAULT_OFFSET = 0;
    /** VILLAS's default pulse width. */
    static final double DEFAULT_PULSE_WIDTH = 1;
    /** VILLAS's default value outside a pulse. */
    static final double DEFAULT_PULSE_LOW = 0;
    /** VILLAS's default value inside a pulse. */
    static final double DEFAULT_PULSE_HIGH = 1;
    /** VILLAS's default phase. */
    static final double DEFAULT_PHASE = 0;

    /**
     * Checks the waveform.
     */
    GeneratedSignal
    {
        Objects.requireNonNull(waveform, "waveform");
    }
}
