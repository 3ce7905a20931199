package io.ibex.samples.channel;

import io.ibex.samples.runner.format.VillasHumanWriter;
import io.ibex.transport.channel.ChannelState;
import io.ibex.transport.channel.SampleBatch;
import io.ibex.transport.channel.SampleChannel;
import io.ibex.transport.config.ChannelConfig;
import io.ibex.transport.config.TransportMode;
import io.ibex.transport.sample.Sample;
import io.ibex.transport.sample.SignalList;
import io.ibex.transport.stats.Counter;
import io.ibex.transport.stats.StatsSnapshot;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code ibex channel CONFIG NODE}: opens the sample channel of one node of a VILLAS config. A source (a node
 * with out.address) writes {@code --count} samples, sequence 0, 1, 2, ..., ts.origin from the channel's clock and
 * values from the {@link SignalPattern}, then waits for the target to close the connection (UD has none: it
 * lingers); a target reads until that many arrived and checks they are complete, in order and intact. Both print
 * the channel's statistics, and fail when a sample was lost, dropped, out of order or changed.
 * <p>
 * With {@code --output FILE} each sample written or read also goes to FILE in villas.human, for {@code ibex compare}
 * against another program's file (a VILLASnode peer's); the target then checks no values (its peer chose them)
 * and reads until COUNT samples arrived or none arrived for {@code --linger-ms} after the first, and the source
 * lingers after its last write instead of waiting for its target to close the connection.
 * <p>
 * docs/transport.md walks through this class: it is the smallest complete user of {@link SampleChannel}.
 */
@Command(
    name = "channel",
    mixinStandardHelpOptions = true,
    description = "Send samples through a sample channel: a source node writes COUNT samples, a target node reads " +
        "and checks them; both print the channel's statistics.")
public final class ChannelCommand implements Callable<Integer>
{
    @Parameters(index = "0", paramLabel = "CONFIG", description = "A VILLAS config: libconfig (.conf) or JSON (.json).")
    private Path configFile;

    @Parameters(index = "1", paramLabel = "NODE", description = "The infiniband node of the config to run.")
    private String node;

    @Option(names = { "-n", "--count" }, paramLabel = "COUNT", defaultValue = "1000",
        description = "Samples to send or expect (default: ${DEFAULT-VALUE}).")
    private long count;

    @Option(names = { "-r", "--rate" }, paramLabel = "HZ", defaultValue = "0",
        description = "Samples per second the source writes; 0: as fast as the channel takes them " +
            "(default: ${DEFAULT-VALUE}).")
    private double rate;

    @Option(names = "--stats-format", paramLabel = "FORMAT", defaultValue = "text",
        description = "The statistics at the end: text (a table, after a summary line) or json (alone on " +
            "standard output) (default: ${DEFAULT-VALUE}).")
    private String statsFormat;

    @Option(names = "--timeout-ms", paramLabel = "MILLIS", defaultValue = "10000",
        description = "How long to wait for a peer, and for progress once samples flow (default: ${DEFAULT-VALUE}).")
    private long timeoutMillis;

    @Option(names = "--linger-ms", paramLabel = "MILLIS", defaultValue = "1000",
        description = "UD source, or a source with --output: how long to wait after the last write before " +
            "closing, rather than for the target to close the connection; target with --output: how long no " +
            "sample may arrive after the first before it ends (default: ${DEFAULT-VALUE}).")
    private long lingerMillis;

    @Option(names = { "-o", "--output" }, paramLabel = "FILE",
        description = "Write every sample written (source) or read (target) to FILE as villas.human. The target " +
            "then checks no values and ends after COUNT samples or when none arrived for --linger-ms after the " +
            "first (default: no file).")
    private Path output;

    @Option(names = "--memory-bound", paramLabel = "PERCENT",
        description = "Measure this process's memory (heap after a full GC, direct buffers, native memory " +
            "tracking if on, anonymous resident set) after the warm-up and after the last sample, and fail if " +
            "heap, direct or native memory grew by more than PERCENT (default: no measurement).")
    private Double memoryBound;

