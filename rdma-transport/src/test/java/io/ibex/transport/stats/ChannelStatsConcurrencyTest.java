package io.ibex.transport.stats;

import io.ibex.transport.sample.Sample;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.ibex.transport.stats.ReceivedSamples.ALL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChannelStatsConcurrencyTest
{
    private static final long T0 = 1_700_000_000_000_000_000L;
    private static final int SAMPLES = 200_000;

    private final ChannelStats stats = new ChannelStats(ChannelStats.DEFAULT_WARM_UP, () -> T0 + 1_000);

    @Test
    void countersAreReadLiveWhileAnotherThreadAddsToThem() throws Exception
    {
        final AtomicBoolean stop = new AtomicBoolean();
        final CompletableFuture<Long> adder = CompletableFuture.supplyAsync(() ->
        {
            long added = 0;
            while (!stop.get())
            {
                stats.add(Counter.POSTED_RECEIVES, 1);
                added++;
            }
            return added;
        });

        long seen = 0;
        int changes = 0;
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (changes < 100 && System.nanoTime() < deadline)
        {
            final long value = stats.get(Counter.POSTED_RECEIVES);
            assertTrue(value >= seen, "a counter never goes back: " + value + " after " + seen);
            changes += value > seen ? 1 : 0;
            seen = value;
            Thread.onSpinWait();
        }
        stop.set(true);

        assertEquals(100, changes, "the reader saw the counter move while it was added to");
        assertEquals((long)adder.get(30, TimeUnit.SECONDS), stats.get(Counter.POSTED_RECEIVES));
    }

    @Test
    void threadsThatTakeTurnsUnderALockLoseNoAddToOneCounter() throws Exception
    {
        // As a channel's writer and connection-manager threads add to DROPPED, each under the send path's lock.
        final Object pathLock = new Object();
        final Runnable drops = () ->
        {
            for (int i = 0; i < SAMPLES; i++)
            {
                synchronized (pathLock)
                {
                    stats.add(Counter.DROPPED, 1);
                }
            }
        };
        final CompletableFuture<Void> first = CompletableFuture.runAsync(drops);
        final CompletableFuture<Void> second = CompletableFuture.runAsync(drops);
        drops.run();
        first.get(30, TimeUnit.SECONDS);
        second.get(30, TimeUnit.SECONDS);

        assertEquals(3L * SAMPLES, stats.get(Counter.DROPPED));
    }

    @Test
    void snapshotsAndResetsWhileTheReaderAndWriterRecordLoseNothingAfterTheLastReset() throws Exception
    {
        final CompletableFuture<Void> reader = CompletableFuture.runAsync(() ->
        {
            final ReceivedSamples received = new ReceivedSamples(stats);
            for (int i = 0; i < SAMPLES; i++)
            {
                received.receive(ALL, 2L * i, T0 + i, T0 + i + 100); // every step skips 1
            }
        });
        final CompletableFuture<Void> writer = CompletableFuture.runAsync(() ->
        {
            final ReceivedSamples sent = new ReceivedSamples(stats);
            for (int i = 0; i < SAMPLES; i++)
            {
                sent.send(Sample.HAS_TS_RECEIVED, T0);
            }
        });

        long lastCount = 0;
        int snapshots = 0;
        while (!reader.isDone() || !writer.isDone() || snapshots < 10)
        {
            final StatsSnapshot snapshot = stats.snapshot();
            final long count = snapshot.metric(Metric.OWD).count();
            assertTrue(count >= lastCount, "a snapshot never goes back: " + count + " after " + lastCount);
            lastCount = count;
            snapshots++;
        }
        reader.get(30, TimeUnit.SECONDS);
        writer.get(30, TimeUnit.SECONDS);

        final StatsSnapshot last = stats.snapshot();
        assertEquals(SAMPLES, last.metric(Metric.OWD).count());
        assertEquals(100L * SAMPLES, last.metric(Metric.OWD).sum());
        assertEquals(SAMPLES - 1, last.metric(Metric.SKIPPED).count());
        assertEquals(SAMPLES - 1, last.metric(Metric.SKIPPED).sum());
        assertEquals(SAMPLES, last.metric(Metric.AGE).count());
        assertEquals(1_000L * SAMPLES, last.metric(Metric.AGE).sum());
        assertEquals(SAMPLES, last.counter(Counter.RECEIVED));
        assertEquals(SAMPLES, last.counter(Counter.SENT));
    }

    @Test
    void resetWhileRecordingLeavesConsistentCountsAfterwards() throws Exception
    {
        final AtomicBoolean stop = new AtomicBoolean();
        final CompletableFuture<Void> reader = CompletableFuture.runAsync(() ->
        {
            final ReceivedSamples received = new ReceivedSamples(stats);
            for (long i = 0; !stop.get(); i++)
            {
                received.receive(ALL, i, T0 + i, T0 + i + 10);
            }
        });
        for (int i = 0; i < 50; i++)
        {
            stats.reset();
            Thread.yield();
        }
        stop.set(true);
        reader.get(30, TimeUnit.SECONDS);
        stats.reset();

        final ReceivedSamples received = new ReceivedSamples(stats);
        for (int i = 0; i < 1000; i++)
        {
            received.receive(ALL, 5_000_000_000L + i, T0, T0 + 10);
        }
        final StatsSnapshot snapshot = stats.snapshot();
        assertEquals(1000, snapshot.metric(Metric.OWD).count());
        assertEquals(10_000, snapshot.metric(Metric.OWD).sum());
        assertEquals(0, snapshot.metric(Metric.REORDERED).count(), "no step spans a reset");
        assertEquals(1000, snapshot.counter(Counter.RECEIVED));
        assertTrue(snapshot.metric(Metric.OWD).warmedUp());
        assertEquals(10.0, snapshot.metric(Metric.OWD).warmUpMean(), 1e-9);
    }

    @Test
    void theUpdatePathsAllocateNothing()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());
        final ReceivedSamples samples = new ReceivedSamples(stats);
        final long thread = Thread.currentThread().getId();
        updateAll(samples, 0); // warm-up, and the first call of each path

        final long before = threads.getThreadAllocatedBytes(thread);
        updateAll(samples, SAMPLES);
        final long allocated = threads.getThreadAllocatedBytes(thread) - before;

        // Under a byte per update: no update allocates (the smallest object is 16 bytes). Not exactly 0, since
        // the JIT may still compile and deoptimise during the run (328 bytes once in CI).
        assertTrue(allocated < SAMPLES, allocated + " bytes allocated by " + SAMPLES + " updates of each kind");
        assertEquals(2L * SAMPLES, stats.get(Counter.RECEIVED));
    }

    private void updateAll(final ReceivedSamples samples, final int from)
    {
        for (int i = from; i < from + SAMPLES; i++)
        {
            samples.receive(ALL, i % 100 == 0 ? i + 1 : i, T0 + i, T0 + i + 100 + i % 1000);
            samples.send(Sample.HAS_TS_RECEIVED, T0 + i % 500);
            stats.add(Counter.INLINE_SENDS, 1);
        }
    }
}
