package io.ibex.samples.runner.node;

import io.ibex.transport.config.internal.ConfigGroup;
import io.ibex.transport.config.internal.LibconfigReader;
import io.ibex.transport.sample.Sample;
import io.ibex.transport.sample.SampleClock;
import io.ibex.transport.sample.Signal;
import io.ibex.transport.sample.SignalType;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The node on clocks the test moves: pacing (nothing before a step is due, one sample at it, missed steps counted
 * when the clock jumps), timestamps and values, the limit, and the summary.
 */
class SignalNodeTest
{
    /** 2023-11-14T22:13:20.123456789Z: any epoch time with nanoseconds. */
    private static final long EPOCH = 1_700_000_000_123_456_789L;
    private static final long PERIOD_10_US = 10_000;
    private static final long MILLIS = 1_000_000;

    private final ManualClock epoch = new ManualClock(EPOCH);
    private final ManualClock pacing = new ManualClock(5_000_000_000L);
    private final SampleBlock block = new SampleBlock(4, 16);

    @Test
    void theFirstStepIsDueAtTheStartAndEachNextOneAPeriodLater()
    {
        final SignalNode node = started("signal = \"counter\"; rate = 100000;");

        assertEquals(1, node.read(block));
        assertSample(0, EPOCH);
        assertEquals(0, node.read(block), "step 1 is not due yet");
        assertEquals(0, block.size());

        pacing.advance(PERIOD_10_US - 1);
        epoch.advance(PERIOD_10_US - 1);
        assertEquals(0, node.read(block), "a nanosecond before step 1");

        pacing.advance(1);
        epoch.advance(1);
        assertEquals(1, node.read(block), "step 1 at its time");
        assertSample(1, EPOCH + PERIOD_10_US);
        assertEquals(1.0, block.get(0).floatValue(0), "a counter counts steps");
        assertEquals(0, node.read(block));
        assertEquals(0, node.missedSteps());
        assertEquals(2, node.samplesProduced());
    }

    @Test
    void aLateReadProducesOneSampleForTheLatestDueStepAndCountsTheStepsItPassedOver()
    {
        final SignalNode node = started("signal = \"counter\"; rate = 100000;");
        assertEquals(1, node.read(block));
        pacing.advance(PERIOD_10_US);
        assertEquals(1, node.read(block));

        pacing.advance(3 * PERIOD_10_US + PERIOD_10_US / 2); // 4.5 periods after the start
        assertEquals(1, node.read(block));
        assertEquals(4, block.get(0).sequence(), "sequence jumps to the latest due step");
        assertEquals(4.0, block.get(0).floatValue(0), "and so does the counter");
        assertEquals(2, node.missedSteps(), "steps 2 and 3 were passed over");
        assertEquals(0, node.read(block), "step 5 is not due before 5 periods");

        pacing.advance(PERIOD_10_US / 2);
        assertEquals(1, node.read(block));
        assertEquals(5, block.get(0).sequence());
        assertEquals(2, node.missedSteps());
        assertEquals(4, node.samplesProduced());
        assertTrue(node.summary().contains("4 samples in 0.000050 s"), node.summary());
        assertTrue(node.summary().contains(", 2 missed steps"), node.summary());
    }

    @Test
    void withoutMonitorMissedAJumpStillSkipsButCountsNothing()
    {
        final SignalNode node = started("signal = \"counter\"; rate = 10; monitor_missed = false;");
        assertEquals(1, node.read(block));
        pacing.advance(1000 * MILLIS);
        assertEquals(1, node.read(block));
        assertEquals(10, block.get(0).sequence());
        assertEquals(0, node.missedSteps());
        assertTrue(node.summary().contains("missed steps not monitored"), node.summary());
    }

