package io.ibex.benchmarks;

import io.aeron.driver.Configuration;
import io.aeron.driver.ThreadingMode;
import org.agrona.concurrent.IdleStrategy;

import java.util.Arrays;

/**
 * How the Aeron peers run: the embedded media driver's threading mode and the idle strategy of every thread of
 * the benchmark that polls or offers on Aeron (the measuring thread and the echo or sender thread). The
 * benchmarks' defaults, and why, are in {@link PeerBenchmark}, {@link PingPongBenchmark} and
 * {@link StreamBenchmark}.
 *
 * @param threading the media driver's threading mode.
 * @param idle      the clients' idle strategy, by Aeron's name for it: {@code noop}, {@code spin},
 *                  {@code yield}, {@code backoff}, {@code sleep-ns}, {@code sleep-ms} or a class name.
 */
record AeronSetup(ThreadingMode threading, String idle)
{
    /** The benchmarks' default threading mode: the driver runs on the measuring thread ({@link PeerBenchmark}). */
    static final String DEFAULT_THREADING = "INVOKER";
    /** Busy-spinning clients, the ping-pong's default. */
    static final String SPIN = "spin";
    /** Clients that yield their core after a poll or offer that did nothing, the stream's default. */
    static final String YIELD = "yield";

    /**
     * Reads the benchmarks' parameters.
     *
     * @param threading a {@link ThreadingMode} name.
     * @param idle      an idle strategy's name, as for the driver's {@code aeron.*.idle.strategy} properties.
     * @return the setup.
     * @throws IllegalArgumentException naming the parameter when either is not known.
     */
    static AeronSetup of(final String threading, final String idle)
    {
        final ThreadingMode mode;
        try
        {
            mode = ThreadingMode.valueOf(threading);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("aeronThreading=" + threading + ": expected one of " +
                Arrays.toString(ThreadingMode.values()), ex);
        }
        final AeronSetup setup = new AeronSetup(mode, idle);
        setup.newIdleStrategy();
        return setup;
    }

    /**
     * @return a new instance of the clients' idle strategy (one per thread: they keep state).
     * @throws IllegalArgumentException naming the parameter if the name is not an idle strategy's.
     */
    IdleStrategy newIdleStrategy()
    {
        try
        {
            return Configuration.agentIdleStrategy(idle, null);
        }
        catch (final Exception ex) // an unknown class name comes as a ClassNotFoundException, rethrown unchecked
        {
            throw new IllegalArgumentException("aeronIdle=" + idle + ": expected noop, spin, yield, backoff, " +
                "sleep-ns, sleep-ms or the class name of an IdleStrategy", ex);
        }
    }
}
