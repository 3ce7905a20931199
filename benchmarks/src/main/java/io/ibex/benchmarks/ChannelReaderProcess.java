package io.ibex.benchmarks;

import io.ibex.transport.channel.SampleChannel;
import io.ibex.transport.config.ChannelConfig;
import org.agrona.concurrent.IdleStrategy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * The reader of a two-JVM {@link ChannelThroughputBenchmark}, in a JVM of its own ({@link EchoProcess}): a target
 * channel on the soft provider that reads and checks every sample, until it has read as many as the line on its
 * input says were written (or 30 s have passed since that line), and then prints how many it read.
 */
public final class ChannelReaderProcess
{
    private static volatile long expected = -1;

    private ChannelReaderProcess()
    {
    }

    /**
     * @param args float values per sample, the address and port to listen on, and whether to yield the core on an
     *             empty poll (else spin).
     * @throws Exception if the channel cannot open, or a sample is missing or out of order.
     */
    public static void main(final String[] args) throws Exception
    {
        final BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        final ChannelConfig.Builder config = ChannelConfig.builder().name("bench-target").provider(Transports.SOFT)
            .in(in -> in.address(new InetSocketAddress(args[1], Integer.parseInt(args[2]))));
        ChannelThroughputBenchmark.configureTarget(config, Integer.parseInt(args[0]));
        try (SampleChannel target = SampleChannel.open(config.build()))
        {
            final ChannelThroughputBenchmark.Reader reader = new ChannelThroughputBenchmark.Reader(target);
            final IdleStrategy idle = EchoProcess.idleStrategy(Boolean.parseBoolean(args[3]));
            final Thread watcher = new Thread(() -> awaitExpected(stdin), "channel-reader-input");
            watcher.setDaemon(true);
            watcher.start();
            System.out.println(EchoProcess.READY);
            System.out.flush();
            while (expected < 0)
            {
                idle.idle(reader.doWork());
            }
            final long deadline = System.nanoTime() + ChannelThroughputBenchmark.DRAIN_TIMEOUT_NANOS;
            while (reader.received() < expected && System.nanoTime() - deadline < 0)
            {
                idle.idle(reader.doWork());
            }
            System.out.println(reader.received());
            System.out.flush();
        }
    }

    private static void awaitExpected(final BufferedReader in)
    {
        try
        {
            final String line = in.readLine();
            expected = line == null ? 0 : Long.parseLong(line);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