    @Test
    void valuesAreTakenAtTheEpochTimeSinceTheFirstReadWhenPaced()
    {
        final SignalNode node = started("signal = \"sine\"; amplitude = 2.0; offset = 1.0; rate = 10;");
        epoch.advance(3 * MILLIS); // how long the first read took to come: the run starts there, at t = 0
        pacing.advance(3 * MILLIS);
        assertEquals(1, node.read(block));
        assertEquals(1, block.get(0).floatValue(0), 1e-12);
        assertEquals(EPOCH + 3 * MILLIS, origin(block.get(0)));

        pacing.advance(250 * MILLIS);
        epoch.advance(250 * MILLIS);
        assertEquals(1, node.read(block));
        assertEquals(2, block.get(0).sequence(), "step 2 of a 10 Hz node at 250 ms");
        assertEquals(3, block.get(0).floatValue(0), 1e-12, "t = 250 ms: a quarter of a 1 Hz sine");
        assertEquals(1, node.missedSteps());
    }

    @Test
    void unpacedEveryReadProducesTheNextStepStampedStepOverRateAfterTheStart()
    {
        final SignalNode node = started("signal = [\"counter\", \"sine\"]; values = 2; rate = 4; realtime = false;");
        for (int step = 0; step < 9; step++)
        {
            assertEquals(1, node.read(block), "no clock moved, yet step " + step + " comes at once");
            assertSample(step, EPOCH + step * 250 * MILLIS);
            assertEquals(step, block.get(0).floatValue(0));
            assertEquals(Math.sin(2 * Math.PI * step * 0.25), block.get(0).floatValue(1), 1e-12);
        }
        assertEquals(0, node.missedSteps());
        assertTrue(node.summary().contains("unpaced (stamped at rate 4.0)"), node.summary());
    }

    @Test
    void anUnpacedStepIsStampedWithItsOffsetCutToWholeNanoseconds()
    {
        final SignalNode node = started("signal = \"constant\"; rate = 3; realtime = false;");
        assertEquals(1, node.read(block));
        assertEquals(1, node.read(block));
        assertEquals(EPOCH + 333_333_333, origin(block.get(0)), "1/3 s cut, as VILLAS's time_from_double");
        assertEquals(1, node.read(block));
        assertEquals(EPOCH + 666_666_666, origin(block.get(0)));
        assertEquals(1, node.read(block));
        assertEquals(EPOCH + 1_000_000_000, origin(block.get(0)));
    }

    @Test
    void stepZeroIsMadeAtTheFirstReadHoweverLongAfterTheStartAndIsNeverMissed()
    {
        final SignalNode fast = started("signal = \"counter\"; rate = 1000.0; limit = 5;");
        pacing.advance(50 * MILLIS); // the path's thread took 50 ms to come: ten times the whole run
        for (int step = 0; step < 5; step++)
        {
            assertEquals(1, fast.read(block), "step " + step);
            assertEquals(step, block.get(0).sequence());
            pacing.advance(MILLIS);
        }
        assertEquals(Node.END, fast.read(block));
        assertEquals(0, fast.missedSteps());
        assertEquals(null, fast.shortfall());

        final SignalNode slow = started("signal = \"counter\"; rate = 100; limit = 10;");
        pacing.advance(15 * MILLIS);
        assertEquals(1, slow.read(block));
        assertEquals(0, block.get(0).sequence(), "step 0, not step 1");
        assertEquals(0.0, block.get(0).floatValue(0));
        assertEquals(0, slow.missedSteps());
    }

    @Test
    void aRunThatAskedForSamplesAndGotNoneSaysSo()
    {
        final SignalNode node = started("signal = \"counter\"; rate = 1000.0; limit = 5;");
        node.stop();
        assertEquals("made none of the 5 samples its limit asks for: the run ended before its path read it",
            node.shortfall());
        final SignalNode endless = started("signal = \"counter\"; rate = 1000.0;");
        endless.stop();
        assertEquals("made no samples: the run ended before its path read it", endless.shortfall());
        final SignalNode read = started("signal = \"counter\"; rate = 1000.0;");
        assertEquals(1, read.read(block));
        assertEquals(null, read.shortfall());
    }

