package io.ibex.samples.runner;

import io.ibex.samples.runner.node.ConfiguredNode;
import io.ibex.samples.runner.node.InfinibandNode;
import io.ibex.samples.runner.node.Node;
import io.ibex.samples.runner.node.NodeContext;
import io.ibex.samples.runner.node.NodeException;
import io.ibex.samples.runner.node.SampleBlock;
import io.ibex.transport.config.internal.ConfigGroup;
import io.ibex.transport.config.internal.GroupBinder;
import io.ibex.transport.sample.Sample;
import io.ibex.transport.sample.SampleClock;
import io.ibex.transport.sample.SignalList;
import org.agrona.concurrent.SystemNanoClock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Node types for the runner's tests, standing in for the signal and file nodes: {@code counter} produces
 * {@code count} samples (sequence 0, 1, ...; value i of sample n is n * 10 + i) and then ends, or none at all with
 * {@code stall = true} (its {@link Node#shortfall() shortfall} then says so); {@code collector}
 * keeps what it is written, at most {@code take} samples per write (back-pressure), and fails at its
 * {@code fail_at}-th sample if given.
 */
final class TestNodes
{
    private TestNodes()
    {
    }

    /**
     * Writes a config into a file and reads it with these node types.
     *
     * @param file where the config goes; its directory is the runner's base directory.
     * @param text the config.
     * @return the config read.
     * @throws IOException if the file cannot be written.
     */
    static RunConfig read(final Path file, final String text) throws IOException
    {
        Files.writeString(file, text);
        return RunConfig.read(file, new NodeContext(file.getParent(), new SampleClock(),
            SystemNanoClock.INSTANCE), types());
    }

    /** @return counter, collector and infiniband. */
    static NodeTypes types()
    {
        return new NodeTypes(Map.of("counter", Counter::create, "collector", Collector::create, "infiniband",
            InfinibandNode.FACTORY));
    }

    /** A node that counts: {@code count} samples of {@code values} values, as fast as it is read. */
    static final class Counter implements Node
    {
        private final String name;
        private final long count;
        private final SignalList signals;
        private final NodeContext context;
        private final boolean stall;
        private long next;

        private Counter(final String name, final long count, final int values, final NodeContext context,
            final boolean stall)
        {
            this.name = name;
            this.count = count;
            this.stall = stall;
            this.signals = SignalList.ofCount(values);
            this.context = context;
        }

        static ConfiguredNode create(final String name, final ConfigGroup settings, final NodeContext context)
        {
            final GroupBinder binder = GroupBinder.of(settings);
            binder.string("type");
            final Long count = binder.integer("count");
            final Integer values = binder.int32("values");
            final Boolean stall = binder.bool("stall");
            final GroupBinder in = binder.group("in");
            final ConfiguredNode node = new ConfiguredNode(new Counter(name, count == null ? 10 : count,
                values == null ? 3 : values, context, Boolean.TRUE.equals(stall)), in.value("hooks"),
                binder.group("out").value("hooks"));
            binder.finish();
            return node;
        }

        @Override
        public String name()
        {
            return name;
        }

        @Override
        public String type()
        {
            return "counter";
        }

        @Override
        public SignalList signals()
        {
            return signals;
        }

        @Override
        public boolean readable()
        {
            return true;
        }

        @Override
        public boolean writable()
        {
            return false;
        }

        @Override
        public void start()
        {
        }

        @Override
        public int read(final SampleBlock block)
        {
            if (stall)
            {
                block.size(0);
                return 0;
            }
            if (next == count)
            {
                return END;
            }
            final int n = (int)Math.min(block.slots(), count - next);
            for (int i = 0; i < n; i++)
            {
                final long now = context.clock().nanoTime();
                final Sample sample = block.get(i).sequence(next).origin(now)
                    .flags(Sample.HAS_SEQUENCE | Sample.HAS_TS_ORIGIN | Sample.HAS_DATA).length(signals.size());
                for (int v = 0; v < signals.size(); v++)
                {
                    sample.floatValue(v, next * 10 + v);
                }
                next++;
            }
            block.size(n);
            return n;
        }

        @Override
        public int write(final SampleBlock block, final int from, final int count)
        {
            throw new UnsupportedOperationException("a counter is not writable");
        }

        @Override
        public void stop()
        {
        }

        @Override
        public String shortfall()
        {
            return next == 0 && count > 0 ? "made none of the " + count + " samples it was asked for" : null;
        }

        @Override
        public String summary()
        {
            return "counted " + next + " of " + count;
        }

        @Override
        public void close()
        {
        }
    }

    /** A node that keeps the sequence and values of what it is written. */
    static final class Collector implements Node
    {
        private final String name;
        private final int take;
        private final long failAt;
        private final SignalList signals;
        private final List<Long> sequences = new ArrayList<>();
        private final List<double[]> values = new ArrayList<>();
        private volatile int started;
        private volatile int stopped;
        private String writerCpus;

        private Collector(final String name, final int take, final long failAt, final int capacity)
        {
            this.name = name;
            this.take = take;
            this.failAt = failAt;
            this.signals = SignalList.ofCount(capacity);
        }

        static ConfiguredNode create(final String name, final ConfigGroup settings, final NodeContext context)
        {
            final GroupBinder binder = GroupBinder.of(settings);
            binder.string("type");
            final Integer take = binder.int32("take");
            final Long failAt = binder.integer("fail_at");
            final Integer capacity = binder.int32("values");
            final ConfiguredNode node = new ConfiguredNode(new Collector(name, take == null ? Integer.MAX_VALUE : take,
                failAt == null ? -1 : failAt, capacity == null ? 64 : capacity), binder.group("in").value("hooks"),
                binder.group("out").value("hooks"));
            binder.finish();
            return node;
        }

        @Override
        public String name()
        {
            return name;
        }

        @Override
        public String type()
        {
            return "collector";
        }

        @Override
        public SignalList signals()
        {
            return signals;
        }

        @Override
        public boolean readable()
        {
            return false;
        }

        @Override
        public boolean writable()
        {
            return true;
        }

        @Override
        public void start()
        {
            started++;
        }

        @Override
        public int read(final SampleBlock block)
        {
            throw new UnsupportedOperationException("a collector is not readable");
        }

        @Override
        public synchronized int write(final SampleBlock block, final int from, final int count)
        {
            if (writerCpus == null)
            {
                writerCpus = cpusAllowed();
            }
            final int n = Math.min(take, count);
            for (int i = 0; i < n; i++)
            {
                final Sample sample = block.get(from + i);
                if (sequences.size() == failAt)
                {
                    throw new NodeException(name, "failed at sample " + failAt + " as told", null);
                }
                sequences.add(sample.sequence());
                final double[] sampleValues = new double[sample.length()];
                for (int v = 0; v < sampleValues.length; v++)
                {
                    sampleValues[v] = sample.floatValue(v);
                }
                values.add(sampleValues);
            }
            return n;
        }

        @Override
        public void stop()
        {
            stopped++;
        }

        @Override
        public String summary()
        {
            return "collected " + sequences().size();
        }

        @Override
        public void close()
        {
        }

        synchronized List<Long> sequences()
        {
            return List.copyOf(sequences);
        }

        synchronized List<double[]> values()
        {
            return List.copyOf(values);
        }

        int started()
        {
            return started;
        }

        /** @return the CPUs the thread of the first write could run on, as Linux lists them ("0-1"). */
        synchronized String writerCpus()
        {
            return writerCpus;
        }

        private static String cpusAllowed()
        {
            try
            {
                return Files.readAllLines(Path.of("/proc/thread-self/status")).stream()
                    .filter((line) -> line.startsWith("Cpus_allowed_list:")).findFirst().orElseThrow()
                    .substring("Cpus_allowed_list:".length()).trim();
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }

        int stopped()
        {
            return stopped;
        }
    }
}
