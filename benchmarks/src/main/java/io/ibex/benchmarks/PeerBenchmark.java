package io.ibex.benchmarks;

import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The parameters of the benchmarks that run one operation on ibex and on each of its peers
 * ({@link PingPongBenchmark}, {@link StreamBenchmark}).
 * <p>
 * <b>Aeron on a machine of few cores.</b> Aeron's media driver moves UDP messages on threads of its own (conductor,
 * sender, receiver: one in {@code SHARED} threading mode), so a UDP round trip needs four threads to run: the two
 * clients and the driver, twice. With two cores and both clients busy-spinning the driver's thread is starved, and
 * a round trip waits for the scheduler to preempt a spinning client: milliseconds (4-24 ms measured here). So
 * {@link #aeronThreading} defaults to {@code SHARED} (one driver thread rather than three) and {@link #aeronIdle}
 * to {@code yield}: a client that found nothing gives its core away, the driver runs at once, and the UDP round
 * trip falls to about 9 us. IPC does not go through the driver (the publisher writes the log buffer the subscriber
 * reads), so it is the same with either. docs/benchmarks.md has the figures of both choices.
 */
@State(Scope.Benchmark)
public abstract class PeerBenchmark
{
    /**
     * {@code nio} (java.nio TCP), {@code aeron-udp}, {@code aeron-ipc}, else the name of the RDMA provider to run
     * RC SEND/RECV over ({@code soft}).
     */
    @Param({ Transports.NIO, Transports.SOFT, Transports.AERON_UDP, Transports.AERON_IPC })
    public String transport;

    /** Bytes of each message. */
    @Param({ "64", "256", "1024", "4096" })
    public int size;

    /** The Aeron media driver's threading mode ({@code io.aeron.driver.ThreadingMode}); Aeron only. */
    @Param({ AeronSetup.DEFAULT_THREADING })
    public String aeronThreading;

    /** The idle strategy of Aeron's clients, by Aeron's name for it ({@link AeronSetup}); Aeron only. */
    @Param({ AeronSetup.DEFAULT_IDLE })
    public String aeronIdle;

    /**
     * @return the Aeron setup the parameters ask for.
     * @throws IllegalArgumentException if {@link #aeronThreading} or {@link #aeronIdle} is not known.
     */
    protected final AeronSetup aeronSetup()
    {
        return AeronSetup.of(aeronThreading, aeronIdle);
    }
}
