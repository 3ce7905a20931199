package io.ibex.benchmarks;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.management.ManagementFactory;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PingPongTest
{
    private static final Duration LIMIT = Duration.ofSeconds(120);
    private static final int ROUND_TRIPS = 2_000;
    private static final int WARM_UP_ROUND_TRIPS = 20_000;
    private static final int MEASURED_ROUND_TRIPS = 20_000;

    @ParameterizedTest
    @ValueSource(strings = { PingPong.NIO, "soft" })
    void everyMessageComesBack(final String transport)
    {
        assertTimeoutPreemptively(LIMIT, () ->
        {
            try (PingPong pingPong = PingPong.open(transport))
            {
                roundTrips(pingPong, ROUND_TRIPS);
            }
        });
    }

    @ParameterizedTest
    @ValueSource(strings = { PingPong.NIO, "soft" })
    void roundTripsAllocateNothingOnceWarm(final String transport)
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        // The timeout runs the body on another thread: measure that one.
        assertTimeoutPreemptively(LIMIT, () ->
        {
            try (PingPong pingPong = PingPong.open(transport))
            {
                roundTrips(pingPong, WARM_UP_ROUND_TRIPS); // class loading, lazy initialisation, JIT
                final long thread = Thread.currentThread().getId();
                final long before = threads.getThreadAllocatedBytes(thread);
                roundTrips(pingPong, MEASURED_ROUND_TRIPS);
                final long allocated = threads.getThreadAllocatedBytes(thread) - before;
                // Under one byte per round trip means no round trip allocates an object (the smallest is 16
                // bytes); a rare slow path (a stall, a retry) may still allocate once.
                assertTrue(allocated < MEASURED_ROUND_TRIPS, () -> transport + ": " + allocated +
                    " bytes allocated by " + MEASURED_ROUND_TRIPS + " round trips (post and poll, measuring thread)");
            }
        });
    }

    private static void roundTrips(final PingPong pingPong, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            pingPong.roundTrip();
        }
    }
}
