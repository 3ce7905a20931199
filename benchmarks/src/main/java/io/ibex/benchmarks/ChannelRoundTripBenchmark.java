package io.ibex.benchmarks;

import io.ibex.rdma.Providers;
import io.ibex.transport.sample.Sample;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Round trip of one sample between two sample channels over RC, busy-polled on both sides
 * ({@link ChannelPingPong}), beside the verbs-level RC SEND/RECV ping-pong ({@link RcPingPong}) of messages of
 * the same length (the sample's wire image, {@code 24 + 8 * values} bytes) on the same provider, in one run so
 * the figures sit side by side: the difference is what the channel adds. Run with {@code -prof gc} to see that
 * claim, write and read allocate nothing ({@code gc.alloc.rate.norm}).
 */
@State(Scope.Benchmark)
@BenchmarkMode({ Mode.SampleTime, Mode.AverageTime })
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ChannelRoundTripBenchmark
{
    /** The {@link #path} of the sample channels' ping-pong. */
    public static final String CHANNEL = "channel";
    /** The {@link #path} of the verbs-level ping-pong. */
    public static final String VERBS = "verbs";
    /** Paths to an echo in a second JVM of this host (soft only), through shared memory or over TCP. */
    public static final String CHANNEL_SHM_2JVM = "channel-shm-2jvm";
    /** See {@link #CHANNEL_SHM_2JVM}. */
    public static final String CHANNEL_TCP_2JVM = "channel-tcp-2jvm";
    /** See {@link #CHANNEL_SHM_2JVM}. */
    public static final String VERBS_SHM_2JVM = "verbs-shm-2jvm";
    /** See {@link #CHANNEL_SHM_2JVM}. */
    public static final String VERBS_TCP_2JVM = "verbs-tcp-2jvm";

    /** Float values in each sample. */
    @Param({ "1", "8", "64" })
    public int values;

    /**
     * {@value #CHANNEL} for sample channels, {@value #VERBS} for SEND/RECV on two queue pairs, both in this JVM; or
     * {@value #CHANNEL_SHM_2JVM}, {@value #CHANNEL_TCP_2JVM}, {@value #VERBS_SHM_2JVM}, {@value #VERBS_TCP_2JVM}
     * (on soft, not run by default) with the echo in a second JVM, linked through shared memory or over TCP.
     */
    @Param({ VERBS, CHANNEL })
    public String path;

    /** The RDMA provider both paths run on. */
    @Param({ "soft" })
    public String provider;

    /** The address the channels listen on: loopback for soft, the Soft-RoCE device's in the guest. */
    @Param({ "127.0.0.1" })
    public String address;

    private PingPong pingPong;

    /**
     * Connects the two ends and starts the echo thread (or process).
     *
     * @throws IOException if the echo process cannot be started or talked to.
     */
    @Setup
    public void setUp() throws IOException
    {
        pingPong = switch (path)
        {
            case CHANNEL -> new ChannelPingPong(provider, address, values);
            case VERBS -> new RcPingPong(Providers.select(provider), Sample.wireLength(values));
            case CHANNEL_SHM_2JVM, CHANNEL_TCP_2JVM -> new ChannelPingPong(values, CHANNEL_SHM_2JVM.equals(path),
                false);
            case VERBS_SHM_2JVM, VERBS_TCP_2JVM ->
                new RcProcessPingPong(false, VERBS_SHM_2JVM.equals(path), Sample.wireLength(values), false);
            default -> throw new IllegalArgumentException("path " + path + ": expected " + CHANNEL + ", " + VERBS +
                ", " + CHANNEL_SHM_2JVM + ", " + CHANNEL_TCP_2JVM + ", " + VERBS_SHM_2JVM + " or " + VERBS_TCP_2JVM);
        };
    }

    /**
     * One sample (or message of its length) there and back.
     */
    @Benchmark
    public void roundTrip()
    {
        pingPong.roundTrip();
    }

    /**
     * Stops the echo thread and releases both ends.
     */
    @TearDown
    public void tearDown()
    {
        pingPong.close();
    }
}
