package io.ibex.transport.channel;

import io.ibex.transport.config.ChannelConfig;
import io.ibex.transport.sample.Sample;

import java.util.concurrent.TimeUnit;

import static io.ibex.transport.channel.TestChannels.WAIT_MILLIS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A source and a target channel opened together and connected, with the sending and checking steps the tests
 * share: sample i carries sequence i, ts.origin (i, i) and value 0 = i.
 */
final class ChannelPair implements AutoCloseable
{
    final SampleChannel target;
    final SampleChannel source;

    ChannelPair(final ChannelConfig targetConfig, final ChannelConfig sourceConfig) throws InterruptedException
    {
        target = SampleChannel.open(targetConfig);
        try
        {
            source = SampleChannel.open(sourceConfig);
        }
        catch (final RuntimeException ex)
        {
            target.close();
            throw ex;
        }
        awaitConnected(source);
        awaitConnected(target);
    }

    static void awaitConnected(final SampleChannel channel) throws InterruptedException
    {
        assertTrue(channel.awaitConnected(WAIT_MILLIS, TimeUnit.MILLISECONDS), channel + " did not connect");
    }

    /** Claims and writes samples first..first+count-1, waiting while the channel pushes back. */
    static void send(final SampleChannel channel, final long first, final int count)
    {
        final SampleBatch batch = new SampleBatch(Math.min(count, 64));
        long next = first;
        final long end = first + count;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        while (next < end || !batch.isEmpty())
        {
            final int wanted = (int)Math.min(batch.capacity() - batch.size(), end - next);
            final int before = batch.size();
            final int claimed = channel.claim(batch, wanted);
            for (int i = 0; i < claimed; i++)
            {
                fill(batch.get(before + i), next++);
            }
            if (channel.write(batch) > 0)
            {
                deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
            }
            else
            {
                assertTrue(System.nanoTime() < deadline, channel + " took nothing for " + WAIT_MILLIS + " ms");
                Thread.yield();
            }
        }
    }

    static void fill(final Sample sample, final long sequence)
    {
        sample.sequence(sequence).origin(sequence, sequence % 1_000_000_000L).floatValue(0, sequence);
    }

    /** Reads samples first..first+count-1 in order, each checked. */
    static void receive(final SampleChannel channel, final long first, final int count)
    {
        final SampleBatch batch = new SampleBatch(64);
        long expected = first;
        while (expected < first + count)
        {
            final int read = channel.read(batch, WAIT_MILLIS, TimeUnit.MILLISECONDS);
            assertTrue(read > 0, channel + ": sample " + expected + " did not come");
            for (int i = 0; i < read; i++)
            {
                final Sample sample = batch.get(i);
                assertEquals(expected, sample.sequence(), "sequence");
                assertEquals(expected, sample.originSeconds(), "ts.origin of " + expected);
                assertEquals((double)expected, sample.floatValue(0), "value of " + expected);
                expected++;
            }
        }
        channel.release(batch);
    }

    @Override
    public void close()
    {
        source.close();
        target.close();
    }
}
