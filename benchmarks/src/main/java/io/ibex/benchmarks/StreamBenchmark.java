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
 * Messages per second streamed one way over loopback between two endpoints of this process, on ibex's RC SEND/RECV
 * and on its peers ({@link MessageStream}): a sender thread sends as fast as the transport's flow control lets it
 * (TCP's window, Aeron's back-pressure, RC credits), so nothing is dropped, and the JMH thread receives.
 * <p>
 * <b>The score is measured at the receiver:</b> one operation is one message received. Each call of
 * {@link #receive()} takes one message from those the last poll found, polling again (until at least one arrives)
 * when none are left; so ops/s is exactly messages received per second. At tear-down the sender stops and the
 * receiver takes what is still in flight, and the run fails unless every message sent arrived. Run with
 * {@code -prof gc} to see that neither side allocates per message ({@code gc.alloc.rate.norm}). MB/s is
 * ops/s times {@link #size}.
 * <p>
 * The parameters, and why Aeron's driver runs on the measuring thread by default, are {@link PeerBenchmark}'s.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class StreamBenchmark extends PeerBenchmark
{
    /**
     * The idle strategy of Aeron's clients, by Aeron's name for it ({@link AeronSetup}); Aeron only. Yielding by
     * default: a sender held back by back-pressure that spins takes a core from the receiver it waits for, whenever
     * anything else on the machine wants one, which over IPC costs a large part of the rate. Over UDP spinning may
     * be faster: pass {@code -p aeronIdle=spin} to compare.
     */
    @Param({ AeronSetup.YIELD })
    public String aeronIdle;

    private MessageStream stream;
    private int unclaimed;
    private long received;

    /**
     * Connects the two endpoints and starts the sender.
     *
     * @throws IOException if the nio sockets cannot be set up.
     */
    @Setup
    public void setUp() throws IOException
    {
        stream = Transports.stream(transport, size, aeronSetup(aeronIdle));
        unclaimed = 0;
        received = 0;
    }

    /**
     * Takes one received message, polling for more when the last poll's are all taken.
     *
     * @return how many messages were received so far.
     */
    @Benchmark
    public long receive()
    {
        if (unclaimed == 0)
        {
            unclaimed = stream.awaitMessages();
        }
        unclaimed--;
        return ++received;
    }

    /**
     * Stops the sender, checks that every message it sent arrived, and releases both endpoints.
     *
     * @throws IllegalStateException if messages are missing.
     */
    @TearDown
    public void tearDown()
    {
        try
        {
            stream.drain(received + unclaimed);
        }
        finally
        {
            stream.close();
        }
    }
}
