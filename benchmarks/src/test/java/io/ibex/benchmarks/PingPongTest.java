package io.ibex.benchmarks;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

class PingPongTest
{
    private static final int ROUND_TRIPS = 2_000;

    @ParameterizedTest
    @ValueSource(strings = { PingPong.NIO, "soft" })
    void everyMessageComesBack(final String transport)
    {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () ->
        {
            try (PingPong pingPong = PingPong.open(transport))
            {
                for (int i = 0; i < ROUND_TRIPS; i++)
                {
                    pingPong.roundTrip();
                }
            }
        });
    }
}
