package io.ibex.transport.sample;

import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.HighResolutionClock;

import java.util.concurrent.TimeUnit;

/**
 * The real-time clock samples are stamped with (VILLAS's {@code time_now()}: ts.origin, ts.received, the age of a
 * sample), as nanoseconds since the epoch, read without allocating. {@code Instant.now()} (Agrona's
 * {@code SystemEpochNanoClock}) allocates an object a read unless the JIT happens to remove it, and Agrona's
 * {@code OffsetEpochNanoClock} takes its offset from {@code currentTimeMillis}, so two of them disagree by up to a
 * millisecond, all of which goes into every one-way delay. This clock adds to the monotonic clock an offset
 * calibrated against the real-time clock to within a fraction of a microsecond, and recalibrates every
 * {@link #RECALIBRATE_NANOS}, so a step of the system's time (the monotonic clock does not step) shows within that.
 * Any thread; the thread that comes upon a due calibration does it.
 */
public final class SampleClock implements EpochNanoClock
{
    /** How often the offset is measured again. */
    public static final long RECALIBRATE_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** Readings of the real-time clock per calibration: the one bracketed most tightly by the monotonic clock wins. */
    private static final int CALIBRATION_READS = 16;

    private volatile long offsetNanos;
    private volatile long calibrateAtNanos;

    /** Calibrates at once. */
    public SampleClock()
    {
        calibrate(System.nanoTime());
    }

    @Override
    public long nanoTime()
    {
        final long now = System.nanoTime();
        if (now - calibrateAtNanos >= 0)
        {
            calibrate(now);
        }
        return now + offsetNanos;
    }

    private void calibrate(final long now)
    {
        calibrateAtNanos = now + RECALIBRATE_NANOS; // first: other readers go on with the old offset meanwhile
        long bestWindow = Long.MAX_VALUE;
        long bestOffset = 0;
        for (int i = 0; i < CALIBRATION_READS; i++)
        {
            final long before = System.nanoTime();
            final long epoch = HighResolutionClock.epochNanos();
            final long after = System.nanoTime();
            if (after - before < bestWindow)
            {
                bestWindow = after - before;
                bestOffset = epoch - (before + (after - before) / 2);
            }
        }
        offsetNanos = bestOffset;
    }
}
