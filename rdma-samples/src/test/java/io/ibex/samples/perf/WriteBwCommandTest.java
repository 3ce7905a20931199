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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(SoftResourcesReleased.class)
class WriteBwCommandTest
{
    private final int port = LoopbackPorts.next();

    private String[] args(final String... more)
    {
        return IbexRun.outOfBandArgs("write-bw", port, more);
    }

    private IbexRun[] pair(final String... more)
    {
        return PerfOutput.pair("write-bw", port, more);
    }

    @Test
    void theClientStreamsWritesAndReportsRatesAsPerftestTheServerNone()
    {
        final IbexRun[] sides = pair("-x", "1", "-s", "64", "-n", "2000", "--warmup", "1000");
        final IbexRun server = sides[0];
        final IbexRun client = sides[1];

        final double[] sent = PerfOutput.results(client);
        assertEquals(64, sent[0]);
        assertEquals(2000, sent[1]);
        assertTrue(sent[2] >= sent[3] && sent[3] > 0 && sent[4] > 0, client::toString);
        assertEquals(sent[3], sent[4] * 1e6 * 64 / (1 << 20), sent[3] * 0.02, "BW average is message rate * size");
        assertFalse(server.out().contains(BandwidthResults.HEADER), "perftest's server prints no results");
        assertTrue(server.out().contains(PerfHeader.RULE + "\n ibex: warm-up: "), server::toString);
        for (final IbexRun side : sides)
        {
            assertTrue(side.out().contains("                    RDMA_Write BW Test\n"), side::toString);
            assertTrue(side.out().contains(" TX depth        : 128\n CQ Moderation   : 100\n"), side::toString);
        }
        assertEquals(PerfOutput.address(client, "local"), PerfOutput.address(server, "remote"));
        assertTrue(PerfOutput.address(client, "remote").contains(" RKey "), client::toString);
        assertEquals(PerfOutput.warmUp(client, 1), PerfOutput.warmUp(server, 1), "both sides warm up alike");
    }

    @Test
    void aPostListChainsWrites()
    {
        final IbexRun[] sides = pair("-x", "1", "-s", "256", "-n", "400", "--post-list", "4", "--warmup", "100");

        assertTrue(sides[1].out().startsWith(PerfHeader.RULE + "\nPost List requested - CQ moderation will be " +
            "the size of the post list\n"), sides[1]::toString);
        assertTrue(sides[1].out().contains("                    RDMA_Write Post List BW Test\n"), sides[1]::toString);
        assertTrue(sides[1].out().contains(" Post List       : 4\n CQ Moderation   : 4\n"), sides[1]::toString);
        assertEquals(400, PerfOutput.results(sides[1])[1]);
        assertEquals(256, PerfOutput.results(sides[1])[0]);
    }

    @Test
    void theMeasuredLoopAllocatesNothingOnceWarm()
    {
        final IbexRun[] sides = pair("-x", "1", "-s", "64", "-n", "20000");

        assertTrue(PerfOutput.allocated(sides[1]) < 20000, sides[1]::toString);
    }

    @Test
    void sidesGivenOtherSizesRefuseEachOthersSlot()
    {
        final IbexRun server = IbexRun.start(args("-x", "1", "-s", "64", "-n", "100", "--warmup", "0",
            "--timeout-ms", "2000")).awaitOutput("Waiting for client to connect");
        final IbexRun client = IbexRun.run(args("-x", "1", "-s", "32", "-n", "100", "--warmup", "0", "127.0.0.1"));

        client.assertFailed("write-bw", "give both sides the same -s");
        server.assertFailed("write-bw", "give both sides the same -s");
    }

    @Test
    void theClientRecordsTheRoundsItsJfrAsksForTheIdleServerFollowing(@TempDir final Path temp) throws IOException
    {
        final Path jfr = temp.resolve("write-bw.jfr");
        // 64-byte writes: at the default 64 KiB the client spends its time copying inside the JVM, where JFR takes
        // no thread samples (6 in 1.4 s measured, none on a CI machine); at 64 B, 10 rounds held ~25, yet on a faster
        // machine 10 rounds once held no Java sample (its polls in the socket's native read): 50 rounds.
        final IbexRun server = IbexRun.start(args("-x", "1", "-s", "64", "-n", "20000", "--warmup", "1000"))
            .awaitOutput("Waiting for client to connect");
        final IbexRun client = IbexRun.run(args("-x", "1", "-s", "64", "-n", "20000", "--warmup", "1000", "--jfr",
            jfr.toString(), "--jfr-rounds", "50", "127.0.0.1"));

        server.assertSucceeded();
        client.assertSucceeded();
        PerfOutput.assertProfiled(client, server, 50, 20000, jfr);
    }

    @Test
    void badArgumentsAreNamed()
    {
        IbexRun.run(args("-x", "1", "-n", "100", "-l", "3"))
            .assertFailed("write-bw", "-n/--iters 100 must be a multiple of the post list size (-l/--post_list 3)");
        IbexRun.run(args("-x", "1", "-l", "0")).assertFailed("write-bw", "-l/--post_list 0 must be at least 1");
        IbexRun.run(args("-x", "1", "-n", "512", "-l", "256"))
            .assertFailed("write-bw", "-l/--post_list 256 is larger than the tx depth 128");
        IbexRun.run(args("-x", "1", "-n", "400", "-l", "4", "-Q", "3"))
            .assertFailed("write-bw", "-l/--post_list 4 must be a multiple of the CQ moderation (-Q/--cq-mod 3)");
        IbexRun.run(args("-x", "1", "-Q", "0")).assertFailed("write-bw", "-Q/--cq-mod 0 out of range 1..1024");
        IbexRun.run(args("-x", "1", "-t", "0")).assertFailed("write-bw", "-t/--tx-depth 0 out of range 1..15000");
        IbexRun.run(args("-x", "1", "-s", "8388609"))
            .assertFailed("write-bw", "-s/--size 8388609 out of range 1..8388608");
        IbexRun.run(args("-x", "1", "-n", "3")).assertFailed("write-bw", "-n/--iters 3 must be at least 5");
    }
}
