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
class SendBwCommandTest
{
    private final int port = LoopbackPorts.next();

    private String[] args(final String... more)
    {
        return IbexRun.outOfBandArgs("send-bw", port, more);
    }

    private IbexRun[] pair(final String... more)
    {
        return PerfOutput.pair("send-bw", port, more);
    }

    @Test
    void theClientStreamsAndBothReportRatesAsPerftest()
    {
        final IbexRun[] sides = pair("-x", "1", "-s", "64", "-n", "2000", "--warmup", "1000");
        final IbexRun server = sides[0];
        final IbexRun client = sides[1];

        final double[] sent = PerfOutput.results(client);
        assertEquals(64, sent[0]);
        assertEquals(2000, sent[1]);
        assertTrue(sent[2] >= sent[3] && sent[3] > 0 && sent[4] > 0, client::toString);
        assertEquals(sent[3], sent[4] * 1e6 * 64 / (1 << 20), sent[3] * 0.02, "BW average is message rate * size");
        final double[] received = PerfOutput.results(server);
        assertEquals(2000, received[1]);
        assertEquals(0, received[2], "perftest's server prints no peak");
        assertTrue(received[4] > 0, server::toString);
        assertTrue(client.out().contains("                    Send BW Test\n"), client::toString);
        assertTrue(client.out().contains(" TX depth        : 128\n CQ Moderation   : 100\n"), client::toString);
        assertTrue(server.out().contains(" RX depth        : 512\n CQ Moderation   : 100\n"), server::toString);
        assertTrue(client.out().contains(BandwidthResults.HEADER), client::toString);
        assertEquals(PerfOutput.address(client, "local"), PerfOutput.address(server, "remote"));
        assertEquals(PerfOutput.warmUp(client, 1), PerfOutput.warmUp(server, 1), "both sides warm up alike");
    }

    @Test
    void aPostListChainsRequestsAndSetsTheCqModeration()
    {
        final IbexRun[] sides = pair("-x", "1", "-n", "400", "--post-list", "4", "--warmup", "100");

        for (final IbexRun side : sides)
        {
            assertTrue(side.out().startsWith(PerfHeader.RULE + "\nPost List requested - CQ moderation will be the " +
                "size of the post list\n"), side::toString);
            assertTrue(side.out().contains("                    Send Post List BW Test\n"), side::toString);
            assertTrue(side.out().contains(" Post List       : 4\n CQ Moderation   : 4\n"), side::toString);
            assertEquals(400, PerfOutput.results(side)[1]);
            assertEquals(0, PerfOutput.warmUp(side, 1) % 4, "warm-up rounds are whole post lists");
        }
    }

    @Test
    void depthsAndModerationFollowPerftestsRules()
    {
        final IbexRun[] small = pair("-x", "1", "-n", "50", "-r", "600", "--warmup", "0", "-l", "5", "-Q", "5");
        assertTrue(small[1].out().contains(" TX depth        : 50\n Post List       : 5\n CQ Moderation   : 5\n"),
            small[1]::toString);
        assertTrue(small[0].out().contains(" RX depth        : 50\n"), small[0]::toString);
        assertFalse(small[1].out().contains("Post List requested"), "-Q given: perftest says nothing");

        final IbexRun[] large = pair("-x", "1", "-s", "10000", "-n", "20", "--warmup", "0", "-t", "8");
        assertTrue(large[1].out().contains(" TX depth        : 8\n CQ Moderation   : 1\n"), large[1]::toString);
        assertEquals(10000, PerfOutput.results(large[0])[0]);
    }

    @Test
    void theReceiverRecordsTheRoundsItsJfrAsksForTheSenderFollowing(@TempDir final Path temp) throws IOException
    {
        final Path jfr = temp.resolve("send-bw.jfr");
        // the receiver waits mostly in native code, where JFR takes no execution sample: 3 rounds held 5-7 of them,
        // too few to count on (WriteBwCommandTest's 10 rounds once held none on a faster machine)
        final IbexRun server = IbexRun.start(args("-x", "1", "-n", "20000", "--warmup", "1000", "--jfr",
            jfr.toString(), "--jfr-rounds", "20")).awaitOutput("Waiting for client to connect");
        final IbexRun client = IbexRun.run(args("-x", "1", "-n", "20000", "--warmup", "1000", "127.0.0.1"));

        server.assertSucceeded();
        client.assertSucceeded();
        PerfOutput.assertProfiled(server, client, 20, 20000, jfr);
    }

    @Test
    void badArgumentsAreNamed()
    {
        IbexRun.run(args("-x", "1", "-n", "100", "-l", "3"))
            .assertFailed("send-bw", "-n/--iters 100 must be a multiple of the post list size (-l/--post_list 3)");
        IbexRun.run(args("-x", "1", "-l", "0")).assertFailed("send-bw", "-l/--post_list 0 must be at least 1");
        IbexRun.run(args("-x", "1", "-n", "512", "-l", "256"))
            .assertFailed("send-bw", "-l/--post_list 256 is larger than the tx depth 128");
        IbexRun.run(args("-x", "1", "-n", "400", "-l", "4", "-Q", "3"))
            .assertFailed("send-bw", "-l/--post_list 4 must be a multiple of the CQ moderation (-Q/--cq-mod 3)");
        IbexRun.run(args("-x", "1", "-Q", "0")).assertFailed("send-bw", "-Q/--cq-mod 0 out of range 1..1024");
        IbexRun.run(args("-x", "1", "-t", "0")).assertFailed("send-bw", "-t/--tx-depth 0 out of range 1..15000");
        IbexRun.run(args("-x", "1", "-s", "8388609"))
            .assertFailed("send-bw", "-s/--size 8388609 out of range 1..8388608");
        IbexRun.run(args("-x", "1", "-n", "3")).assertFailed("send-bw", "-n/--iters 3 must be at least 5");
    }
}
