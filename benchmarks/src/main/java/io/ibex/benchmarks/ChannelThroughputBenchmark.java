package io.ibex.benchmarks;

import io.ibex.transport.channel.SampleBatch;
import io.ibex.transport.channel.SampleChannel;
import io.ibex.transport.sample.Sample;
import io.ibex.transport.sample.SignalList;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Samples per second streamed from a source channel to a target channel over RC, in one process: the JMH thread
 * claims a batch of {@value #BATCH} samples of {@link #values} float values and writes it (the channel posts
 * up to out.vectorize of them per call and pushes back when its send queue is full); a reader thread busy-polls
 * the target (in.vectorize {@value #READ_VECTORIZE}) and checks that every sample arrives, in order. RC's flow
 * control keeps the writer at the reader's pace, so the rate is the stream's. Run with {@code -prof gc} to see
 * that write and read allocate nothing ({@code gc.alloc.rate.norm}, per sample).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ChannelThroughputBenchmark
{
    /** Samples claimed and written per benchmark invocation: a multiple of every {@link #vectorize}. */
    static final int BATCH = 32;
    /** in.vectorize of the target: samples the reader takes per read. */
    static final int READ_VECTORIZE = 32;
    private static final long DRAIN_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);

    /** Float values in each sample: {@code 24 + 8 * values} bytes on the wire (32, 88, 536). */
    @Param({ "1", "8", "64" })
    public int values;

    /** out.vectorize: samples per post list. */
    @Param({ "1", "8", "32" })
    public int vectorize;

    /**
     * out.send_inline, with out.max_inline_data the sample's wire length when on (a device refuses more than its
     * maximum: 256 B on soft).
     */
    @Param({ "true", "false" })
    public boolean inline;

    /** The RDMA provider both channels run on. */
    @Param({ "soft" })
    public String provider;

    /** The address the channels listen on: loopback for soft, the Soft-RoCE device's in the guest. */
    @Param({ "127.0.0.1" })
    public String address;

    private final SampleBatch batch = new SampleBatch(BATCH);
    private ConnectedChannels channels;
    private SampleChannel source;
    private Reader reader;
    private PeerThread readerThread;
    private long written;

    /**
     * Connects the two channels and starts the reader thread.
     */
    @Setup
    public void setUp()
    {
        final SignalList signals = SignalList.ofCount(values);
        channels = new ConnectedChannels(provider, address,
            target -> target.signals(signals).inVectorize(READ_VECTORIZE).inBufferSubtraction(2 * READ_VECTORIZE)
                .inMaxWrs(256).inCqSize(256),
            out -> out.signals(signals).outVectorize(vectorize).outSendInline(inline)
                .outMaxInlineData(inline ? Sample.wireLength(values) : 0));
        source = channels.source();
        reader = new Reader(channels.target());
        readerThread = new PeerThread(reader);
        written = 0;
    }

    /**
     * Claims {@value #BATCH} samples, numbers them and writes them all.
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void write()
    {
        while (batch.size() < BATCH)
        {
            final int before = batch.size();
            final int claimed = source.claim(batch, BATCH - before);
            for (int i = 0; i < claimed; i++)
            {
                batch.get(before + i).sequence(written++);
            }
            if (claimed == 0)
            {
                readerThread.checkAlive();
            }
        }
        while (!batch.isEmpty())
        {
            if (source.write(batch) == 0)
            {
                readerThread.checkAlive();
            }
        }
    }

    /**
     * Waits until the reader has every sample written, then stops it and closes the channels.
     *
     * @throws IllegalStateException if samples are missing after 30 s.
     */
    @TearDown
    public void tearDown()
    {
        try
        {
            final long deadline = System.nanoTime() + DRAIN_TIMEOUT_NANOS;
            while (reader.received() < written && System.nanoTime() < deadline)
            {
                readerThread.checkAlive();
                Thread.yield();
            }
            if (reader.received() != written)
            {
                throw new IllegalStateException(written + " samples written, " + reader.received() + " read");
            }
        }
        finally
        {
            CloseHelper.closeAll(readerThread, channels);
        }
    }

    /**
     * Reads the target and checks that the samples come in order, none missing.
     */
    static final class Reader implements Agent
    {
        private final SampleChannel channel;
        private final SampleBatch in = new SampleBatch(READ_VECTORIZE);
        private volatile long received;

        Reader(final SampleChannel channel)
        {
            this.channel = channel;
        }

        @Override
        public int doWork()
        {
            final int count = channel.read(in);
            long expected = received;
            for (int i = 0; i < count; i++)
            {
                final long sequence = in.get(i).sequence();
                if (sequence != expected)
                {
                    throw new IllegalStateException("sample " + sequence + " came where " + expected + " was due");
                }
                expected++;
            }
            received = expected;
            return count;
        }

        /** @return how many samples arrived so far. */
        long received()
        {
            return received;
        }

        @Override
        public String roleName()
        {
            return "channel-reader";
        }
    }
}
