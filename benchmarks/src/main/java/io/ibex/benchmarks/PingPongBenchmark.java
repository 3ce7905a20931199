package io.ibex.benchmarks;

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
 * Round trip of a 64-byte message over loopback, busy-polled on both sides: an RC SEND/RECV ping-pong on an
 * RDMA provider beside a non-blocking java.nio socket ping-pong, in one run so the figures sit side by side.
 * Run with {@code -prof gc} to see that sending and polling allocate nothing ({@code gc.alloc.rate.norm}).
 */
@State(Scope.Benchmark)
@BenchmarkMode({ Mode.SampleTime, Mode.AverageTime })
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PingPongBenchmark
{
    /** {@code nio} for java.nio sockets, else the name of the RDMA provider to run RC over. */
    @Param({ PingPong.NIO, "soft" })
    public String transport;

    private PingPong pingPong;

    /**
     * Connects the two endpoints and starts the echo thread.
     *
     * @throws IOException if the nio sockets cannot be set up.
     */
    @Setup
    public void setUp() throws IOException
    {
        pingPong = PingPong.open(transport);
    }

    /**
     * One 64-byte message there and back.
     */
    @Benchmark
    public void roundTrip()
    {
        pingPong.roundTrip();
    }

    /**
     * Stops the echo thread and releases both endpoints.
     */
    @TearDown
    public void tearDown()
    {
        pingPong.close();
    }
}
