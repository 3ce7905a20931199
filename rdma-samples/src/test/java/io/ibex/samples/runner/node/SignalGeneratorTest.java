package io.ibex.samples.runner.node;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each waveform at chosen times, against the values VILLAS's formulas give there (worked out by hand below).
 */
class SignalGeneratorTest
{
    private static final double EXACT = 1e-12;
    private static final double RATE = 10;

    @Test
    void sineIsOffsetPlusAmplitudeTimesTheSineOfTheAnglePlusPhase()
    {
        final GeneratedSignal sine = signal(Waveform.SINE, 1, 2, 1, 0);
        assertEquals(1, value(sine, 0, 0), EXACT);
        assertEquals(3, value(sine, 0.25, 0), EXACT);
        assertEquals(1, value(sine, 0.5, 0), EXACT);
        assertEquals(-1, value(sine, 0.75, 0), EXACT);
        assertEquals(3, value(signal(Waveform.SINE, 1, 2, 1, Math.PI / 2), 0, 0), EXACT, "phase in radians");
        assertEquals(3, value(signal(Waveform.SINE, 3, 2, 1, 0), 1.0 / 12, 0), EXACT, "3 Hz: a quarter at 1/12 s");
    }

    @Test
    void squareIsLowInTheFirstHalfOfEachPeriodAndHighInTheSecond()
    {
        final GeneratedSignal square = signal(Waveform.SQUARE, 1, 2, 1, 0);
        assertEquals(-1, value(square, 0, 0), EXACT);
        assertEquals(-1, value(square, 0.49, 0), EXACT);
        assertEquals(3, value(square, 0.5, 0), EXACT, "fmod(t f, 1) < .5 is low, so the middle is high");
        assertEquals(3, value(square, 0.99, 0), EXACT);
        assertEquals(-1, value(square, 1.2, 0), EXACT);
        assertEquals(3, value(signal(Waveform.SQUARE, 1, 2, 1, Math.PI), 0, 0), EXACT, "phase pi: half a period");
        assertEquals(3, value(signal(Waveform.SQUARE, 2, 2, 1, 0), 0.25, 0), EXACT, "2 Hz: the middle at 1/4 s");
    }

    @Test
    void triangleFallsFromTheTopAtThePeriodStartToTheBottomAtItsMiddle()
    {
        final GeneratedSignal triangle = signal(Waveform.TRIANGLE, 1, 2, 1, 0);
        assertEquals(3, value(triangle, 0, 0), EXACT);
        assertEquals(1, value(triangle, 0.25, 0), EXACT);
        assertEquals(-1, value(triangle, 0.5, 0), EXACT);
        assertEquals(1, value(triangle, 0.75, 0), EXACT);
        assertEquals(3, value(triangle, 1, 0), EXACT);
        assertEquals(2, value(triangle, 0.125, 0), EXACT);
        assertEquals(1, value(signal(Waveform.TRIANGLE, 1, 2, 1, Math.PI / 2), 0, 0), EXACT, "a quarter period");
    }

    @Test
    void rampTakesFrequencyAsItsPeriodInSeconds()
    {
        final GeneratedSignal ramp = signal(Waveform.RAMP, 2, 3, 1, 0);
        assertEquals(1, value(ramp, 0, 0), EXACT);
        assertEquals(2.5, value(ramp, 0.5, 0), EXACT);
        assertEquals(2.5, value(ramp, 2.5, 0), EXACT, "t mod 2 starts again at 2 s");
        assertEquals(1 + 3 * 1.75, value(ramp, 5.75, 0), EXACT);
    }

    @Test
    void counterIsOffsetPlusAmplitudeTimesTheStepCounterWhateverTheTime()
    {
        final GeneratedSignal counter = signal(Waveform.COUNTER, 1, 0.5, 1, 0);
        assertEquals(1, value(counter, 3.7, 0), EXACT);
        assertEquals(4.5, value(counter, 0, 7), EXACT);
        assertEquals(1 + 0.5 * 100_000, value(counter, 0.1, 100_000), EXACT);
    }

    @Test
    void constantIsOffsetPlusAmplitude()
    {
        final GeneratedSignal constant = signal(Waveform.CONSTANT, 1, 2, 1, 0);
        assertEquals(3, value(constant, 0, 0), EXACT);
        assertEquals(3, value(constant, 123.456, 789), EXACT);
    }

