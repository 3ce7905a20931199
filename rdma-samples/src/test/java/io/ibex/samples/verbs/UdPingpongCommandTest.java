package io.ibex.samples.verbs;

import io.ibex.rdma.testing.LoopbackPorts;
import io.ibex.samples.IbexRun;
import io.ibex.samples.SoftResourcesReleased;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;

@ExtendWith(SoftResourcesReleased.class)
class UdPingpongCommandTest
{
    private final int port = LoopbackPorts.next();
    private String[] args(final String... more)
    {
        return IbexRun.outOfBandArgs("ud-pingpong", port, more);
    }

    @Test
    void serverAndClientExchangeEveryDatagramBehindTheGrhArea()
    {
        final IbexRun server = IbexRun.start(args("-g", "1", "-n", "40", "-c")).awaitOutput("local address");
        final IbexRun client = IbexRun.run(args("-g", "1", "-n", "40", "-c", "-e", "127.0.0.1"));

        server.assertSucceeded();
        client.assertSucceeded();
        for (final IbexRun side : new IbexRun[] { server, client })
        {
            assertEquals(40, side.iters(), side::toString);
            assertEquals(1024L * 40 * 2, side.bytes(), side::toString);
        }
        assertEquals(client.address("local"), server.address("remote"));
        assertEquals(server.address("local"), client.address("remote"));
        // ibv_ud_pingpong's local line has a colon before the GID
        server.awaitOutput(" PSN 0x").out().lines().filter((l) -> l.startsWith("  local address:"))
            .forEach((l) -> assertEquals(true, l.matches(".*, PSN 0x[0-9a-f]{6}: GID .*"), l));
    }

    @Test
    void serverAndClientAsSeparateProcesses()
    {
        final IbexRun server = IbexRun.startJvm(args("-g", "0", "-s", "4000", "-n", "20", "-c", "-e"))
            .awaitOutput("local address");
        final IbexRun client = IbexRun.startJvm(args("-g", "1", "-s", "4000", "-n", "20", "-c", "localhost"));

        client.assertSucceeded();
        server.assertSucceeded();
        assertEquals(4000L * 20 * 2, server.bytes());
        assertEquals(20, client.iters());
    }

    @Test
    void aServerThatDiesMidRunTimesTheClientOutNamingWhatItAwaited()
    {
        final IbexRun server = IbexRun.startJvm(args("-g", "1", "-n", "1000000")).awaitOutput("local address");
        final IbexRun client = IbexRun.start(args("-g", "1", "-n", "1000000", "--timeout-ms", "1000", "127.0.0.1"));
        client.awaitOutput("remote address");
        server.awaitOutput("remote address");
        server.kill();

        client.assertFailed("ud-pingpong", "no completion within 1000 ms while awaiting the peer's message");
    }

    @Test
    void badArgumentsAreNamed()
    {
        IbexRun.run(args("-g", "1", "-s", "8192"))
            .assertFailed("ud-pingpong", "-s/--size 8192 is larger than the active MTU of soft0 port 1 (4096 bytes)");
        IbexRun.run(args("-g", "1", "-s", "0")).assertFailed("ud-pingpong", "-s/--size 0 out of range 1..");
        IbexRun.run(args("-g", "2")).assertFailed("ud-pingpong", "GID index 2 out of range");
        IbexRun.run(args("-g", "-3")).assertFailed("ud-pingpong", "-g/--gid-idx -3: a GID index is 0 or more");
        IbexRun.run(args("-g", "1", "-r", "0")).assertFailed("ud-pingpong", "-r/--rx-depth 0 must be at least 1");
        final String[] badPort = args("-g", "1");
        badPort[Arrays.asList(badPort).indexOf("-p") + 1] = "70000";
        IbexRun.run(badPort).assertFailed("ud-pingpong", "-p/--port 70000 out of range");
        IbexRun.run(args("-g", "1", "-i", "0")).assertFailed("ud-pingpong", "port 0 out of range");
    }
}