    @Option(names = "--warm-up", paramLabel = "COUNT",
        description = "With --memory-bound: the samples before the first measurement, so that what the first " +
            "samples allocate once (pools, compiled code) does not count as growth (default: a tenth of COUNT).")
    private Long warmUp;

    @Spec
    private CommandSpec spec;

    private MemoryFootprint before;
    private SampleFile file;

    /**
     * Runs the node.
     *
     * @return 0 when every sample went through; failures are thrown and reported by the ibex command.
     */
    @Override
    public Integer call()
    {
        checkArguments();
        final ChannelConfig config = ChannelConfig.read(configFile, node);
        final String problem;
        final SampleChannel channel = SampleChannel.open(config);
        try
        {
            file = output == null ? null : new SampleFile(output, config.signals(), config.out().vectorize());
            problem = config.isSource() ? writeSamples(channel) : output != null ? recordSamples(channel) :
                readSamples(channel);
            if (file != null)
            {
                file.close();
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + output, ex);
        }
        finally
        {
            channel.close();
        }
        final StatsSnapshot stats = channel.stats().snapshot();
        final long dropped = stats.counter(Counter.DROPPED);
        final long invalid = stats.counter(Counter.INVALID);
        printStats(stats);
        if (problem != null || dropped > 0 || invalid > 0)
        {
            throw new IllegalStateException(config.name() + ": " + (problem != null ? problem + "; " : "") +
                dropped + " dropped, " + invalid + " invalid");
        }
        return 0;
    }

    /** @return null when all samples were written and the target closed the connection, else what went wrong. */
    private String writeSamples(final SampleChannel channel) throws IOException
    {
        final ChannelConfig config = channel.config();
        if (!awaitPeer(channel))
        {
            final String last = channel.lastConnectFailure();
            return "no target connected at " + text(config.out().address()) + " within " + timeoutMillis + " ms" +
                (last != null ? " (last try: " + last + ")" : "");
        }
        final SignalList signals = config.signals();
        final EpochNanoClock clock = channel.clock();
        final IdleStrategy idle = config.idle().newStrategy();
        final SampleBatch batch = new SampleBatch(rate > 0 ? 1 : config.out().vectorize());
        final long start = System.nanoTime();
        long stalledSince = start;
        long sequence = 0;
        while (sequence < count || !batch.isEmpty())
        {
            if (rate > 0 && batch.isEmpty())
            {
                LockSupport.parkNanos(start + (long)(sequence * 1e9 / rate) - System.nanoTime());
            }
            final int held = batch.size();
            final int claimed = channel.claim(batch, (int)Math.min(batch.capacity() - held, count - sequence));
            final long now = clock.nanoTime();
            for (int i = 0; i < claimed; i++)
            {
                final Sample sample = batch.get(held + i).sequence(sequence).origin(now);
                SignalPattern.fill(sample, signals, sequence++);
                if (file != null)
                {
                    // The flags a receiver gives these fields, so that the file writes them.
                    file.hold(sample.flags(sample.flags() | Sample.HAS_SEQUENCE | Sample.HAS_TS_ORIGIN));
                }
            }
            measureAfterWarmUp(sequence);
            final int written = channel.write(batch);
            if (written > 0)
            {
                if (file != null)
                {
                    file.writeHeld(written);
                }
                stalledSince = System.nanoTime();
                idle.reset();
            }
            else if (System.nanoTime() - stalledSince > TimeUnit.MILLISECONDS.toNanos(timeoutMillis))
            {
                final long lastTaken = sequence - batch.size() - 1;
                channel.release(batch);
                return "the channel took no sample for " + timeoutMillis + " ms after sequence " + lastTaken +
                    " (it is " + channel.state() + ")";
            }
            else
            {
                idle.idle();
            }
        }
        final double seconds = (System.nanoTime() - start) / 1e9;
        final MemoryFootprint after = measureAtEnd();
        summary(String.format("%s: wrote %d samples of %d signals to %s over %s in %.3f s", config.name(), count,
            signals.size(), text(config.out().address()), config.mode(), seconds));
        final String memory = memoryGrowth(after);
        final String done = awaitTargetDone(channel);
        return memory == null ? done : done == null ? memory : memory + "; " + done;
    }