    @Test
    void aPacedNodeSaysHowSoonItsNextStepIsDueAndOthersDoNot()
    {
        final SignalNode node = node("signal = \"counter\"; limit = 2; rate = 100000;");
        assertEquals(Long.MAX_VALUE, node.nanosUntilDue(), "not started");
        node.start();
        assertEquals(0, node.nanosUntilDue(), "step 0 is due at the start");
        assertEquals(1, node.read(block));
        assertEquals(PERIOD_10_US, node.nanosUntilDue());
        pacing.advance(PERIOD_10_US - 300);
        assertEquals(300, node.nanosUntilDue());
        pacing.advance(1000);
        assertEquals(-700, node.nanosUntilDue(), "late");
        assertEquals(1, node.read(block));
        pacing.advance(PERIOD_10_US);
        assertEquals(Node.END, node.read(block));
        assertEquals(Long.MAX_VALUE, node.nanosUntilDue(), "ended");
        assertEquals(Long.MAX_VALUE, started("signal = \"counter\"; realtime = false;").nanosUntilDue(), "unpaced");
    }

    @Test
    void anUnpacedNodeEndsWhenTheCounterReachesTheLimit()
    {
        final SignalNode node = started("signal = \"counter\"; limit = 3; realtime = false;");
        for (int step = 0; step < 3; step++)
        {
            assertEquals(1, node.read(block));
            assertEquals(step, block.get(0).sequence());
        }
        assertEquals(Node.END, node.read(block));
        assertEquals(0, block.size());
        assertEquals(Node.END, node.read(block), "and stays ended");
        assertEquals(3, node.samplesProduced());
        assertTrue(node.summary().endsWith(", limit 3"), node.summary());
    }

    @Test
    void theWarmUpsNodeGoesOnPastTheLimitUntilItIsStopped()
    {
        final Node node = SignalNode.WARM_UP_FACTORY.create("siggen",
            settings("signal = \"counter\"; limit = 3; realtime = false;"),
            new NodeContext(Path.of("."), epoch, pacing)).node();
        node.start();
        for (int step = 0; step < 10; step++)
        {
            assertEquals(1, node.read(block), "step " + step);
            assertEquals(step, block.get(0).sequence());
        }
    }

    @Test
    void aPacedNodeEndsWhenTheStepAtTheLimitIsDueAsVillasReturnsAfterItsWait()
    {
        final SignalNode node = started("signal = \"counter\"; limit = 2; rate = 10;");
        assertEquals(1, node.read(block));
        pacing.advance(100 * MILLIS);
        assertEquals(1, node.read(block));
        assertEquals(1, block.get(0).sequence());
        assertEquals(0, node.read(block), "the counter reaches the limit only when step 2 is due");
        pacing.advance(100 * MILLIS);
        assertEquals(Node.END, node.read(block));
        assertEquals(2, node.samplesProduced());
    }

    @Test
    void aJumpPastTheLimitEndsTheNodeWithoutASample()
    {
        final SignalNode node = started("signal = \"counter\"; limit = 5; rate = 10;");
        assertEquals(1, node.read(block));
        pacing.advance(700 * MILLIS);
        assertEquals(Node.END, node.read(block));
        assertEquals(1, node.samplesProduced());
        assertEquals(4, node.missedSteps(), "steps 1 to 4 were passed over; 5 and 6 are past the limit, not missed");
    }

    @Test
    void aLimitOfZeroOrLessMeansNone()
    {
        final SignalNode node = started("signal = \"counter\"; limit = 0; realtime = false;");
        for (int step = 0; step < 1000; step++)
        {
            assertEquals(1, node.read(block));
        }
    }

    @Test
    void samplesCarryOriginSequenceAndDataFlagsAndEveryValue()
    {
        final SignalNode node = started("signal = \"mixed\"; values = 9; realtime = false;");
        assertEquals(1, node.read(block));
        final Sample sample = block.get(0);
        assertEquals(Sample.HAS_TS_ORIGIN | Sample.HAS_SEQUENCE | Sample.HAS_DATA, sample.flags());
        assertEquals(9, sample.length());
        assertEquals(List.of("random", "sine", "square", "triangle", "ramp", "counter", "constant", "random", "sine"),
            node.signals().signals().stream().map(Signal::name).toList());
        assertTrue(node.signals().signals().stream().allMatch(signal -> signal.type() == SignalType.FLOAT));
        assertEquals(-1.0, sample.floatValue(2), "square at t = 0: offset - amplitude");
        assertEquals(1.0, sample.floatValue(6), "constant: offset + amplitude");
    }