    @Test
    void pulseIsHighWhileThePositionInThePeriodIsAtMostPulseWidthOverRate()
    {
        // rate 10, pulse_width 1: high for position <= 0.1 of a 1 Hz period; high 5, low -5, offset 1.
        final GeneratedSignal pulse = new GeneratedSignal(Waveform.PULSE, 1, 1, 0.2, 1, 1, -5, 5, 0);
        assertEquals(6, value(pulse, 0, 0), EXACT);
        assertEquals(6, value(pulse, 0.1, 0), EXACT, "the bound itself is inside");
        assertEquals(-4, value(pulse, 0.15, 0), EXACT);
        assertEquals(-4, value(pulse, 0.95, 0), EXACT);
        assertEquals(6, value(pulse, 1.05, 0), EXACT, "the next period");
        final GeneratedSignal wide = new GeneratedSignal(Waveform.PULSE, 1, 1, 0.2, 1, 3, -5, 5, 0);
        assertEquals(6, value(wide, 0.25, 0), EXACT, "pulse_width 3 at rate 10: up to 0.3");
        final GeneratedSignal early = new GeneratedSignal(Waveform.PULSE, 1, 1, 0.2, 1, 1, -5, 5, -Math.PI / 2);
        assertEquals(6, value(early, 0.2, 0), EXACT, "fmod(0.2 - 0.25, 1) = -0.05: abs makes it inside");
        assertEquals(-4, value(early, 0.1, 0), EXACT, "fmod(0.1 - 0.25, 1) = -0.15");
    }

    @Test
    void mixedCyclesThroughSevenWaveformsInVillasOrder()
    {
        final List<Waveform> order = List.of(Waveform.RANDOM, Waveform.SINE, Waveform.SQUARE, Waveform.TRIANGLE,
            Waveform.RAMP, Waveform.COUNTER, Waveform.CONSTANT);
        for (int i = 0; i < 21; i++)
        {
            assertEquals(order.get(i % 7), Waveform.mixed(i), "value " + i);
        }
    }

    @Test
    void randomIsAWalkFromTheOffsetWithNormalIncrementsOfTheGivenStddev()
    {
        final int steps = 100_000;
        final double stddev = 0.5;
        final SignalGenerator generator = generator(new GeneratedSignal(Waveform.RANDOM, 1, 1, stddev, 10, 1, 0, 1,
            0), 42);
        double last = 10;
        double sum = 0;
        double sumOfSquares = 0;
        for (int i = 0; i < steps; i++)
        {
            final double value = generator.value(0, i / RATE, i);
            final double increment = value - last;
            sum += increment;
            sumOfSquares += increment * increment;
            last = value;
        }
        final double mean = sum / steps;
        final double measuredStddev = Math.sqrt(sumOfSquares / steps - mean * mean);
        assertEquals(0, mean, 4 * stddev / Math.sqrt(steps), "mean increment");
        assertEquals(stddev, measuredStddev, 0.02 * stddev, "stddev of the increments");
    }

    @Test
    void restartPutsTheWalkBackAtItsOffset()
    {
        final GeneratedSignal random = new GeneratedSignal(Waveform.RANDOM, 1, 1, 0.5, 10, 1, 0, 1, 0);
        final SignalGenerator restarted = generator(random, 7);
        final SignalGenerator fresh = generator(random, 7);
        restarted.value(0, 0, 0);
        restarted.restart();
        final double afterRestart = restarted.value(0, 0, 0);

        final double first = fresh.value(0, 0, 0);
        final double second = fresh.value(0, 0, 0);
        assertEquals(10 + (second - first), afterRestart, EXACT, "the second increment, from the offset");
        assertTrue(first != 10, "a walk moves");
    }

    private static GeneratedSignal signal(final Waveform waveform, final double frequency, final double amplitude,
        final double offset, final double phase)
    {
        return new GeneratedSignal(waveform, frequency, amplitude, 0.2, offset, 1, 0, 1, phase);
    }

    private static double value(final GeneratedSignal signal, final double time, final long counter)
    {
        return generator(signal, 1).value(0, time, counter);
    }

    private static SignalGenerator generator(final GeneratedSignal signal, final long seed)
    {
        return new SignalGenerator(List.of(signal), RATE, new SplittableRandom(seed));
    }
}
