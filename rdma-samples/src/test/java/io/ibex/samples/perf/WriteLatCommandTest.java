package io.ibex.samples.perf;

import io.ibex.rdma.testing.LoopbackPorts;
import io.ibex.samples.IbexRun;
import io.ibex.samples.SoftResourcesReleased;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(SoftResourcesReleased.class)
class WriteLatCommandTest
{
    private static final String WAITING = "Waiting for client to connect";

    private final int port = LoopbackPorts.next();

    private String[] args(final String... more)
    {
        return IbexRun.outOfBandArgs("write-lat", port, more);
    }

    @Test
    void eachSideWritesIntoThePeersSlotAndPrintsPerftestsLines()
    {
        final IbexRun server = IbexRun.start(args("-x", "1", "-s", "64", "-n", "300", "--warmup", "600"))
            .awaitOutput(WAITING);
        final IbexRun client = IbexRun.run(args("-x", "1", "-s", "64", "-n", "300", "--warmup", "600", "127.0.0.1"));

        server.assertSucceeded();
        client.assertSucceeded();
        assertEquals(PerfOutput.address(client, "local"), PerfOutput.address(server, "remote"));
        assertEquals(PerfOutput.address(server, "local"), PerfOutput.address(client, "remote"));
        assertTrue(PerfOutput.address(client, "local").matches(
            "LID 0000 QPN 0x[0-9a-f]{4,6} PSN (0x)?[0-9a-f]+ RKey (0x)?[0-9a-f]{6,8} VAddr 0x[0-9a-f]{14}"),
            client::toString);
        for (final IbexRun side : new IbexRun[] { server, client })
        {
            final String out = side.out();
            assertTrue(out.contains("                    RDMA_Write Latency Test\n"), side::toString);
            assertTrue(out.contains(" TX depth        : 1\n Mtu"), side::toString);
            PerfOutput.assertLatencyLine(side, 64, 300);
            // 600 warm-up writes and 300 measured ones: the byte counter wrapped three times and stayed in step.
            assertTrue(PerfOutput.warmUp(side, 1) >= 600, side::toString);
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
    void sidesGivenOtherSizesRefuseEachOthersSlot()
    {
        final IbexRun server = IbexRun.start(args("-x", "1", "-s", "32", "--warmup", "0")).awaitOutput(WAITING);
        final IbexRun client = IbexRun.run(args("-x", "1", "-s", "64", "--warmup", "0", "127.0.0.1"));

        client.assertFailed("write-lat", "writes and expects messages of 32 bytes, we of 64 (-s/--size): give " +
            "both sides the same -s");
        server.assertFailed("write-lat", "writes and expects messages of 64 bytes, we of 32");
    }

    @Test
    void aSideLeftWaitingByAShorterPeerFailsNamingWhatItAwaited()
    {
        final IbexRun server = IbexRun.start(args("-x", "1", "-n", "50", "--warmup", "0", "--timeout-ms", "2000"))
            .awaitOutput(WAITING);
        final IbexRun client = IbexRun.run(args("-x", "1", "-n", "100", "--warmup", "0", "--timeout-ms", "2000",
            "127.0.0.1"));

        server.assertSucceeded();
        client.assertFailed("write-lat", "the peer's RDMA WRITE of message 51");
    }

    @Test
    void badArgumentsAreNamed()
    {
        IbexRun.run(args("-x", "1", "-n", "4")).assertFailed("write-lat", "-n/--iters 4 must be at least 5");
        IbexRun.run(args("-x", "1", "-s", "0")).assertFailed("write-lat", "-s/--size 0 out of range 1..8388608");
        IbexRun.run(args("-x", "1", "-I", "913")).assertFailed("write-lat", "-I/--inline_size 913 out of range 0..912");
        IbexRun.run(args("-x", "-2")).assertFailed("write-lat", "-x/--gid-index -2: a GID index is 0 or more");
        IbexRun.run(args("-x", "1", "--warmup", "-1")).assertFailed("write-lat", "--warmup -1 must be 0 or more");
        IbexRun.run(args("-x", "1", "--timeout-ms", "0"))
            .assertFailed("write-lat", "--timeout-ms 0 must be at least 1");
    }
}
