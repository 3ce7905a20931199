package io.ibex.benchmarks;

import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The parameters of the benchmarks that run one operation on ibex and on each of its peers
 * ({@link PingPongBenchmark}, {@link StreamBenchmark}).
 * <p>
 * <b>Aeron where cores are few.</b> Aeron's media driver moves UDP messages on threads of its own
 * (conductor, sender and receiver; one thread for all three in {@code SHARED} threading mode), so a UDP round trip
 * needs the driver's thread to run between the two clients' turns. With no core left beside two busy-spinning
 * clients that thread is starved, and each round trip waits for the scheduler to preempt a spinning client;
 * yielding clients let the driver run but pay a {@code sched_yield} on every empty poll. In {@code INVOKER} mode
 * the driver has no thread: the measuring thread runs its duty cycle whenever it polls ({@link
 * EmbeddedAeron#invokeDriver()}), as the kernel runs TCP's work in the caller's system calls, so no thread of Aeron
 * competes with the clients for a core. That is why {@link #aeronThreading} defaults to {@code INVOKER}; over IPC
 * the driver is not on the data path anyway (the publisher writes the log buffer the subscriber reads). Each
 * benchmark's {@code aeronIdle} says which idle strategy its clients use by default, and why; docs/benchmarks.md
 * reports the figures behind these defaults.
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

    /**
     * @param aeronIdle the idle strategy of Aeron's clients, by Aeron's name for it.
     * @return the Aeron setup the parameters ask for.
     * @throws IllegalArgumentException if {@link #aeronThreading} or the idle strategy is not known.
     */
    protected final AeronSetup aeronSetup(final String aeronIdle)
    {
        return AeronSetup.of(aeronThreading, aeronIdle);
    }
}