    /**
     * RC and UC: an ibex target closes the connection once it has every sample, and only then may the source go
     * (closing earlier would flush sends still in flight). UD has no connection, and with --output the peer may be
     * another program (a VILLASnode target never closes): linger, then go.
     */
    private String awaitTargetDone(final SampleChannel channel)
    {
        if (channel.config().mode() == TransportMode.UD || output != null)
        {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(lingerMillis));
            return null;
        }
        final IdleStrategy idle = channel.config().idle().newStrategy();
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (channel.state() == ChannelState.CONNECTED)
        {
            if (System.nanoTime() - deadline > 0)
            {
                return "the target did not close the connection within " + timeoutMillis + " ms of the last sample";
            }
            idle.idle();
        }
        return null;
    }

    /** @return null when exactly COUNT samples arrived in order and intact, else what went wrong. */
    private String readSamples(final SampleChannel channel)
    {
        final ChannelConfig config = channel.config();
        final ArrivalCheck check = new ArrivalCheck(config.signals());
        final SampleBatch batch = new SampleBatch(config.in().vectorize());
        long start = 0;
        while (check.received() < count)
        {
            if (channel.read(batch, timeoutMillis, TimeUnit.MILLISECONDS) == 0)
            {
                if (check.received() == 0 && channel.state() != ChannelState.CONNECTED)
                {
                    return "no source connected to " + text(config.in().address()) + " within " + timeoutMillis +
                        " ms (--timeout-ms), so it stopped listening";
                }
                return "no sample arrived for " + timeoutMillis + " ms (it is " + channel.state() + "); " +
                    check.problem(count);
            }
            start = check.received() == 0 ? System.nanoTime() : start;
            for (int i = 0; i < batch.size(); i++)
            {
                check.accept(batch.get(i));
            }
            measureAfterWarmUp(check.received());
        }
        channel.release(batch);
        final double seconds = (System.nanoTime() - start) / 1e9;
        final MemoryFootprint after = measureAtEnd();
        final String problem = check.problem(count);
        summary(String.format("%s: read %d samples on %s over %s in %.3f s from the first: %s", config.name(),
            check.received(), text(config.in().address()), config.mode(), seconds,
            problem == null ? "complete, in order, intact" : problem));
        final String memory = memoryGrowth(after);
        return problem == null ? memory : memory == null ? problem : problem + "; " + memory;
    }

    /** With --output: @return null when at least one sample arrived and all went to the file, else what went wrong. */
    private String recordSamples(final SampleChannel channel) throws IOException
    {
        final ChannelConfig config = channel.config();
        final SampleBatch batch = new SampleBatch(config.in().vectorize());
        long received = 0;
        long start = 0;
        while (received < count)
        {
            final long wait = received == 0 ? timeoutMillis : lingerMillis;
            if (channel.read(batch, wait, TimeUnit.MILLISECONDS) == 0)
            {
                if (received == 0)
                {
                    return "no sample arrived for " + timeoutMillis + " ms (it is " + channel.state() + ")";
                }
                break;
            }
            start = received == 0 ? System.nanoTime() : start;
            for (int i = 0; i < batch.size(); i++)
            {
                file.write(batch.get(i));
            }
            received += batch.size();
        }
        channel.release(batch);
        summary(String.format("%s: read %d samples on %s over %s in %.3f s from the first, wrote them to %s",
            config.name(), received, text(config.in().address()), config.mode(), (System.nanoTime() - start) / 1e9,
            output));
        return null;
    }

    /** With --memory-bound: the first measurement, once the warm-up's samples went through. */
    private void measureAfterWarmUp(final long samples)
    {
        if (memoryBound != null && before == null && samples >= warmUpCount())
        {
            // The first measurement creates the management beans it reads, which stay: it only prepares.
            MemoryFootprint.measure();
            before = MemoryFootprint.measure();
        }
    }

    /**
     * With --memory-bound: the second measurement, after the last sample and before anything is printed (the
     * first formatting of a number fills caches of the JDK's that stay on the heap).
     */
    private MemoryFootprint measureAtEnd()
    {
        return memoryBound == null ? null : MemoryFootprint.measure();
    }

    /** With --memory-bound: prints both measurements and says what grew too much. */
    private String memoryGrowth(final MemoryFootprint after)
    {
        if (after == null)
        {
            return null;
        }
        summary(String.format("memory after %d of %d samples and after the last: %s", warmUpCount(), count,
            before.compare(after)));
        final String excess = before.excess(after, memoryBound);
        return excess == null ? null : "memory " + excess;
    }

    private long warmUpCount()
    {
        return warmUp != null ? warmUp : count / 10;
    }

    private boolean awaitPeer(final SampleChannel channel)
    {
        try
        {
            return channel.awaitConnected(timeoutMillis, TimeUnit.MILLISECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The summary line goes to standard output with the text table, to standard error beside JSON. */
    private void summary(final String line)
    {
        final PrintWriter to = "json".equals(statsFormat) ? spec.commandLine().getErr() :
            spec.commandLine().getOut();
        to.println(line);
        to.flush();
    }

    private void printStats(final StatsSnapshot stats)
    {
        final PrintWriter out = spec.commandLine().getOut();
        out.print("json".equals(statsFormat) ? stats.toJson() + System.lineSeparator() : stats.toText());
        out.flush();
    }

    private static String text(final InetSocketAddress address)
    {
        return address.getHostString() + ":" + address.getPort();
    }

    private void checkArguments()
    {
        if (count < 1)
        {
            throw new IllegalArgumentException("--count " + count + " must be at least 1");
        }
        if (!(rate >= 0 && rate < Double.POSITIVE_INFINITY))
        {
            throw new IllegalArgumentException("--rate " + rate + " must be 0 (no pacing) or a positive number");
        }
        if (!"text".equals(statsFormat) && !"json".equals(statsFormat))
        {
            throw new IllegalArgumentException("--stats-format " + statsFormat + " must be text or json");
        }
        if (memoryBound != null && !(memoryBound >= 0 && memoryBound < Double.POSITIVE_INFINITY))
        {
            throw new IllegalArgumentException("--memory-bound " + memoryBound + " must be a percentage of 0 or more");
        }
        if (warmUp != null && (warmUp < 0 || warmUp >= count))
        {
            throw new IllegalArgumentException("--warm-up " + warmUp + " must be at least 0 and less than --count " +
                count);
        }
        if (timeoutMillis < 1 || lingerMillis < 0)
        {
            throw new IllegalArgumentException("--timeout-ms " + timeoutMillis + " must be at least 1 and " +
                "--linger-ms " + lingerMillis + " at least 0");
        }
    }

    /**
     * A villas.human file of the samples written or read. A source's samples are held as copies until the channel
     * took them ({@link #writeHeld}), so the file has only samples the channel accepted.
     */
    private static final class SampleFile
    {
        private final FileChannel out;
        private final VillasHumanWriter writer;
        private final Sample[] held;
        private int heldCount;

        SampleFile(final Path path, final SignalList signals, final int maxHeld) throws IOException
        {
            out = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
            writer = new VillasHumanWriter(out, signals, 1 << 16);
            held = new Sample[maxHeld];
        }

        void write(final Sample sample) throws IOException
        {
            writer.write(sample);
        }

        /** Keeps a copy of a sample the channel has not taken yet: held samples are taken in order. */
        void hold(final Sample sample)
        {
            final int length = Sample.slotLength(sample.capacity());
            if (held[heldCount] == null || held[heldCount].capacity() < sample.capacity())
            {
                held[heldCount] = new Sample().wrap(new UnsafeBuffer(new byte[length]), 0, sample.capacity());
            }
            final Sample copy = held[heldCount++];
            copy.buffer().putBytes(copy.offset(), sample.buffer(), sample.offset(), length);
        }

        /** Writes the first {@code count} held samples, which the channel took, and keeps the rest in order. */
        void writeHeld(final int count) throws IOException
        {
            for (int i = 0; i < count; i++)
            {
                writer.write(held[i]);
            }
            for (int i = count; i < heldCount; i++)
            {
                final Sample taken = held[i - count];
                held[i - count] = held[i];
                held[i] = taken;
            }
            heldCount -= count;
        }

        void close() throws IOException
        {
            try (FileChannel closing = out)
            {
                writer.flush();
            }
        }
    }
}
