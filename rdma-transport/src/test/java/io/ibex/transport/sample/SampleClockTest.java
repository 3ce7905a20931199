package io.ibex.transport.sample;

import org.agrona.concurrent.HighResolutionClock;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertTrue;

class SampleClockTest
{
    /** Far above a calibration's error (a fraction of a microsecond), far below OffsetEpochNanoClock's (up to 1 ms). */
    private static final long SLACK_NANOS = 10_000;

    @Test
    void twoClocksAgreeWithEachOtherAndWithTheRealTimeClock()
    {
        final SampleClock first = new SampleClock();
        final SampleClock second = new SampleClock();
        for (int i = 0; i < 1000; i++)
        {
            // each reading must fall between two readings of the first clock (give or take the slack)
            final long before = first.nanoTime();
            final long realTime = HighResolutionClock.epochNanos();
            final long other = second.nanoTime();
            final long after = first.nanoTime();
            assertBetween(before, realTime, after, "the real-time clock");
            assertBetween(before, other, after, "a second sample clock");
        }
    }

    @Test
    void readingAllocatesNothing()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final SampleClock clock = new SampleClock();
        final int reads = 1_000_000;
        long sum = 0;
        for (int i = 0; i < reads; i++)
        {
            sum += clock.nanoTime(); // warm up
        }
        final long thread = Thread.currentThread().getId();
        // at most half a calibration period, so at most one calibration: it may allocate (16 reads of the real-time
        // clock, Instant.now()'s object each while the JIT has not removed it), and an emulated CPU (the Soft-RoCE
        // guest) takes seconds for a million reads
        final long deadline = System.nanoTime() + SampleClock.RECALIBRATE_NANOS / 2;
        int measured = 0;
        final long before = threads.getThreadAllocatedBytes(thread);
        while (measured < reads && System.nanoTime() - deadline < 0)
        {
            sum += clock.nanoTime();
            measured++;
        }
        final long allocated = threads.getThreadAllocatedBytes(thread) - before;
        assertTrue(measured >= 10_000, "only " + measured + " reads in half a second");
        assertTrue(allocated < 1024, allocated + " bytes allocated by " + measured + " reads (sum " + sum + ")");
    }

    private static void assertBetween(final long before, final long reading, final long after, final String what)
    {
        assertTrue(reading - before > -SLACK_NANOS && after - reading > -SLACK_NANOS, what + " read " +
            (reading - before) + " ns after the sample clock's first reading, which was " + (after - before) +
            " ns before its second");
    }
}
