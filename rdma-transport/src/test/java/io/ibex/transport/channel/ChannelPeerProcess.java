package io.ibex.transport.channel;

import io.ibex.transport.config.ChannelConfig;
import io.ibex.transport.config.TransportMode;
import io.ibex.transport.sample.Sample;

import java.io.IOException;
import java.io.PrintStream;
import java.util.concurrent.TimeUnit;

/**
 * The other process of {@link PeerKillTest} and {@link PeerPauseTest} ({@link PeerProcess}): a channel in a JVM of
 * its own, to be killed (SIGKILL) or paused (SIGSTOP). Arguments:
 * {@code target MODE IN_PORT} reads samples and prints each run of consecutive sequence numbers it read as
 * {@code R first last}; {@code source MODE IN_PORT OUT_PORT} writes samples 0, 1, 2, ... as fast as the channel
 * takes them. Both print {@code OPEN} once the channel is open, and exit when their standard input ends (the test
 * JVM went away) or after two minutes, so no process outlives its test.
 */
public final class ChannelPeerProcess
{
    /** Printed once the channel is open (a target listens then). */
    static final String OPEN = "OPEN";
    /** The prefix of a target's line about a run of samples it read. */
    static final String READ = "R ";

    private static final long LIFETIME_NANOS = TimeUnit.MINUTES.toNanos(2);

    private ChannelPeerProcess()
    {
    }

    /**
     * @param args {@code target MODE IN_PORT} or {@code source MODE IN_PORT OUT_PORT}.
     * @throws Exception on any failure (the test then sees the process end).
     */
    public static void main(final String[] args) throws Exception
    {
        final boolean source = "source".equals(args[0]);
        final TransportMode mode = TransportMode.valueOf(args[1]);
        final int inPort = Integer.parseInt(args[2]);
        final ChannelConfig config = source ?
            TestChannels.source("peer-source", mode, inPort, Integer.parseInt(args[3]), PeerKillTest::tweak) :
            TestChannels.target("peer-target", mode, inPort, PeerKillTest::tweak);
        final Thread stdinWatch = new Thread(ChannelPeerProcess::exitAtEndOfInput, "stdin-watch");
        stdinWatch.setDaemon(true);
        stdinWatch.start();
        try (SampleChannel channel = SampleChannel.open(config))
        {
            System.out.println(OPEN);
            System.out.flush();
            if (source)
            {
                write(channel);
            }
            else
            {
                read(channel, System.out);
            }
        }
    }

    private static void write(final SampleChannel channel)
    {
        final SampleBatch batch = new SampleBatch(8);
        final long deadline = System.nanoTime() + LIFETIME_NANOS;
        long next = 0;
        while (System.nanoTime() - deadline < 0)
        {
            final int before = batch.size();
            final int claimed = channel.claim(batch, batch.room());
            for (int i = 0; i < claimed; i++)
            {
                ChannelPair.fill(batch.get(before + i), next++);
            }
            if (channel.write(batch) == 0)
            {
                Thread.yield();
            }
        }
    }

    private static void read(final SampleChannel channel, final PrintStream out)
    {
        final SampleBatch batch = new SampleBatch(64);
        final long deadline = System.nanoTime() + LIFETIME_NANOS;
        while (System.nanoTime() - deadline < 0)
        {
            final int read = channel.read(batch, 100, TimeUnit.MILLISECONDS);
            long first = -1;
            long last = -1;
            for (int i = 0; i < read; i++)
            {
                final Sample sample = batch.get(i);
                if (first >= 0 && sample.sequence() != last + 1)
                {
                    out.println(READ + first + " " + last);
                    first = -1;
                }
                if (first < 0)
                {
                    first = sample.sequence();
                }
                last = sample.sequence();
            }
            if (first >= 0)
            {
                out.println(READ + first + " " + last);
                out.flush();
            }
        }
    }

    private static void exitAtEndOfInput()
    {
        try
        {
            while (System.in.read() >= 0)
            {
                continue;
            }
        }
        catch (final IOException ex)
        {
            // the parent is gone either way
        }
        Runtime.getRuntime().halt(3);
    }
}
