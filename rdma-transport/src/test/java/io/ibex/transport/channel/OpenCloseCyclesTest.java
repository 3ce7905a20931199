package io.ibex.transport.channel;

import io.ibex.rdma.testing.LoopbackPorts;
import io.ibex.transport.config.TransportMode;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.junit.jupiter.api.Test;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Open/close cycles of a channel free what each took: 100 by default, 1000 with {@code -Dibex.test.cycles=1000}.
 * A cycle opens a target and a source on fresh ports, waits until both are
 * connected, sends samples through, checks them and closes both. After every cycle
 * the provider's open verbs objects are back at their count after the first (which starts what lives as long as
 * the process: the soft device and its progress thread, the device context rdma_cm shares); after the last, so
 * are the JVM's threads and, once collected, its direct buffers (within 5%). In the Soft-RoCE guest
 * {@code KernelResourceHygiene} also finds {@code rdma resource show} back at its count before the test.
 */
class OpenCloseCyclesTest
{
    private static final int CYCLES = Integer.getInteger("ibex.test.cycles", 100);
    private static final int SAMPLES = 10;
    private static final double DIRECT_BOUND = 0.05;

    @Test
    void everyCycleFreesWhatItTook() throws Exception
    {
        cycle(0);
        final int live = TestChannels.liveResources();
        final long threads = settled(Thread::activeCount, Long.MAX_VALUE);
        final long direct = settled(OpenCloseCyclesTest::directMemory, Long.MAX_VALUE);
        for (int i = 1; i < CYCLES; i++)
        {
            cycle(i);
            assertEquals(live, TestChannels.liveResources(), "verbs objects open after cycle " + i);
        }
        assertEquals(threads, settled(Thread::activeCount, threads), "threads after " + CYCLES + " cycles");
        final long bound = direct + (long)(direct * DIRECT_BOUND);
        final long directAfter = settled(OpenCloseCyclesTest::directMemory, bound);
        assertTrue(directAfter <= bound, "direct buffers of " + directAfter + " bytes after " + CYCLES +
            " cycles, more than 5% over the " + direct + " bytes after the first");
    }

    /** Opens a connected pair, sends samples first..first+SAMPLES-1 through it, and closes it. */
    private static void cycle(final int index) throws Exception
    {
        final int targetPort = LoopbackPorts.next();
        try (ChannelPair pair = new ChannelPair(
            TestChannels.target("target", TransportMode.RC, targetPort, c -> { }),
            TestChannels.source("source", TransportMode.RC, LoopbackPorts.next(), targetPort, c -> { })))
        {
            final long first = (long)index * SAMPLES;
            final CompletableFuture<Void> writer = CompletableFuture.runAsync(() ->
                ChannelPair.send(pair.source, first, SAMPLES));
            ChannelPair.receive(pair.target, first, SAMPLES);
            writer.get(TestChannels.WAIT_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Threads end and cleaners free direct buffers a moment after the close that let them go: collects garbage
     * and measures until the value is at most {@code atMost}, for at most {@link TestChannels#WAIT_MILLIS}, or
     * for a few rounds if any value will do.
     *
     * @return the last value measured.
     */
    private static long settled(final LongSupplier measure, final long atMost) throws InterruptedException
    {
        final IdleStrategy idle = new SleepingMillisIdleStrategy(20);
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TestChannels.WAIT_MILLIS);
        long value = Long.MAX_VALUE;
        for (int round = 0; round < 3 || (value > atMost && System.nanoTime() < deadline); round++)
        {
            System.gc();
            idle.idle();
            value = measure.getAsLong();
        }
        return value;
    }

    private static long directMemory()
    {
        long used = 0;
        for (final BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class))
        {
            used += pool.getMemoryUsed();
        }
        return used;
    }
}
