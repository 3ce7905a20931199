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
 * Round trip of a message over loopback between two endpoints of this process, on ibex's RC SEND/RECV and on its
 * peers, in one run so the figures sit side by side: the JMH thread sends and polls for the echo, the echo side
 * polls on its own thread. Run with {@code -prof gc} to see that no transport allocates per round trip
 * ({@code gc.alloc.rate.norm}).
 * <p>
 * The parameters, and why Aeron runs as it does by default, are {@link PeerBenchmark}'s.
 */
@State(Scope.Benchmark)
@BenchmarkMode({ Mode.SampleTime, Mode.AverageTime })
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PingPongBenchmark extends PeerBenchmark
{
    /**
     * The idle strategy of Aeron's clients, by Aeron's name for it ({@link AeronSetup}); Aeron only. Busy-spinning
     * by default: with the driver on the measuring thread ({@code INVOKER}) nothing else needs the cores, and a
     * yield per empty poll adds to the round trip.
     */
    @Param({ AeronSetup.SPIN })
    public String aeronIdle;

    private PingPong pingPong;

    /**
     * Connects the two endpoints and starts the echo thread.
     *
     * @throws IOException if the nio sockets cannot be set up.
     */
    @Setup
    public void setUp() throws IOException
    {
        pingPong = Transports.pingPong(transport, size, aeronSetup(aeronIdle));
    }

    /**
     * One message there and back.
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
