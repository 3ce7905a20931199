package io.ibex.benchmarks;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;

/**
 * The two-JVM ping-pongs ({@value Transports#SOFT_SHM_PROCESS} and {@value Transports#SOFT_TCP_PROCESS}, not among
 * {@link PingPongBenchmark}'s default transports, so {@code EveryBenchmarkRunsTest} does not run them) run: the echo
 * process starts, answers every round trip, and ends when the ping-pong closes.
 */
@Timeout(120)
class RcProcessPingPongTest
{
    @ParameterizedTest
    @ValueSource(booleans = { true, false })
    void everyRoundTripIsAnsweredByTheEchoProcess(final boolean sharedMemory) throws IOException
    {
        // a round trip returns only once the echo arrived; one the echo process misses fails the QP (RETRY_EXC_ERR),
        // which throws, and the echo process's end throws too
        // both sides yield rather than spin: two spinning processes on a loaded machine of two cores starve each other
        try (PingPong pingPong = new RcProcessPingPong(sharedMemory, 64, true))
        {
            for (int round = 0; round < 2000; round++)
            {
                pingPong.roundTrip();
            }
        }
    }
}