    @Test
    void restartingStartsAgainAtStepZero()
    {
        final SignalNode node = started("signal = \"counter\"; realtime = false;");
        node.read(block);
        node.read(block);
        node.stop();
        assertEquals(Node.END, node.read(block), "a stopped node ends");
        epoch.advance(5000 * MILLIS);
        node.start();
        assertEquals(1, node.read(block));
        assertSample(0, EPOCH + 5000 * MILLIS);
    }

    @Test
    void readingBeforeTheStartIsAnError()
    {
        final SignalNode node = node("signal = \"sine\";");
        final IllegalStateException error = assertThrows(IllegalStateException.class, () -> node.read(block));
        assertEquals("signal node 'siggen' read before it was started", error.getMessage());
        assertTrue(node.readable());
        assertFalse(node.writable());
        assertEquals("signal", node.type());
        assertEquals("siggen", node.name());
    }

    @Test
    void theSummaryGivesTheAchievedRateAgainstTheConfiguredOne()
    {
        final SignalNode node = started("signal = \"sine\"; rate = 100000; limit = 100;");
        assertEquals(1, node.read(block));
        for (int step = 1; step < 11; step++)
        {
            pacing.advance(PERIOD_10_US);
            assertEquals(1, node.read(block));
        }
        pacing.advance(PERIOD_10_US * 2 / 10); // reads within a step change nothing
        assertEquals(0, node.read(block));
        assertEquals("11 samples in 0.000100 s: 100000.0 samples/s (rate 100000.0, +0.00 %), 0 missed steps, " +
            "limit 100", node.summary());
    }

    @Test
    void readingAllocatesNothing()
    {
        final SignalNode unpaced = new SignalNode(SignalNodeConfig.bind("siggen",
            settings("signal = \"mixed\"; values = 8; realtime = false;")),
            new NodeContext(Path.of("."), new SampleClock(), SystemNanoClock.INSTANCE),
            new SplittableRandom(3));
        unpaced.start();
        assertUnderAByteARead("unpaced", () -> unpaced.read(block));

        final SignalNode paced = started("signal = \"mixed\"; values = 8; rate = 100000;");
        assertUnderAByteARead("paced, a step due every second read", () ->
        {
            pacing.advance(PERIOD_10_US / 2);
            paced.read(block);
        });
    }

    private SignalNode started(final String settings)
    {
        final SignalNode node = node(settings);
        node.start();
        return node;
    }

    private SignalNode node(final String settings)
    {
        return new SignalNode(SignalNodeConfig.bind("siggen", settings(settings)),
            new NodeContext(Path.of("."), epoch, pacing), new SplittableRandom(1));
    }

    static ConfigGroup settings(final String text)
    {
        return LibconfigReader.parse(text, "siggen.conf");
    }

    private void assertSample(final long sequence, final long originNanos)
    {
        assertEquals(1, block.size());
        assertEquals(sequence, block.get(0).sequence());
        assertEquals(originNanos, origin(block.get(0)));
    }

    private static long origin(final Sample sample)
    {
        return sample.originSeconds() * 1_000_000_000L + sample.originNanos();
    }

    /**
     * Under a byte a read means no read allocates (the smallest object is 16 bytes); not exactly 0, as the JIT may
     * still compile and deoptimise during the run.
     */
    private static void assertUnderAByteARead(final String what, final Runnable read)
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());
        final int reads = 200_000;
        for (int i = 0; i < reads; i++)
        {
            read.run(); // warm-up: compiled before it is measured
        }
        final long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < reads; i++)
        {
            read.run();
        }
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < reads, allocated + " bytes allocated by " + reads + " reads, " + what);
    }
}
