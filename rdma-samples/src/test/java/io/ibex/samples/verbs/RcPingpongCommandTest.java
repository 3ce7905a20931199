package io.ibex.samples.verbs;

import io.ibex.rdma.testing.LoopbackPorts;
import io.ibex.samples.IbexRun;
import io.ibex.samples.SoftResourcesReleased;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(SoftResourcesReleased.class)
class RcPingpongCommandTest
{
    private final int port = LoopbackPorts.next();
    private String[] args(final String... more)
    {
        return IbexRun.outOfBandArgs("rc-pingpong", port, more);
    }

    @Test
    void serverAndClientExchangeEveryMessageAndLearnEachOthersAddress()
    {
        final IbexRun server = IbexRun.start(args("-g", "1", "-n", "50", "-c")).awaitOutput("local address");
        final IbexRun client = IbexRun.run(args("-g", "1", "-n", "50", "-c", "127.0.0.1"));

        server.assertSucceeded();
        client.assertSucceeded();
        for (final IbexRun side : new IbexRun[] { server, client })
        {
            assertEquals(50, side.iters(), side::toString);
            assertEquals(4096L * 50 * 2, side.bytes(), side::toString);
            assertTrue(!side.out().contains("invalid data"), side::toString);
        }
        assertEquals(client.address("local"), server.address("remote"));
        assertEquals(server.address("local"), client.address("remote"));
        assertTrue(server.address("local").matches(
            "LID 0x0000, QPN 0x[0-9a-f]{6}, PSN 0x[0-9a-f]{6}, GID ::[0-9a-f]+:ffff:7f00:1"), server::toString);
    }

    @Test
    void eventModeAndMultiPageMessagesWithValidation()
    {
        final IbexRun server = IbexRun.start(args("-g", "0", "-e", "-s", "10000", "-n", "20", "-r", "3", "-c"))
            .awaitOutput("local address");
        final IbexRun client =
            IbexRun.run(args("-g", "1", "-s", "10000", "-n", "20", "-r", "3", "-c", "-e", "localhost"));

        server.assertSucceeded();
        client.assertSucceeded();
        assertEquals(20, server.iters());
        assertEquals(10000L * 20 * 2, client.bytes());
    }

    @Test
    void validationFailsWhenThePeerDidNotMarkItsPages()
    {
        final IbexRun server = IbexRun.start(args("-g", "1", "-n", "5", "-s", "9000", "-c"))
            .awaitOutput("local address");
        final IbexRun client = IbexRun.run(args("-g", "1", "-n", "5", "-s", "9000", "127.0.0.1"));

        client.assertSucceeded();
        server.assertFailed("rc-pingpong", "invalid data in 3 of 3 pages");
        assertTrue(server.out().contains("invalid data in page 0"), server::toString);
        assertTrue(server.out().contains("invalid data in page 2"), server::toString);
    }

    @Test
    void serverAndClientAsSeparateProcesses()
    {
        final IbexRun server = IbexRun.startJvm(args("-g", "1", "-n", "30", "-c")).awaitOutput("local address");
        final IbexRun client = IbexRun.startJvm(args("-g", "1", "-n", "30", "-c", "127.0.0.1"));

        client.assertSucceeded();
        server.assertSucceeded();
        assertEquals(30, client.iters());
        assertEquals(30, server.iters());
        assertEquals(client.address("local"), server.address("remote"));
        assertEquals(server.address("local"), client.address("remote"));
    }

    @Test
    void aServerThatDiesMidRunFailsTheClientNamingWhatItAwaited()
    {
        final IbexRun server = IbexRun.startJvm(args("-g", "1", "-n", "1000000")).awaitOutput("local address");
        final IbexRun client = IbexRun.start(args("-g", "1", "-n", "1000000", "--timeout-ms", "5000", "127.0.0.1"));
        client.awaitOutput("remote address");
        server.awaitOutput("remote address");
        server.kill();

        // the link's loss fails the outstanding send or flushes the receives, or nothing comes in time
        client.assertFailed("rc-pingpong", "messages sent");
        assertTrue(client.err().contains("received"), client::toString);
    }

    @Test
    void badArgumentsAreNamed()
    {
        IbexRun.run(args("-g", "1", "-s", "0")).assertFailed("rc-pingpong", "-s/--size 0 out of range 1..");
        IbexRun.run(args("-g", "1", "-s", "4294967296"))
            .assertFailed("rc-pingpong", "-s/--size 4294967296 out of range 1..");
        IbexRun.run(args("-g", "1", "-d", "nosuch0")).assertFailed("rc-pingpong", "has no device 'nosuch0'");
        IbexRun.run(args("-g", "1", "-i", "2")).assertFailed("rc-pingpong", "port 2 out of range: soft0 has port 1");
        IbexRun.run(args("-g", "7"))
            .assertFailed("rc-pingpong", "GID index 7 out of range: soft0 port 1 has a GID table of 2 entries");
        IbexRun.run(args()).assertFailed("rc-pingpong", "soft0 port 1 has an Ethernet link layer");
        IbexRun.run(args("-g", "1", "-m", "1000")).assertFailed("rc-pingpong", "-m/--mtu: MTU 1000 is not one of");
        IbexRun.run(args("-g", "1", "-n", "0")).assertFailed("rc-pingpong", "-n/--iters 0 must be at least 1");
        IbexRun.run(args("-g", "1", "-t"))
            .assertFailed("rc-pingpong", "-t/--ts (completion timestamps) is not supported");
        IbexRun.run(args("-g", "1", "--odp"))
            .assertFailed("rc-pingpong", "-o/--odp (on-demand paging) is not supported");
    }

    @Test
    void aMalformedAddressMessageIsRefusedWithItsText() throws Exception
    {
        final IbexRun server = IbexRun.start(args("-g", "1")).awaitOutput("local address");
        final byte[] message = "0000:00001z:000000:00000000000000000000ffff7f000001\0"
            .getBytes(StandardCharsets.US_ASCII);
        try (Socket peer = new Socket(InetAddress.getLoopbackAddress(), port))
        {
            peer.getOutputStream().write(message);
            server.assertFailed("rc-pingpong", "sent a malformed address message: the QPN has 'z' at byte 10");
        }
        assertTrue(server.err().contains("0000:00001z:000000:00000000000000000000ffff7f000001."), server::toString);
    }

    @Test
    void aClientThatHangsUpMidMessageIsNamed() throws Exception
    {
        final IbexRun server = IbexRun.start(args("-g", "1")).awaitOutput("local address");
        try (Socket peer = new Socket(InetAddress.getLoopbackAddress(), port))
        {
            final OutputStream out = peer.getOutputStream();
            out.write("0000:000011:".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }
        server.assertFailed("rc-pingpong", "closed the connection after 12 of the 52 bytes of its address message");
    }

    @Test
    void aSilentClientTimesOut() throws Exception
    {
        final IbexRun server = IbexRun.start(args("-g", "1", "--timeout-ms", "300")).awaitOutput("local address");
        try (Socket ignored = new Socket(InetAddress.getLoopbackAddress(), port))
        {
            server.assertFailed("rc-pingpong", "did not send its address message within 300 ms (got 0 of 52 bytes)");
        }
    }

    @Test
    void noClientAtAllTimesOut()
    {
        IbexRun.run(args("-g", "1", "--timeout-ms", "200"))
            .assertFailed("rc-pingpong", "no client connected to TCP port " + port + " within 200 ms");
    }

    @Test
    void noServerIsNamed()
    {
        IbexRun.run(args("-g", "1", "127.0.0.1")).assertFailed("rc-pingpong", "cannot connect to 127.0.0.1:" + port);
    }
}
