package io.ibex.samples.perf;

import io.ibex.rdma.testing.LoopbackPorts;
import io.ibex.samples.IbexRun;
import io.ibex.samples.SoftResourcesReleased;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(SoftResourcesReleased.class)
class SendLatCommandTest
{
    private static final String WAITING = "Waiting for client to connect";

    private final int port = LoopbackPorts.next();

    private String[] args(final String... more)
    {
        return IbexRun.outOfBandArgs("send-lat", port, more);
    }

    @Test
    void serverAndClientEachPrintPerftestsLinesOfTheSamePingPong()
    {
        final IbexRun server = IbexRun.start(args("-x", "1", "-s", "64", "-n", "300", "--warmup", "200"))
            .awaitOutput(WAITING);
        final IbexRun client = IbexRun.run(args("-x", "1", "-s", "64", "-n", "300", "--warmup", "200", "127.0.0.1"));

        server.assertSucceeded();
        client.assertSucceeded();
        assertEquals(PerfOutput.address(client, "local"), PerfOutput.address(server, "remote"));
        assertEquals(PerfOutput.address(server, "local"), PerfOutput.address(client, "remote"));
        assertTrue(PerfOutput.address(client, "local").matches("LID 0000 QPN 0x[0-9a-f]{4,6} PSN (0x)?[0-9a-f]+"),
            client::toString);
        for (final IbexRun side : new IbexRun[] { server, client })
        {
            final String out = side.out();
            assertTrue(out.contains("                    Send Latency Test\n"), side::toString);
            assertTrue(out.contains(" TX depth        : 1\n RX depth        : 300\n"), side::toString);
            assertTrue(out.contains(" GID index       : 1\n Max inline data : 0[B]\n"), side::toString);
            assertTrue(out.contains(" Clock           : System.nanoTime (clocksource "), side::toString);
            assertTrue(out.contains(LatencyResults.HEADER), side::toString);
            PerfOutput.assertLatencyLine(side, 64, 300);
            final long warmUp = PerfOutput.warmUp(side, 1);
            assertTrue(warmUp >= 200 && warmUp <= 2000 && warmUp == 200 * PerfOutput.warmUp(side, 2), side::toString);
        }
    }

    @Test
    void theMeasuredLoopAllocatesNothingOnceWarm()
    {
        final IbexRun server = IbexRun.start(args("-x", "1", "-n", "20000")).awaitOutput(WAITING);
        final IbexRun client = IbexRun.run(args("-x", "1", "-n", "20000", "127.0.0.1"));

        server.assertSucceeded();
        client.assertSucceeded();
        // A rare slow path of the soft provider may allocate a few bytes; one object an iteration would be 16 bytes.
        assertTrue(PerfOutput.allocated(client) < 20000, client::toString);
        assertTrue(PerfOutput.allocated(server) < 20000, server::toString);
    }

    @Test
    void jfrRecordsRoundsOfTheMeasuredLoopAfterItThePeerFollowingWithoutTheOption(@TempDir final Path temp)
        throws IOException
    {
        final Path jfr = temp.resolve("send-lat.jfr");
        final IbexRun server = IbexRun.start(args("-x", "1", "-n", "20000", "--warmup", "1000")).awaitOutput(WAITING);
        final IbexRun client = IbexRun.run(args("-x", "1", "-n", "20000", "--warmup", "1000", "--jfr", jfr.toString(),
            "127.0.0.1"));

        server.assertSucceeded();
        client.assertSucceeded();
        PerfOutput.assertProfiled(client, server, 5, 20000, jfr);
    }

    @Test
    void noWarmUpAndInlineSends()
    {
        final IbexRun server = IbexRun.start(args("-x", "1", "-n", "50", "-I", "64", "--warmup", "0"))
            .awaitOutput(WAITING);
        final IbexRun client = IbexRun.run(args("-x", "1", "-n", "50", "-I", "64", "--warmup", "0", "localhost"));

        server.assertSucceeded();
        client.assertSucceeded();
        assertTrue(client.out().contains(" ibex: warm-up: none\n"), client::toString);
        assertTrue(client.out().contains(" Max inline data : 64[B]\n"), client::toString);
        assertEquals(50, PerfOutput.results(server)[1]);
    }

    @Test
    void aServerLeftWaitingByAShorterClientFailsNamingWhatItAwaited()
    {
        final IbexRun server = IbexRun.start(args("-x", "1", "-n", "100", "--warmup", "0", "--timeout-ms", "2000"))
            .awaitOutput(WAITING);
        final IbexRun client = IbexRun.run(args("-x", "1", "-n", "50", "--warmup", "0", "127.0.0.1"));

        client.assertSucceeded();
        server.assertFailed("send-lat", "the peer's message");
    }

    @Test
    void badArgumentsAreNamed()
    {
        IbexRun.run(args("-x", "1", "-n", "4")).assertFailed("send-lat", "-n/--iters 4 must be at least 5");
        IbexRun.run(args("-x", "1", "-s", "0")).assertFailed("send-lat", "-s/--size 0 out of range 1..8388608");
        IbexRun.run(args("-x", "1", "-r", "0")).assertFailed("send-lat", "-r/--rx-depth 0 out of range 1..16384");
        IbexRun.run(args("-x", "1", "-I", "913")).assertFailed("send-lat", "-I/--inline_size 913 out of range 0..912");
        IbexRun.run(args("-x", "-2")).assertFailed("send-lat", "-x/--gid-index -2: a GID index is 0 or more");
        IbexRun.run(args("-x", "1", "--warmup", "-1")).assertFailed("send-lat", "--warmup -1 must be 0 or more");
        IbexRun.run(args("-x", "1", "--jfr-rounds", "0"))
            .assertFailed("send-lat", "--jfr-rounds 0 out of range 1..1000");
        IbexRun.run(args("-x", "1", "-d", "nosuch0")).assertFailed("send-lat", "has no device 'nosuch0'");
        IbexRun.run(args()).assertFailed("send-lat", "has an Ethernet link layer, where queue pairs are addressed " +
            "by GID: give a GID index with -g (-x in send-lat and send-bw");
        IbexRun.run(args("-x", "5")).assertFailed("send-lat", "GID index 5 out of range");
    }
}
