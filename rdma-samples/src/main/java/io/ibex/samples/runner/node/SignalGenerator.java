package io.ibex.samples.runner.node;

import io.ibex.transport.sample.Sample;

import java.util.List;
import java.util.SplittableRandom;

/**
 * The values of VILLASnode's signal generator, computed as VILLAS computes them: every waveform but random is a
 * function of the time since the start {@code t} (seconds), the step counter and the rate; random is a walk that
 * keeps its last value. Not thread safe; allocates nothing per value.
 */
final class SignalGenerator
{
    private static final double TWO_PI = 2 * Math.PI;

    private final GeneratedSignal[] signals;
    private final double rate;
    private final double[] walks;
    private final SplittableRandom random;
    private double spareGaussian;
    private boolean hasSpareGaussian;

    /**
     * @param signals the values, in sample order.
     * @param rate    steps per second (a pulse's width is measured in steps).
     * @param random  where random walks draw their increments.
     */
    SignalGenerator(final List<GeneratedSignal> signals, final double rate, final SplittableRandom random)
    {
        this.signals = signals.toArray(new GeneratedSignal[0]);
        this.rate = rate;
        this.walks = new double[this.signals.length];
        this.random = random;
        restart();
    }

    /** Puts every random walk back at its offset, as VILLAS does when the node starts. */
    void restart()
    {
        for (int i = 0; i < signals.length; i++)
        {
            walks[i] = signals[i].offset();
        }
    }

    /** @return how many values a sample gets. */
    int size()
    {
        return signals.length;
    }

    /**
     * Sets the length and every value of a sample.
     *
     * @param sample  where the values go; its capacity fits {@link #size()}.
     * @param time    seconds since the start.
     * @param counter the step counter.
     */
    void fill(final Sample sample, final double time, final long counter)
    {
        sample.length(signals.length);
        for (int i = 0; i < signals.length; i++)
        {
            sample.floatValue(i, value(i, time, counter));
        }
    }

    /**
     * @param index   a value's index.
     * @param time    seconds since the start.
     * @param counter the step counter.
     * @return the value; a random walk takes its next step.
     */
    double value(final int index, final double time, final long counter)
    {
        final GeneratedSignal s = signals[index];
        return switch (s.waveform())
        {
            case RANDOM -> walks[index] += gaussian() * s.stddev();
            case SINE -> s.offset() + s.amplitude() * Math.sin(time * s.frequency() * TWO_PI + s.phase());
            case SQUARE -> s.offset() + s.amplitude() * (positionInPeriod(s, time) < 0.5 ? -1 : 1);
            case TRIANGLE -> s.offset() + s.amplitude() * (Math.abs(positionInPeriod(s, time) - 0.5) - 0.25) * 4;
            case RAMP -> s.offset() + s.amplitude() * (time % s.frequency());
            case COUNTER -> s.offset() + s.amplitude() * counter;
            case CONSTANT -> s.offset() + s.amplitude();
            case PULSE -> s.offset() +
                (Math.abs(positionInPeriod(s, time)) <= s.pulseWidth() / rate ? s.pulseHigh() : s.pulseLow());
        };
    }

    /**
     * @return where {@code time} falls in the signal's period, phase included, as C's fmod gives it: in [0, 1) for
     *         a positive argument, in (-1, 0] for a negative one (Java's % on doubles is fmod).
     */
    private static double positionInPeriod(final GeneratedSignal s, final double time)
    {
        return (time * s.frequency() + s.phase() / TWO_PI) % 1;
    }

    /**
     * A standard normal number by the polar Box-Muller method, which makes two at a time, as VILLAS's
     * {@code boxMuller}.
     */
    private double gaussian()
    {
        if (hasSpareGaussian)
        {
            hasSpareGaussian = false;
            return spareGaussian;
        }
        double x;
        double y;
        double squared;
        do
        {
            x = 2 * random.nextDouble() - 1;
            y = 2 * random.nextDouble() - 1;
            squared = x * x + y * y;
        }
        while (squared >= 1 || squared == 0);
        final double scale = Math.sqrt(-2 * Math.log(squared) / squared);
        spareGaussian = y * scale;
        hasSpareGaussian = true;
        return x * scale;
    }
}
