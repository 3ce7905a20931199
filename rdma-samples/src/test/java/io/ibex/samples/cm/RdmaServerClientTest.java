package io.ibex.samples.cm;

import io.ibex.rdma.testing.LoopbackPorts;
import io.ibex.samples.IbexRun;
import io.ibex.samples.SoftResourcesReleased;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.ibex.samples.cm.CmPrograms.LOOPBACK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
@ExtendWith(SoftResourcesReleased.class)
class RdmaServerClientTest
{
    private static final Pattern SERVER_LINE =
        Pattern.compile("^rdma-server: received (\\d+) bytes from /127\\.0\\.0\\.1:(\\d+), sent (\\d+)$");
    private static final Pattern CLIENT_LINE =
        Pattern.compile("^rdma-client: sent (\\d+) bytes to /127\\.0\\.0\\.1:(\\d+), received (\\d+)$");

    private final int port = LoopbackPorts.next();

    @Test
    void serverAndClientExchangeSixteenBytesEachWay()
    {
        final IbexRun server = CmPrograms.start("rdma-server", "-s", LOOPBACK, "-p", "" + port);
        IbexRun.awaitListening(port, server);

        final IbexRun client = CmPrograms.run("rdma-client", "-s", LOOPBACK, "-p", "" + port).assertStatus(0);
        server.assertStatus(0);

        final Matcher clientLine = client.line(CLIENT_LINE);
        assertEquals("16", clientLine.group(1));
        assertEquals("" + port, clientLine.group(2), "the client names the server's port");
        assertEquals("16", clientLine.group(3));
        final Matcher serverLine = server.line(SERVER_LINE);
        assertEquals("16", serverLine.group(1));
        assertEquals("16", serverLine.group(3));
        assertEquals(
            List.of("rdma-client: start", clientLine.group(), "rdma-client: end 0"), client.outLines());
        assertEquals(
            List.of("rdma-server: start", serverLine.group(), "rdma-server: end 0"), server.outLines());
    }

    @Test
    void aClientWithNoServerFailsNamingRejected()
    {
        final IbexRun client = CmPrograms.run("rdma-client", "-s", LOOPBACK, "-p", "" + port).assertStatus(1);

        assertEquals("ibex rdma-client: error: awaiting ESTABLISHED (the connection to /127.0.0.1:" + port +
            "), got REJECTED (status 8: nothing listens on that port)", client.err().strip());
    }

    @Test
    void anAddressNoDeviceReachesFailsNamingAddrError()
    {
        // TEST-NET-1: the soft connection manager serves only loopback and refuses it without sending anything
        final IbexRun client = CmPrograms.run("rdma-client", "-s", "192.0.2.1", "-p", "" + port)
            .assertStatus(1);

        assertTrue(client.err().startsWith("ibex rdma-client: error: awaiting ADDR_RESOLVED (the address " +
            "resolution of /192.0.2.1:" + port + "), got ADDR_ERROR"), client::toString);
    }

    @Test
    void aPortOutOfRangeIsABadArgument()
    {
        final IbexRun server = CmPrograms.run("rdma-server", "-p", "70000").assertStatus(1);

        assertEquals("ibex rdma-server: error: -p 70000 must be in 1..65535", server.err().strip());
        assertEquals("", server.out(), "nothing starts on a bad argument");
    }

    @Test
    void aServerWhoseClientLeavesBeforeItsMessageFailsNamingWhatItAwaited()
    {
        final IbexRun server = CmPrograms.start("rdma-server", "-s", LOOPBACK, "-p", "" + port);
        IbexRun.awaitListening(port, server);

        try (MisbehavingPeer peer = MisbehavingPeer.connect(port))
        {
            peer.disconnect();
            server.assertStatus(1);
        }

        assertTrue(server.err().startsWith("ibex rdma-server: error: "), server::toString);
        assertTrue(server.err().contains(" while awaiting the client's message"), server::toString);
    }

    @Test
    void aServerNobodyConnectsToGivesUpAfterItsTimeout()
    {
        final IbexRun server = CmPrograms.run("rdma-server", "-s", LOOPBACK, "-p", "" + port,
            "--timeout-ms", "300").assertStatus(1);

        assertEquals("ibex rdma-server: error: no connection-manager event within 300 ms while awaiting " +
            "CONNECT_REQUEST (a connection request on /127.0.0.1:" + port + ")", server.err().strip());
    }

    @Test
    void aClientWhoseServerNeverAnswersGivesUpAfterItsTimeout() throws Exception
    {
        final CompletableFuture<MisbehavingPeer> silent =
            CompletableFuture.supplyAsync(() -> MisbehavingPeer.accept(port));
        IbexRun.awaitListening(port, () -> !silent.isDone(), silent);

        final IbexRun client = CmPrograms.run("rdma-client", "-s", LOOPBACK, "-p", "" + port,
            "--timeout-ms", "500").assertStatus(1);
        silent.get(10, TimeUnit.SECONDS).close();

        assertTrue(client.err().startsWith("ibex rdma-client: error: nothing came within 500 ms while awaiting " +
            "the server's reply: no completion on QP 0x"), client::toString);
    }
}
