package io.ibex.samples.runner.node;

import io.ibex.transport.sample.Sample;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.NanoClock;

/**
 * When a replayed file's samples may go, and the ts.origin they go with, as VILLASnode's file node: in mode
 * {@code original} at once and unchanged; at a fixed {@code in.rate}, stamped with the time they go (steps that
 * pass while replay is late are missed, not caught up); else at their own timestamp moved by the offset of the
 * {@code in.epoch_mode}, stamped with that time.
 * Waiting is the path's: {@link #due} only says whether the time has come, on the pacing clock.
 */
final class ReplayPacer
{
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final FileNodeSettings settings;
    private final EpochNanoClock clock;
    private final NanoClock pacingClock;
    private final StepPacer steps;
    private boolean firstPending;
    private long firstOrigin;
    private long offset;
    private long epochAtStart;
    private long pacingAtStart;

    /**
     * @param settings the node's {@code in.rate}, {@code in.epoch_mode} and {@code in.epoch}.
     * @param clock    stamps samples and tells now for the offset.
     * @param pacing   the monotonic clock that decides when a sample is due.
     */
    ReplayPacer(final FileNodeSettings settings, final EpochNanoClock clock, final NanoClock pacing)
    {
        this.settings = settings;
        this.clock = clock;
        this.pacingClock = pacing;
        this.steps = settings.rate() > 0 ? new StepPacer(settings.rate()) : null;
    }

    /**
     * Starts replay now.
     *
     * @param first the first sample of the file (its ts.origin is "first"), or null if the file has none yet: then
     *              the first that comes is, when it comes.
     */
    void start(final Sample first)
    {
        firstPending = first == null;
        firstOrigin = first == null ? 0 : originNanos(first);
        epochAtStart = clock.nanoTime();
        pacingAtStart = pacingClock.nanoTime();
        if (steps != null)
        {
            steps.start(pacingAtStart);
        }
        restart();
    }

    /**
     * The file was rewound: the offset is taken again from now, as VILLAS does.
     *
     * @throws ArithmeticException if the first timestamp is too far from now for nanoseconds in 64 bits.
     */
    void restart()
    {
        final long now = epochAtStart + (pacingClock.nanoTime() - pacingAtStart);
        final long epoch = settings.epochNanos();
        offset = switch (settings.epochMode())
        {
            case DIRECT -> Math.addExact(Math.subtractExact(now, firstOrigin), epoch);
            case WAIT -> now + epoch;
            case RELATIVE -> epoch;
            case ABSOLUTE -> Math.subtractExact(epoch, firstOrigin);
            case ORIGINAL -> 0;
        };
    }

    /** @return whether a sample goes at most once per call to {@link #due}: at a fixed rate, one per step. */
    boolean paced()
    {
        return steps != null;
    }

    /** @return steps of the rate that passed without a sample because replay was late, as VILLAS counts them. */
    long missedSteps()
    {
        return steps != null ? steps.missedSteps() : 0;
    }

    /**
     * @param sample the next sample of the file; when it is due, its ts.origin becomes the time it goes.
     * @return whether it may go now.
     * @throws ArithmeticException if its time, moved by the offset, does not fit nanoseconds in 64 bits.
     */
    boolean due(final Sample sample)
    {
        if (settings.epochMode() == FileNodeSettings.EpochMode.ORIGINAL)
        {
            return true;
        }
        final long now = pacingClock.nanoTime();
        if (steps != null)
        {
            if (steps.poll(now) < 0)
            {
                return false;
            }
            stamp(sample, clock.nanoTime());
            return true;
        }
        if (firstPending)
        {
            firstPending = false;
            firstOrigin = originNanos(sample);
            restart();
        }
        final long origin = Math.addExact(originNanos(sample), offset);
        if (now - pacingTime(origin) < 0)
        {
            return false;
        }
        stamp(sample, origin);
        return true;
    }

    /**
     * @param next the next sample of the file if it has been read, else null.
     * @return nanoseconds until a sample may go, as {@link Node#nanosUntilDue}: at a fixed rate the next step; else
     *         the time of {@code next}, once known; {@link Long#MAX_VALUE} when that is not known, or in mode
     *         {@code original} (which never waits for time).
     */
    long nanosUntilDue(final Sample next)
    {
        if (settings.epochMode() == FileNodeSettings.EpochMode.ORIGINAL)
        {
            return Long.MAX_VALUE;
        }
        if (steps != null)
        {
            return steps.nanosUntilDue(pacingClock.nanoTime());
        }
        if (next == null || firstPending)
        {
            return Long.MAX_VALUE;
        }
        return pacingTime(originNanos(next) + offset) - pacingClock.nanoTime();
    }

    /** @return the time on the pacing clock when the epoch clock shows {@code origin}, as it ran at the start. */
    private long pacingTime(final long origin)
    {
        return pacingAtStart + (origin - epochAtStart);
    }

    /** @throws ArithmeticException if the timestamp is too far from 1970 for nanoseconds in 64 bits. */
    private static long originNanos(final Sample sample)
    {
        return Math.addExact(Math.multiplyExact(sample.originSeconds(), NANOS_PER_SECOND), sample.originNanos());
    }

    private static void stamp(final Sample sample, final long epochNanos)
    {
        sample.origin(epochNanos);
    }
}
