package io.ibex.transport.stats;

import io.ibex.transport.sample.Sample;
import io.ibex.transport.sample.SampleClock;
import org.HdrHistogram.WriterReaderPhaser;
import org.agrona.concurrent.EpochNanoClock;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Statistics of one sample channel: the metrics of VILLASnode's {@code stats} hook ({@link Metric}) in
 * histograms, and event counters ({@link Counter}).
 * <p>
 * Thread contract, as a channel's: one reader thread calls {@link #onReceived}, one writer thread calls
 * {@link #onSent}; each counter has one writer at a time ({@link #add}: a channel adds each under the lock of
 * the path it belongs to). These take no lock, use no atomic read-modify-write and allocate nothing. Any thread
 * may read a counter ({@link #get}), take a {@link #snapshot()} or {@link #reset()}; these take a lock only they
 * use, and the last two may allocate.
 * <p>
 * Each histogram holds 0 to a day in nanoseconds at 1% resolution, about 42 KiB; a metric keeps three, so a
 * channel's stats take about 0.8 MiB.
 */
public final class ChannelStats
{
    /** VILLAS's default number of warm-up values. */
    public static final int DEFAULT_WARM_UP = 500;

    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    // Keeps each counter on its own cache line: the reader and the writer thread update different ones.
    private static final int COUNTER_STRIDE = 8;
    private static final Metric[] METRICS = Metric.values();
    private static final Counter[] COUNTERS = Counter.values();

    private final EpochNanoClock clock;
    private final MetricRecorder[] metrics = new MetricRecorder[METRICS.length];
    private final AtomicLongArray counters = new AtomicLongArray((COUNTERS.length + 1) * COUNTER_STRIDE);
    private final long[] counterBaselines = new long[COUNTERS.length];
    private final Object snapshotLock = new Object();
    // One writer critical section per sample for all the metrics a thread records (see MetricRecorder).
    private final WriterReaderPhaser receiverPhaser = new WriterReaderPhaser();
    private final WriterReaderPhaser senderPhaser = new WriterReaderPhaser();
    private volatile long generation;

    // Reader thread only: what onReceived remembers of the previous sample.
    private long receiverGeneration;
    private int previousFlags;
    private long previousSequence;
    private long previousOriginSeconds;
    private long previousOriginNanos;
    private long previousReceivedSeconds;
    private long previousReceivedNanos;

    // Writer thread only.
    private long senderGeneration;

    /** Stats with {@value #DEFAULT_WARM_UP} warm-up values and an epoch clock for {@link Metric#AGE}. */
    public ChannelStats()
    {
        this(DEFAULT_WARM_UP, new SampleClock());
    }

    /**
     * @param warmUp how many first values of each metric set its bucket range ({@link MetricSnapshot#buckets}),
     *               as VILLAS's {@code warmup} option; at least 2.
     * @param clock  the epoch clock that sets ts.received, read for {@link Metric#AGE}.
     * @throws IllegalArgumentException if warmUp is below 2.
     */
    public ChannelStats(final int warmUp, final EpochNanoClock clock)
    {
        if (warmUp < 2)
        {
            throw new IllegalArgumentException("stats warmup " + warmUp +
                " must be at least 2 (its mean and standard deviation place the buckets)");
        }
        this.clock = clock;
        for (final Metric metric : METRICS)
        {
            metrics[metric.ordinal()] = new MetricRecorder(metric, warmUp);
        }
    }

    /**
     * Reader thread: takes in a received sample. Records {@link Metric#OWD} if it has both timestamps; compared
     * with the previous received sample, {@link Metric#GAP_RECEIVED} and {@link Metric#GAP_SENT} if both have the
     * timestamp, and, if both have a sequence, {@link Metric#REORDERED} for a step other than 1 and
     * {@link Metric#SKIPPED} for a step above 1. Counts {@link Counter#RECEIVED}.
     *
     * @param sample the sample as read delivers it.
     */
    public void onReceived(final Sample sample)
    {
        final long phase = receiverPhaser.writerCriticalSectionEnter();
        try
        {
            recordReceived(sample);
        }
        finally
        {
            receiverPhaser.writerCriticalSectionExit(phase);
        }
        add(Counter.RECEIVED, 1);
    }

    /**
     * Reader thread: {@link #onReceived(Sample)} for {@code count} samples of one read, in order, in one writer
     * critical section: its two atomic adds once a read, not once a sample.
     *
     * @param samples where the read put them.
     * @param from    the index of the first.
     * @param count   how many.
     */
    public void onReceived(final Sample[] samples, final int from, final int count)
    {
        final long phase = receiverPhaser.writerCriticalSectionEnter();
        try
        {
            for (int i = from; i < from + count; i++)
            {
                recordReceived(samples[i]);
            }
        }
        finally
        {
            receiverPhaser.writerCriticalSectionExit(phase);
        }
        add(Counter.RECEIVED, count);
    }

    /**
     * Writer thread: takes in a sample being written. Records {@link Metric#AGE} if it has ts.received (it was
     * received from another channel), and counts {@link Counter#SENT}.
     *
     * @param sample the sample as write takes it.
     */
    public void onSent(final Sample sample)
    {
        final long currentGeneration = generation;
        if (currentGeneration != senderGeneration)
        {
            senderGeneration = currentGeneration;
            metrics[Metric.AGE.ordinal()].restart(currentGeneration);
        }
        if ((sample.flags() & Sample.HAS_TS_RECEIVED) != 0)
        {
            final long now = clock.nanoTime();
            final long phase = senderPhaser.writerCriticalSectionEnter();
            try
            {
                record(Metric.AGE, nanosBetween(sample.receivedSeconds(), sample.receivedNanos(),
                    now / NANOS_PER_SECOND, now % NANOS_PER_SECOND));
            }
            finally
            {
                senderPhaser.writerCriticalSectionExit(phase);
            }
        }
        add(Counter.SENT, 1);
    }

    /**
     * The counter's writer (one thread at a time, each seeing the previous one's adds): adds to a counter with an
     * ordered store, which readers on other threads see whole.
     *
     * @param counter the counter.
     * @param delta   how much.
     */
    public void add(final Counter counter, final long delta)
    {
        final int index = counterIndex(counter);
        counters.setRelease(index, counters.getPlain(index) + delta);
    }

    /**
     * Any thread: a counter's value now.
     *
     * @param counter the counter.
     * @return its count since creation or the last reset.
     */
    public long get(final Counter counter)
    {
        synchronized (snapshotLock)
        {
            return counters.getAcquire(counterIndex(counter)) - counterBaselines[counter.ordinal()];
        }
    }

    /**
     * Any thread: everything counted and recorded since creation or the last reset.
     *
     * @return an immutable snapshot.
     */
    public StatsSnapshot snapshot()
    {
        synchronized (snapshotLock)
        {
            foldRecorded();
            final long currentGeneration = generation;
            final MetricSnapshot[] metricSnapshots = new MetricSnapshot[METRICS.length];
            for (final Metric metric : METRICS)
            {
                metricSnapshots[metric.ordinal()] = metrics[metric.ordinal()].snapshot(currentGeneration);
            }
            final long[] counterValues = new long[COUNTERS.length];
            for (final Counter counter : COUNTERS)
            {
                counterValues[counter.ordinal()] = get(counter);
            }
            return new StatsSnapshot(metricSnapshots, counterValues);
        }
    }

    /**
     * Any thread: forgets everything counted and recorded so far. Counts added while it runs are kept. The reader
     * and writer thread start their warm-ups again at their next sample, and the reader forgets the previous
     * sample, so no gap or step spans the reset.
     */
    public void reset()
    {
        synchronized (snapshotLock)
        {
            foldRecorded();
            for (final MetricRecorder metric : metrics)
            {
                metric.reset();
            }
            for (final Counter counter : COUNTERS)
            {
                counterBaselines[counter.ordinal()] = counters.getAcquire(counterIndex(counter));
            }
            generation = generation + 1;
        }
    }

    /**
     * Nanoseconds from one timestamp to another, saturated at about ±63 years so garbage timestamps from the wire
     * cannot overflow.
     *
     * @param fromSeconds seconds of the earlier timestamp.
     * @param fromNanos   nanoseconds of the earlier timestamp.
     * @param toSeconds   seconds of the later timestamp.
     * @param toNanos     nanoseconds of the later timestamp.
     * @return the difference in nanoseconds, negative if "to" is before "from".
     */
    static long nanosBetween(final long fromSeconds, final long fromNanos, final long toSeconds, final long toNanos)
    {
        return saturatedDifference(toSeconds, fromSeconds, NANOS_PER_SECOND) * NANOS_PER_SECOND +
            saturatedDifference(toNanos, fromNanos, NANOS_PER_SECOND * NANOS_PER_SECOND);
    }

    private static long saturatedDifference(final long to, final long from, final long limit)
    {
        final long difference = to - from; // wraps around if the true difference does not fit a long
        if (to >= from)
        {
            return difference < 0 || difference > limit ? limit : difference;
        }
        return difference > 0 || difference < -limit ? -limit : difference;
    }

    private void recordReceived(final Sample sample)
    {
        final long currentGeneration = generation;
        if (currentGeneration != receiverGeneration)
        {
            restartReceiver(currentGeneration);
        }
        final int flags = sample.flags();
        final int shared = flags & previousFlags;
        final long originSeconds = sample.originSeconds();
        final long originNanos = sample.originNanos();
        final long receivedSeconds = sample.receivedSeconds();
        final long receivedNanos = sample.receivedNanos();
        final long sequence = sample.sequence();

        if ((flags & Sample.HAS_TS_ORIGIN) != 0 && (flags & Sample.HAS_TS_RECEIVED) != 0)
        {
            record(Metric.OWD, nanosBetween(originSeconds, originNanos, receivedSeconds, receivedNanos));
        }
        if ((shared & Sample.HAS_TS_RECEIVED) != 0)
        {
            record(Metric.GAP_RECEIVED,
                nanosBetween(previousReceivedSeconds, previousReceivedNanos, receivedSeconds, receivedNanos));
        }
        if ((shared & Sample.HAS_TS_ORIGIN) != 0)
        {
            record(Metric.GAP_SENT,
                nanosBetween(previousOriginSeconds, previousOriginNanos, originSeconds, originNanos));
        }
        if ((shared & Sample.HAS_SEQUENCE) != 0)
        {
            // Wrapping difference of two u64 sequence numbers, read as signed: -1 is one step back.
            final long step = sequence - previousSequence;
            if (step != 1)
            {
                record(Metric.REORDERED, step == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(step));
            }
            if (step > 1)
            {
                record(Metric.SKIPPED, step - 1);
            }
        }

        previousFlags = flags;
        previousSequence = sequence;
        previousOriginSeconds = originSeconds;
        previousOriginNanos = originNanos;
        previousReceivedSeconds = receivedSeconds;
        previousReceivedNanos = receivedNanos;
    }

    // Under snapshotLock: takes what each thread recorded since the last fold into the cumulative histograms.
    private void foldRecorded()
    {
        fold(receiverPhaser, true);
        fold(senderPhaser, false);
    }

    private void fold(final WriterReaderPhaser phaser, final boolean receiverSide)
    {
        phaser.readerLock();
        try
        {
            for (final Metric metric : METRICS)
            {
                if ((metric != Metric.AGE) == receiverSide)
                {
                    metrics[metric.ordinal()].swap();
                }
            }
            phaser.flipPhase();
            for (final Metric metric : METRICS)
            {
                if ((metric != Metric.AGE) == receiverSide)
                {
                    metrics[metric.ordinal()].foldSwapped();
                }
            }
        }
        finally
        {
            phaser.readerUnlock();
        }
    }

    private void restartReceiver(final long currentGeneration)
    {
        receiverGeneration = currentGeneration;
        previousFlags = 0;
        for (final Metric metric : METRICS)
        {
            if (metric != Metric.AGE)
            {
                metrics[metric.ordinal()].restart(currentGeneration);
            }
        }
    }

    private void record(final Metric metric, final long value)
    {
        metrics[metric.ordinal()].record(value);
    }

    private static int counterIndex(final Counter counter)
    {
        return (counter.ordinal() + 1) * COUNTER_STRIDE;
    }
}
