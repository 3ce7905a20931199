package io.ibex.transport.channel;

import io.ibex.rdma.Providers;
import io.ibex.rdma.provider.soft.SoftFaultInjection;
import io.ibex.rdma.provider.soft.SoftProvider;
import io.ibex.rdma.testing.LoopbackPorts;
import io.ibex.transport.config.TransportMode;
import io.ibex.transport.sample.Sample;
import io.ibex.transport.stats.Counter;
import io.ibex.transport.stats.Metric;
import io.ibex.transport.stats.MetricSnapshot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static io.ibex.transport.channel.TestChannels.WAIT_MILLIS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Channels over a lossy network: the soft provider's fault injection ({@link SoftFaultInjection}) drops, duplicates,
 * reorders, delays and truncates datagrams and frames, and knows exactly what it did. UD and UC count the loss and
 * reordering exactly in their stats; RC never loses or corrupts a sample silently: a lost frame fails the
 * connection loudly (RETRY_EXC_ERR), the samples it could not confirm are counted dropped, and the source
 * reconnects.
 */
@ExtendWith(NoLeaks.class)
@Timeout(120)
class SoftFaultsChannelTest
{
    private static final int SAMPLES = 600;

    private final int targetPort = LoopbackPorts.next();
    private final int sourcePort = LoopbackPorts.next();

    @BeforeEach
    void onlyOnSoft()
    {
        assumeTrue(SoftProvider.NAME.equals(Providers.select().name()), "fault injection is the soft provider's");
    }

    @AfterEach
    void noFaults()
    {
        SoftFaultInjection.stop();
    }

    /** UD loses datagrams (a truncated one is dropped by the device), UC the messages a lost frame belonged to. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "UD | drop:0.05,truncate:0.03,seed:11,on:ud",
        "UC | drop:0.05,seed:23,on:links"})
    void lossIsCountedExactlyAndTheStreamGoesOn(final TransportMode mode, final String spec) throws Exception
    {
        try (ChannelPair pair = pair(mode))
        {
            final SoftFaultInjection faults = SoftFaultInjection.inject(spec);
            final long received = sendOneByOne(pair, faults);
            final long lost = faults.count("DROP") + faults.count("TRUNCATE");
            assertTrue(lost > 0, "faults were injected");
            assertEquals(SAMPLES + 1 - lost, received, "the samples lost, and only those, are missing");
            assertEquals(lost, pair.target.stats().snapshot().metric(Metric.SKIPPED).sum(),
                "skipped counts every sample lost");
            assertEquals(0, pair.target.stats().get(Counter.INVALID), "a truncated datagram never reaches the channel");
        }
    }

    @Test
    void udReorderingAndDuplicatesAreCountedExactly() throws Exception
    {
        try (ChannelPair pair = pair(TransportMode.UD))
        {
            final SoftFaultInjection faults = SoftFaultInjection.inject("reorder:0.05,duplicate:0.04,seed:5,on:ud");
            final long received = sendOneByOne(pair, faults);
            final long reordered = faults.count("REORDER");
            final long duplicated = faults.count("DUPLICATE");
            assertTrue(reordered > 0 && duplicated > 0, "faults were injected");
            assertEquals(SAMPLES + 1 + duplicated, received);
            final MetricSnapshot steps = pair.target.stats().snapshot().metric(Metric.REORDERED);
            // Sent one by one, a sample held back arrives right after the next: one step back by 1 each.
            assertEquals(reordered, steps.histogram().getCountAtValue(1), "steps back by one");
            assertEquals(duplicated, steps.histogram().getCountAtValue(0), "repeated sequence numbers");
        }
    }

    @Test
    void rcFailsLoudlyOnALostFrameNeverLosingASampleSilently() throws Exception
    {
        try (ChannelPair pair = pair(TransportMode.RC))
        {
            final SoftFaultInjection faults = SoftFaultInjection.inject("drop:0.01,duplicate:0.01,reorder:0.01," +
                "truncate:0.01,delay:0.01,delay_us:200,seed:3,on:links");
            final SampleBatch batch = new SampleBatch(64);
            final SampleBatch in = new SampleBatch(64);
            long next = 0;
            long lastRead = -1;
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(4 * WAIT_MILLIS);
            while (pair.source.stats().get(Counter.RECONNECTS) == 0)
            {
                assertTrue(System.nanoTime() < deadline, "the faults never broke the connection: " + faults);
                next = writeSome(pair.source, batch, next);
                lastRead = readInOrder(pair.target, in, lastRead);
            }
            SoftFaultInjection.stop();
            assertTrue(faults.count("NONE") < next * 3, "faults were injected into this traffic");
            final long end = next + SAMPLES;
            while (lastRead < end - 1)
            {
                assertTrue(System.nanoTime() < deadline, "after reconnecting, read up to " + lastRead + " of " + end);
                if (next < end)
                {
                    next = writeSome(pair.source, batch, next);
                }
                else
                {
                    pair.source.write(batch);
                }
                lastRead = readInOrder(pair.target, in, lastRead);
            }
            pair.target.release(in);
            final long sent = pair.source.stats().get(Counter.SENT);
            final long dropped = pair.source.stats().get(Counter.DROPPED);
            final long received = pair.target.stats().get(Counter.RECEIVED);
            final long skipped = pair.target.stats().snapshot().metric(Metric.SKIPPED).sum();
            assertEquals(sent, received + skipped, "every sample sent was read or is a gap in the sequence");
            assertTrue(skipped <= dropped, skipped + " samples missing, but only " + dropped +
                " counted dropped: a sample was lost silently");
            assertTrue(dropped > 0, "the broken connection's unconfirmed samples are counted dropped");
            System.out.printf("RC with faults %s: %d sent, %d read, %d missing, %d counted dropped, %d reconnects%n",
                faults, sent, received, skipped, dropped, pair.source.stats().get(Counter.RECONNECTS));
        }
    }

    private ChannelPair pair(final TransportMode mode) throws InterruptedException
    {
        final ChannelPair pair = new ChannelPair(TestChannels.target("target", mode, targetPort, c -> { }),
            TestChannels.source("source", mode, sourcePort, targetPort, c -> c.out(out -> out.useFallback(false)
                .reconnectMaxDelay(Duration.ofMillis(100)))));
        if (mode == TransportMode.UD)
        {
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
            while (pair.target.stats().get(Counter.POSTED_RECEIVES) == 0)
            {
                assertTrue(System.nanoTime() < deadline, "the target never accepted the UD source");
                Thread.sleep(5);
            }
        }
        return pair;
    }

    /**
     * Sends samples 0..SAMPLES-1 one at a time, each only once the target's device has decided its fate (so the
     * target never runs out of receives and nothing but the faults loses a datagram; once decided, a sample is in
     * the completion queue, held back or lost), then one more without faults, so a loss at the end shows as a gap
     * too and a sample held back comes out.
     *
     * @return how many samples the target read.
     */
    private static long sendOneByOne(final ChannelPair pair, final SoftFaultInjection faults)
    {
        final Reads reads = new Reads(pair.target);
        for (int i = 0; i < SAMPLES; i++)
        {
            ChannelPair.send(pair.source, i, 1);
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
            while (faults.decided() < i + 1)
            {
                assertTrue(System.nanoTime() < deadline, "sample " + i + " never arrived: " + faults);
                reads.read(1);
            }
            reads.drain();
        }
        SoftFaultInjection.stop();
        ChannelPair.send(pair.source, SAMPLES, 1);
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        while (reads.highest < SAMPLES)
        {
            assertTrue(System.nanoTime() < deadline, "the last sample never arrived: " + faults);
            reads.read(1);
        }
        reads.drain();
        pair.target.release(reads.in);
        return reads.count;
    }

