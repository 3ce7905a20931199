package io.ibex.transport.stats;

import org.HdrHistogram.Histogram;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The values of one metric. One thread, the metric's owner, records; {@link ChannelStats} takes snapshots and
 * resets under its lock, from any thread.
 * <p>
 * The owner records into the active one of two histograms, inside the writer critical section of a
 * {@code WriterReaderPhaser} it shares with the other metrics it records (one enter and exit per sample, not per
 * metric: the pattern of HdrHistogram's {@code SingleWriterRecorder}, over several histograms). A snapshot swaps
 * the histograms under the phaser's reader lock, flips the phase and folds the now inactive one into a cumulative
 * histogram. The owner also keeps the exact sum and the clamp counts with ordered writes, and tracks the mean and
 * standard deviation of the first {@code warmUp} values (as VILLAS's histogram does to place its buckets). A
 * reset cannot zero the owner's fields, so it moves baselines instead, and starts a new generation: the owner
 * restarts its warm-up when it sees one ({@link #restart(long)}).
 */
final class MetricRecorder
{
    /** The largest value a histogram holds (a day in nanoseconds); larger ones are clamped to it and counted. */
    static final long HIGHEST_VALUE = TimeUnit.DAYS.toNanos(1);
    /** Histogram resolution: values within 1% (2 significant digits), about 42 KiB a histogram. */
    static final int SIGNIFICANT_DIGITS = 2;

    private static final int SUM = 0;
    private static final int CLAMPED_NEGATIVE = 1;
    private static final int CLAMPED_OVER_RANGE = 2;
    private static final int SCALAR_COUNT = 3;

    private final Metric metric;
    private final int warmUp;
    private volatile Histogram active = newHistogram();
    private final AtomicLongArray scalars = new AtomicLongArray(SCALAR_COUNT);

    // Owner thread only.
    private long generation;
    private long warmUpCount;
    private double warmUpMean;
    private double warmUpSquares;

    // Written by the owner once a warm-up completes, before warmedUpGeneration; read by snapshots after it.
    private double warmedUpMean;
    private double warmedUpStddev;
    private volatile long warmedUpGeneration = -1;

    // Snapshot side, under ChannelStats' lock.
    private final Histogram cumulative = newHistogram();
    private final long[] baselines = new long[SCALAR_COUNT];
    private Histogram inactive = newHistogram();

    MetricRecorder(final Metric metric, final int warmUp)
    {
        this.metric = metric;
        this.warmUp = warmUp;
    }

    /**
     * Owner thread, inside its phaser's writer critical section: records a value, clamped to
     * 0..{@link #HIGHEST_VALUE}.
     *
     * @param value in the metric's unit.
     */
    void record(final long value)
    {
        final long clamped;
        if (value < 0)
        {
            add(CLAMPED_NEGATIVE, 1);
            clamped = 0;
        }
        else if (value > HIGHEST_VALUE)
        {
            add(CLAMPED_OVER_RANGE, 1);
            clamped = HIGHEST_VALUE;
        }
        else
        {
            clamped = value;
        }
        add(SUM, clamped);
        if (warmUpCount < warmUp)
        {
            warmUp(clamped);
        }
        active.recordValue(clamped);
    }

    /**
     * Owner thread: starts the warm-up again, after a reset.
     *
     * @param generation the reset's generation.
     */
    void restart(final long generation)
    {
        this.generation = generation;
        warmUpCount = 0;
        warmUpMean = 0;
        warmUpSquares = 0;
    }

    /**
     * Under ChannelStats' lock and the owner's phaser's reader lock, before the phase flips: gives the owner the
     * empty histogram and keeps the one it recorded into.
     */
    void swap()
    {
        final Histogram recorded = active;
        active = inactive;
        inactive = recorded;
    }

    /**
     * Under ChannelStats' lock and the owner's phaser's reader lock, after the phase flipped (the owner no longer
     * records into the histogram {@link #swap()} took): adds it to the cumulative one and empties it.
     */
    void foldSwapped()
    {
        cumulative.add(inactive);
        inactive.reset();
    }

    /**
     * Under ChannelStats' lock, after {@link #foldSwapped()}: everything recorded so far.
     *
     * @param generation the current generation: a warm-up counts only if it completed in it.
     * @return an immutable snapshot.
     */
    MetricSnapshot snapshot(final long generation)
    {
        final boolean warmedUp = warmedUpGeneration == generation;
        return new MetricSnapshot(
            metric, cumulative, scalar(SUM), scalar(CLAMPED_NEGATIVE), scalar(CLAMPED_OVER_RANGE), warmUp,
            warmedUp ? warmedUpMean : Double.NaN, warmedUp ? warmedUpStddev : Double.NaN);
    }

    /** Under ChannelStats' lock, after {@link #foldSwapped()}: forgets every value recorded so far. */
    void reset()
    {
        cumulative.reset();
        for (int i = 0; i < SCALAR_COUNT; i++)
        {
            baselines[i] = scalars.get(i);
        }
    }

    private static Histogram newHistogram()
    {
        return new Histogram(1, HIGHEST_VALUE, SIGNIFICANT_DIGITS);
    }

    private long scalar(final int index)
    {
        return scalars.get(index) - baselines[index];
    }

    private void add(final int index, final long delta)
    {
        scalars.setRelease(index, scalars.getPlain(index) + delta);
    }

    // Welford's running mean and sum of squared deviations, as VILLAS's Hist::put.
    private void warmUp(final long value)
    {
        warmUpCount++;
        final double deviation = value - warmUpMean;
        warmUpMean += deviation / warmUpCount;
        warmUpSquares += deviation * (value - warmUpMean);
        if (warmUpCount == warmUp)
        {
            warmedUpMean = warmUpMean;
            warmedUpStddev = Math.sqrt(warmUpSquares / (warmUpCount - 1));
            warmedUpGeneration = generation;
        }
    }
}
