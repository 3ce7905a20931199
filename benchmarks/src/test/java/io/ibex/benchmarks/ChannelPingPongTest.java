package io.ibex.benchmarks;

import io.ibex.transport.channel.SampleBatch;
import io.ibex.transport.channel.SampleChannel;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A channel round trip that cannot end fails with the reason instead of waiting for JMH's iteration timeout: the
 * test plays the echo, on the soft provider.
 */
class ChannelPingPongTest
{
    private static final Duration LIMIT = Duration.ofSeconds(60);
    private static final String LOOPBACK = "127.0.0.1";

    @Test
    void aRoundTripWhoseAnswerNeverComesFailsAfterTheStepTimeout()
    {
        assertTimeoutPreemptively(LIMIT, () ->
        {
            try (ConnectedChannels channels = new ConnectedChannels(Transports.SOFT, LOOPBACK, c -> { }, c -> { }))
            {
                final PingPong pingPong = new ChannelPingPong(channels.source(), TimeUnit.MILLISECONDS.toNanos(200));

                final String message = assertThrows(IllegalStateException.class, pingPong::roundTrip).getMessage();

                assertTrue(message.contains(" ms for the answer to sample 0 (state CONNECTED, failure: null)"),
                    message);
            }
        });
    }

    @Test
    void aRoundTripWhoseConnectionIsLostMidWayFailsWithTheReason()
    {
        assertTimeoutPreemptively(LIMIT, () ->
        {
            try (ConnectedChannels channels = new ConnectedChannels(Transports.SOFT, LOOPBACK, c -> { }, c -> { }))
            {
                final PingPong pingPong = new ChannelPingPong(channels.source(), ChannelPingPong.STEP_TIMEOUT_NANOS);
                final CompletableFuture<Void> roundTrip = CompletableFuture.runAsync(pingPong::roundTrip);
                awaitSample(channels.target());
                channels.target().close(); // the sample arrived: the answer never will

                final Throwable error = assertThrows(ExecutionException.class,
                    () -> roundTrip.get(ChannelPingPong.STEP_TIMEOUT_NANOS / 2, TimeUnit.NANOSECONDS)).getCause();

                assertTrue(error instanceof IllegalStateException &&
                    error.getMessage().contains("lost its connection") &&
                    error.getMessage().contains("waiting for the answer to sample 0"), error.toString());
            }
        });
    }

    private static void awaitSample(final SampleChannel target)
    {
        final SampleBatch batch = new SampleBatch(1);
        assertTrue(target.read(batch, LIMIT.toMillis(), TimeUnit.MILLISECONDS) == 1, "the sample never came");
        target.release(batch);
    }
}