    /** What a target read, each sample's value checked against its sequence number. */
    private static final class Reads
    {
        private final SampleChannel target;
        private final SampleBatch in = new SampleBatch(64);
        private long count;
        private long highest = -1;

        Reads(final SampleChannel target)
        {
            this.target = target;
        }

        int read(final long timeoutMillis)
        {
            final int read = target.read(in, timeoutMillis, TimeUnit.MILLISECONDS);
            for (int k = 0; k < read; k++)
            {
                final Sample sample = in.get(k);
                assertEquals((double)sample.sequence(), sample.floatValue(0), "value of " + sample.sequence());
                highest = Math.max(highest, sample.sequence());
            }
            count += read;
            return read;
        }

        void drain()
        {
            while (read(0) > 0)
            {
                continue;
            }
        }
    }

    private static long writeSome(final SampleChannel source, final SampleBatch batch, final long first)
    {
        long next = first;
        final int before = batch.size();
        final int claimed = source.claim(batch, batch.room());
        for (int i = 0; i < claimed; i++)
        {
            ChannelPair.fill(batch.get(before + i), next++);
        }
        source.write(batch);
        return next;
    }

    /** Reads what came; sequences must increase (gaps allowed: counted dropped) and values be intact. */
    private static long readInOrder(final SampleChannel target, final SampleBatch in, final long last)
    {
        long previous = last;
        final int read = target.read(in);
        for (int i = 0; i < read; i++)
        {
            final Sample sample = in.get(i);
            assertTrue(sample.sequence() > previous, "sample " + sample.sequence() + " after " + previous);
            assertEquals((double)sample.sequence(), sample.floatValue(0), "value of " + sample.sequence());
            previous = sample.sequence();
        }
        return previous;
    }
}
