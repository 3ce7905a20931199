package io.ibex.benchmarks;

import io.ibex.transport.channel.SampleBatch;
import io.ibex.transport.channel.SampleChannel;
import io.ibex.transport.config.ChannelConfig;
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

import java.io.IOException;
import java.net.InetSocketAddress;
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
    static final long DRAIN_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);

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

    /**
     * Where the target and its reader are: {@value #READER_THREAD}, a thread of this JVM; or (soft on loopback only,
     * not run by default) {@value #READER_SHM_2JVM} or {@value #READER_TCP_2JVM}, a second JVM of this host
     * ({@link ChannelReaderProcess}) linked through shared memory or over TCP.
     */
    @Param({ READER_THREAD })
    public String reader;

    static final String READER_THREAD = "thread";
    static final String READER_SHM_2JVM = "shm-2jvm";
    static final String READER_TCP_2JVM = "tcp-2jvm";

    /** Whether the reader process yields the core on an empty poll rather than spin: for tests, not a parameter. */
    boolean readerYields;

    private final SampleBatch batch = new SampleBatch(BATCH);
    private AutoCloseable[] resources; // closed in this order
    private SampleChannel source;
    private Reader readerAgent;
    private PeerThread readerThread;
    private EchoProcess readerProcess;
    private long written;

    /**
     * Connects the two channels and starts the reader thread, or the reader process.
     *
     * @throws IOException if the reader process cannot be started or talked to.
     * @throws InterruptedException if interrupted while the source connects to the reader process.
     */
    @Setup
    public void setUp() throws IOException, InterruptedException
    {
        written = 0;
        if (READER_THREAD.equals(reader))
        {
            final ConnectedChannels channels = new ConnectedChannels(provider, address,
                (target) -> configureTarget(target, values), this::configureSource);
            source = channels.source();
            readerAgent = new Reader(channels.target());
            readerThread = new PeerThread(readerAgent);
            resources = new AutoCloseable[]{ readerThread, channels };
            return;
        }
        if (!READER_SHM_2JVM.equals(reader) && !READER_TCP_2JVM.equals(reader))
        {
            throw new IllegalArgumentException("reader " + reader + ": expected " + READER_THREAD + ", " +
                READER_SHM_2JVM + " or " + READER_TCP_2JVM);
        }
        final int port = ConnectedChannels.freePort(address);
        readerProcess = new EchoProcess(ChannelReaderProcess.class, READER_SHM_2JVM.equals(reader), readerYields,
            Integer.toString(values), address, Integer.toString(port));
        try
        {
            readerProcess.awaitReady();
            final ChannelConfig.Builder config = ChannelConfig.builder().name("bench-source").provider(provider)
                .in(in -> in.address(new InetSocketAddress(address, ConnectedChannels.freePort(address))))
                .out(out -> out.address(new InetSocketAddress(address, port)));
            configureSource(config);
            source = SampleChannel.open(config.build());
            resources = new AutoCloseable[]{ source, readerProcess };
            ConnectedChannels.awaitConnected(source);
        }
        catch (final IOException | RuntimeException | InterruptedException ex)
        {
            CloseHelper.quietCloseAll(source, readerProcess);
            throw ex;
        }
    }

    /**
     * Sets a target's options: in.vectorize {@value #READ_VECTORIZE}, room for a few reads' worth of receives.
     */
    static void configureTarget(final ChannelConfig.Builder target, final int values)
    {
        target.signals(SignalList.ofCount(values)).in(in -> in.vectorize(READ_VECTORIZE)
            .bufferSubtraction(2 * READ_VECTORIZE).maxWrs(256).cqSize(256));
    }

    private void configureSource(final ChannelConfig.Builder config)
    {
        config.signals(SignalList.ofCount(values)).out(out -> out.vectorize(vectorize).sendInline(inline)
            .maxInlineData(inline ? Sample.wireLength(values) : 0));
    }

    private void checkReaderAlive()
    {
        if (readerThread != null)
        {
            readerThread.checkAlive();
        }
        else
        {
            readerProcess.checkAlive();
        }
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
                checkReaderAlive();
            }
        }
        while (!batch.isEmpty())
        {
            if (source.write(batch) == 0)
            {
                checkReaderAlive();
            }
        }
    }

    /**
     * Waits until the reader has every sample written (at most 30 s), then stops it and closes the channels.
     *
     * @throws IllegalStateException if samples are missing.
     * @throws IOException if the reader process cannot be talked to.
     */
    @TearDown
    public void tearDown() throws IOException
    {
        try
        {
            final long received;
            if (readerThread != null)
            {
                final long deadline = System.nanoTime() + DRAIN_TIMEOUT_NANOS;
                while (readerAgent.received() < written && System.nanoTime() < deadline)
                {
                    readerThread.checkAlive();
                    Thread.yield();
                }
                received = readerAgent.received();
            }
            else
            {
                readerProcess.writeLine(Long.toString(written)); // the reader process answers once it has them all
                received = Long.parseLong(readerProcess.readLine());
            }
            if (received != written)
            {
                throw new IllegalStateException(written + " samples written, " + received + " read");
            }
        }
        finally
        {
            CloseHelper.closeAll(resources);
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
