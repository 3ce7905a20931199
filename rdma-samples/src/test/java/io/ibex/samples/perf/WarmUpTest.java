package io.ibex.samples.perf;

import io.ibex.samples.verbs.OutOfBandSocket;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WarmUpTest
{
    private static final long TIMEOUT_MILLIS = 10_000;

    @Test
    void bothSidesRunTheSameRoundsOfWholeListsAndAtLeastTheMinimum() throws Exception
    {
        final ServerSocket listener = OutOfBandSocket.listen("127.0.0.1", 0);
        final CompletableFuture<OutOfBandSocket> accepted =
            CompletableFuture.supplyAsync(() -> OutOfBandSocket.accept(listener, TIMEOUT_MILLIS));
        try (OutOfBandSocket client = OutOfBandSocket.connect("127.0.0.1", listener.getLocalPort(), TIMEOUT_MILLIS);
            OutOfBandSocket server = accepted.get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS))
        {
            final AtomicLong serverIterations = new AtomicLong();
            final WarmUp serverWarmUp = new WarmUp(server, 300, 7);
            final CompletableFuture<Void> serverRun =
                CompletableFuture.runAsync(() -> serverWarmUp.run(serverIterations::addAndGet));
            final WarmUp clientWarmUp = new WarmUp(client, 300, 7);
            final AtomicLong counted = new AtomicLong();
            clientWarmUp.run(counted::addAndGet);
            serverRun.get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
            final long clientIterations = counted.get();

            assertEquals(clientIterations, serverIterations.get());
            assertTrue(clientIterations >= 300 && clientIterations <= 3000 + 7, () -> "ran " + counted);
            assertEquals(0, clientIterations % 301, "rounds of 300 rounded up to whole lists of 7");
            assertTrue(clientWarmUp.describe().startsWith(clientIterations + " iterations in " +
                clientIterations / 301 + " rounds of 301; "), clientWarmUp.describe());
            assertEquals(clientWarmUp.describe(), serverWarmUp.describe());
        }
    }

    @Test
    void noWarmUpRunsNothingAndSendsNothing() throws IOException
    {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
            OutOfBandSocket socket = OutOfBandSocket.connect("127.0.0.1", listener.getLocalPort(), TIMEOUT_MILLIS))
        {
            final WarmUp warmUp = new WarmUp(socket, 0, 1);
            warmUp.run((count) ->
            {
                throw new AssertionError("ran " + count);
            });
            assertEquals("none", warmUp.describe());
            assertEquals("none", warmUp.plan("iterations"));
        }
    }

    @Test
    void aPeerThatAnswersSomethingElseIsNamed() throws Exception
    {
        final ServerSocket listener = OutOfBandSocket.listen("127.0.0.1", 0);
        try (Socket peer = new Socket(InetAddress.getLoopbackAddress(), listener.getLocalPort());
            OutOfBandSocket socket = OutOfBandSocket.accept(listener, TIMEOUT_MILLIS))
        {
            peer.getOutputStream().write('x');
            final WarmUp warmUp = new WarmUp(socket, 10, 1);

            final IllegalStateException thrown =
                assertThrows(IllegalStateException.class, () -> warmUp.run((count) -> { }));
            assertTrue(thrown.getMessage().contains("sent 120 as its report of a warm-up round, expected 'q' or 'b'"),
                thrown::getMessage);
        }
    }
}
