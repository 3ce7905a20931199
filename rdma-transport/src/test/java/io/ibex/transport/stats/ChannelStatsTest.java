package io.ibex.transport.stats;

import io.ibex.transport.sample.Sample;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static io.ibex.transport.stats.ReceivedSamples.ALL;
import static io.ibex.transport.stats.ReceivedSamples.NANOS_PER_SECOND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChannelStatsTest
{
    private static final long T0 = 1_700_000_000L * NANOS_PER_SECOND;

    private long now = T0;
    private final ChannelStats stats = new ChannelStats(10, () -> now);
    private final ReceivedSamples samples = new ReceivedSamples(stats);

    @Test
    void stepsOfOneGapsReorderingsAndDuplicatesGiveExactReorderedAndSkippedValues()
    {
        // steps:     1  1  3  1  -2  1  0  1  1  93
        final long[] sequences = {0, 1, 2, 5, 6, 4, 5, 5, 6, 7, 100};
        for (final long sequence : sequences)
        {
            samples.receive(sequence);
        }

        final StatsSnapshot snapshot = stats.snapshot();
        final MetricSnapshot reordered = snapshot.metric(Metric.REORDERED);
        assertEquals(4, reordered.count(), "steps 3, -2, 0 (duplicate) and 93");
        final Histogram steps = reordered.histogram();
        assertEquals(1, steps.getCountAtValue(3));
        assertEquals(1, steps.getCountAtValue(2));
        assertEquals(1, steps.getCountAtValue(0));
        assertEquals(1, steps.getCountAtValue(93));
        assertEquals(98, reordered.sum());
        assertEquals(0, reordered.min());
        assertEquals(93, reordered.max());

        final MetricSnapshot skipped = snapshot.metric(Metric.SKIPPED);
        assertEquals(2, skipped.count(), "steps 3 and 93");
        assertEquals(2 + 92, skipped.sum());
        assertEquals(sequences.length, snapshot.counter(Counter.RECEIVED));
    }

    @Test
    void aLateSampleCountsAtItsGapAndAtTheStepAfterIt()
    {
        for (final long sequence : new long[] {1, 2, 4, 3, 5})
        {
            samples.receive(sequence);
        }

        final StatsSnapshot snapshot = stats.snapshot();
        assertEquals(3, snapshot.metric(Metric.REORDERED).count(), "steps 2, -1, 2");
        assertEquals(2, snapshot.metric(Metric.SKIPPED).sum(), "nothing lost, but two steps of 2");
    }

    @Test
    void theSkippedSumIsExactlyTheSamplesLostBySenderThatCountsByOne()
    {
        long lost = 0;
        long gaps = 0;
        boolean inGap = false;
        for (long sequence = 0; sequence < 100_000; sequence++)
        {
            final boolean drop = sequence % 7 == 3 || (sequence >= 50_000 && sequence < 51_234);
            if (drop)
            {
                lost++;
                gaps += inGap ? 0 : 1;
            }
            else
            {
                samples.receive(sequence);
            }
            inGap = drop;
        }

        final StatsSnapshot snapshot = stats.snapshot();
        assertEquals(lost, snapshot.metric(Metric.SKIPPED).sum());
        assertEquals(gaps, snapshot.metric(Metric.SKIPPED).count());
        assertEquals(gaps, snapshot.metric(Metric.REORDERED).count());
        assertEquals(100_000 - lost, snapshot.counter(Counter.RECEIVED));
    }

    @Test
    void sequenceNumbersWrapAroundAsUnsigned64BitValues()
    {
        samples.receive(-2); // 2^64 - 2
        samples.receive(-1);
        samples.receive(0);
        samples.receive(1);
        assertEquals(0, stats.snapshot().metric(Metric.REORDERED).count());

        samples.receive(1 + Long.MIN_VALUE); // half the sequence space away: the largest step there is
        final MetricSnapshot reordered = stats.snapshot().metric(Metric.REORDERED);
        assertEquals(1, reordered.count());
        assertEquals(1, reordered.clampedOverRange());
        assertEquals(0, reordered.clampedNegative());
    }

    @Test
    void theSamplesOfOneReadTakenInAtOnceCountAsOneByOne()
    {
        final ChannelStats oneByOne = new ChannelStats(10, () -> now);
        final long[] sequences = {99, 7, 8, 10, 9, 11}; // the first is not the read's
        final Sample[] read = new Sample[sequences.length];
        for (int i = 0; i < read.length; i++)
        {
            read[i] = new ReceivedSamples(oneByOne).set(ALL, sequences[i], T0 + 10 * i, T0 + 100 + 15 * i);
            if (i > 0)
            {
                oneByOne.onReceived(read[i]);
            }
        }
        stats.onReceived(read, 1, read.length - 1);

        final StatsSnapshot expected = oneByOne.snapshot();
        final StatsSnapshot actual = stats.snapshot();
        assertEquals(5, actual.counter(Counter.RECEIVED));
        assertEquals(expected.counter(Counter.RECEIVED), actual.counter(Counter.RECEIVED));
        for (final Metric metric : new Metric[] {Metric.OWD, Metric.GAP_RECEIVED, Metric.GAP_SENT, Metric.REORDERED,
            Metric.SKIPPED})
        {
            assertEquals(expected.metric(metric).count(), actual.metric(metric).count(), metric + " count");
            assertEquals(expected.metric(metric).sum(), actual.metric(metric).sum(), metric + " sum");
        }
        assertEquals(2, actual.metric(Metric.SKIPPED).sum(), "8 to 10, and 9 to 11");
    }

    @Test
    void owdAndGapsComeFromTheTimestamps()
    {
        samples.receive(ALL, 0, T0, T0 + 50);
        samples.receive(ALL, 1, T0 + 100, T0 + 170);
        samples.receive(ALL, 2, T0 + 300, T0 + 360);
        samples.receive(ALL, 3, T0 + NANOS_PER_SECOND - 40, T0 + NANOS_PER_SECOND + 20); // across a second

        final StatsSnapshot snapshot = stats.snapshot();
        final MetricSnapshot owd = snapshot.metric(Metric.OWD);
        assertEquals(4, owd.count());
        assertEquals(50 + 70 + 60 + 60, owd.sum());
        assertEquals(50, owd.min());
        assertEquals(70, owd.max());
        assertEquals(60, owd.p50());
        assertEquals(60.0, owd.mean(), 1e-9);

        final MetricSnapshot gapReceived = snapshot.metric(Metric.GAP_RECEIVED);
        assertEquals(3, gapReceived.count());
        assertEquals(NANOS_PER_SECOND + 20 - 50, gapReceived.sum());
        assertEquals(120, gapReceived.min());
        assertWithinResolution(NANOS_PER_SECOND - 340, gapReceived.max());

        final MetricSnapshot gapSent = snapshot.metric(Metric.GAP_SENT);
        assertEquals(3, gapSent.count());
        assertEquals(NANOS_PER_SECOND - 40, gapSent.sum());
        assertEquals(100, gapSent.min());
    }

    @Test
    void microsecondValuesAreKeptWithinOnePercent()
    {
        for (int i = 0; i < 1000; i++)
        {
            samples.receive(ALL, i, T0 + i * 10_000L, T0 + i * 10_000L + 5_000 + i);
        }

        final MetricSnapshot owd = stats.snapshot().metric(Metric.OWD);
        assertEquals(1000, owd.count());
        assertWithinResolution(5_000, owd.min());
        assertWithinResolution(5_999, owd.max());
        assertWithinResolution(5_499, owd.p50());
        assertWithinResolution(5_989, owd.p99());
        assertEquals(1000 * 5_000 + 999 * 1000 / 2, owd.sum());
        assertEquals(288.7, owd.stddev(), 3.0);
        final MetricSnapshot gapSent = stats.snapshot().metric(Metric.GAP_SENT);
        assertEquals(999, gapSent.count());
        assertWithinResolution(10_000, gapSent.p50());
    }

    @Test
    void samplesWithoutAFlagSkipTheMetricsThatNeedIt()
    {
        samples.receive(Sample.HAS_SEQUENCE, 0, T0, T0 + 10);
        samples.receive(Sample.HAS_SEQUENCE | Sample.HAS_TS_RECEIVED, 5, T0, T0 + 20);
        samples.receive(Sample.HAS_TS_RECEIVED | Sample.HAS_TS_ORIGIN, 6, T0 + 5, T0 + 40);
        samples.receive(Sample.HAS_TS_ORIGIN | Sample.HAS_SEQUENCE, 9, T0 + 15, T0 + 50);
        samples.receive(Sample.HAS_DATA, 20, T0 + 30, T0 + 60);

        final StatsSnapshot snapshot = stats.snapshot();
        assertEquals(1, snapshot.metric(Metric.OWD).count(), "only the third has both timestamps");
        assertEquals(35, snapshot.metric(Metric.OWD).sum());
        assertEquals(1, snapshot.metric(Metric.GAP_RECEIVED).count(), "second and third have ts.received");
        assertEquals(20, snapshot.metric(Metric.GAP_RECEIVED).sum());
        assertEquals(1, snapshot.metric(Metric.GAP_SENT).count(), "third and fourth have ts.origin");
        assertEquals(10, snapshot.metric(Metric.GAP_SENT).sum());
        assertEquals(1, snapshot.metric(Metric.REORDERED).count(), "first and second have a sequence, step 5");
        assertEquals(4, snapshot.metric(Metric.SKIPPED).sum());
        assertEquals(5, snapshot.counter(Counter.RECEIVED), "every sample is counted");
    }

    @Test
    void negativeValuesAreClampedToZeroAndCounted()
    {
        samples.receive(ALL, 0, T0 + 300, T0 + 100); // the sender's clock is ahead
        samples.receive(ALL, 1, T0 + 200, T0 + 400); // origin went back 100 ns

        final StatsSnapshot snapshot = stats.snapshot();
        final MetricSnapshot owd = snapshot.metric(Metric.OWD);
        assertEquals(2, owd.count());
        assertEquals(0, owd.min());
        assertEquals(200, owd.max());
        assertEquals(1, owd.clampedNegative());
        assertEquals(200, owd.sum(), "the clamped value counts as 0");
        assertEquals(1, snapshot.metric(Metric.GAP_SENT).clampedNegative());
        assertEquals(0, snapshot.metric(Metric.GAP_RECEIVED).clampedNegative());
    }

    @Test
    void garbageTimestampsFromTheWireSaturateInsteadOfOverflowing()
    {
        assertEquals(NANOS_PER_SECOND * NANOS_PER_SECOND + NANOS_PER_SECOND * NANOS_PER_SECOND,
            ChannelStats.nanosBetween(Long.MIN_VALUE, Long.MIN_VALUE, Long.MAX_VALUE, Long.MAX_VALUE));
        assertEquals(-2 * NANOS_PER_SECOND * NANOS_PER_SECOND,
            ChannelStats.nanosBetween(Long.MAX_VALUE, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE));
        assertEquals(-1, ChannelStats.nanosBetween(5, 0, 4, 999_999_999));

        stats.onReceived(samples.set(ALL, 0, 0, 0).origin(Long.MIN_VALUE, 0).received(Long.MAX_VALUE, 0));
        stats.onReceived(samples.set(ALL, 1, 0, 0).origin(Long.MAX_VALUE, 0).received(Long.MIN_VALUE, 0));

        final StatsSnapshot snapshot = stats.snapshot();
        assertEquals(1, snapshot.metric(Metric.OWD).clampedOverRange());
        assertEquals(1, snapshot.metric(Metric.OWD).clampedNegative());
        assertEquals(MetricSnapshot.highestValue(), snapshot.metric(Metric.OWD).sum());
        assertWithinResolution(MetricSnapshot.highestValue(), snapshot.metric(Metric.OWD).max());
    }

    @Test
    void ageIsTheTimeFromReceivedToWriteOfForwardedSamples()
    {
        now = T0 + 250;
        samples.send(Sample.HAS_TS_RECEIVED | Sample.HAS_DATA, T0 + 50);
        now = T0 + NANOS_PER_SECOND + 10;
        samples.send(Sample.HAS_TS_RECEIVED | Sample.HAS_DATA, T0 + NANOS_PER_SECOND - 90);
        samples.send(Sample.HAS_TS_ORIGIN | Sample.HAS_DATA, T0); // generated here, not forwarded

        final StatsSnapshot snapshot = stats.snapshot();
        assertEquals(2, snapshot.metric(Metric.AGE).count());
        assertEquals(200 + 100, snapshot.metric(Metric.AGE).sum());
        assertEquals(3, snapshot.counter(Counter.SENT));
        assertEquals(0, snapshot.counter(Counter.RECEIVED));
        assertEquals(0, snapshot.metric(Metric.OWD).count());
    }

    @Test
    void countersAddAndRead()
    {
        stats.add(Counter.POSTED_RECEIVES, 64);
        stats.add(Counter.POSTED_RECEIVES, 1);
        stats.add(Counter.RECONNECTS, 1);

        assertEquals(65, stats.get(Counter.POSTED_RECEIVES));
        assertEquals(1, stats.get(Counter.RECONNECTS));
        assertEquals(0, stats.get(Counter.INVALID));
        assertEquals(65, stats.snapshot().counter(Counter.POSTED_RECEIVES));
    }

    @Test
    void resetForgetsEverythingAndNoGapOrStepSpansIt()
    {
        for (int i = 0; i < 20; i++)
        {
            samples.receive(ALL, i * 2, T0 + i * 100L, T0 + i * 100L + 10);
            samples.send(ALL, T0);
        }
        stats.add(Counter.INVALID, 3);
        assertTrue(stats.snapshot().metric(Metric.OWD).warmedUp());

        stats.reset();

        final StatsSnapshot cleared = stats.snapshot();
        for (final Metric metric : Metric.values())
        {
            final MetricSnapshot values = cleared.metric(metric);
            assertEquals(0, values.count(), metric.id());
            assertEquals(0, values.sum(), metric.id());
            assertFalse(values.warmedUp(), metric.id());
        }
        for (final Counter counter : Counter.values())
        {
            assertEquals(0, cleared.counter(counter), counter.id());
        }

        samples.receive(ALL, 1000, T0 + 10_000, T0 + 10_020);
        final StatsSnapshot after = stats.snapshot();
        assertEquals(1, after.metric(Metric.OWD).count());
        assertEquals(20, after.metric(Metric.OWD).sum());
        assertEquals(0, after.metric(Metric.GAP_RECEIVED).count(), "the first sample after a reset has no gap");
        assertEquals(0, after.metric(Metric.REORDERED).count());
        assertEquals(1, after.counter(Counter.RECEIVED));

        for (int i = 1; i < 10; i++)
        {
            samples.receive(ALL, 1000 + i, T0 + 10_000, T0 + 10_020);
        }
        assertTrue(stats.snapshot().metric(Metric.OWD).warmedUp(), "the warm-up starts again after a reset");
        assertFalse(stats.snapshot().metric(Metric.AGE).warmedUp(), "no sample sent since the reset");
    }

    @Test
    void badSettingsAreRejectedWithTheValue()
    {
        final IllegalArgumentException warmUp =
            assertThrows(IllegalArgumentException.class, () -> new ChannelStats(1, () -> 0));
        assertTrue(warmUp.getMessage().contains("warmup 1"), warmUp.getMessage());

        final IllegalArgumentException metric =
            assertThrows(IllegalArgumentException.class, () -> Metric.fromId("latency"));
        assertTrue(metric.getMessage().contains("\"latency\""), metric.getMessage());
        assertEquals(Metric.GAP_RECEIVED, Metric.fromId("gap_received"));
    }

    static void assertWithinResolution(final long expected, final long actual)
    {
        assertTrue(Math.abs(actual - expected) <= Math.max(1, expected / 100),
            "expected " + expected + " within 1%, was " + actual);
    }
}
