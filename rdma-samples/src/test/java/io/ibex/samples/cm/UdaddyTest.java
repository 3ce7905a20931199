package io.ibex.samples.cm;

import io.ibex.rdma.testing.LoopbackPorts;
import io.ibex.samples.IbexRun;
import io.ibex.samples.SoftResourcesReleased;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.ibex.samples.cm.CmPrograms.LOOPBACK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
@ExtendWith(SoftResourcesReleased.class)
class UdaddyTest
{
    private final int port = LoopbackPorts.next();

    @Test
    void twoEndpointsEachWayExchangeTheirDatagrams()
    {
        final int nodes = 2;
        final int count = 4;
        final int size = 100;
        final IbexRun server = CmPrograms.start("udaddy", "-b", LOOPBACK, "--port", "" + port,
            "-c", "" + nodes, "-C", "" + count, "-S", "" + size);
        IbexRun.awaitListening(port, server);

        final IbexRun client = CmPrograms.run("udaddy", "-s", LOOPBACK, "--port", "" + port,
            "-c", "" + nodes, "-C", "" + count, "-S", "" + size).assertStatus(0);
        server.assertStatus(0);

        final Set<String> clientQpns = new HashSet<>();
        final Set<String> serverQpns = new HashSet<>();
        for (int node = 0; node < nodes; node++)
        {
            final Matcher received = server.line(Pattern.compile("^udaddy: node " + node + ": received (\\d+) " +
                "messages of (\\d+) bytes from QPN (0x[0-9a-f]{6}) at ([0-9a-f:]+)$"));
            assertEquals(List.of("" + count, "" + size), List.of(received.group(1), received.group(2)));
            clientQpns.add(received.group(3));
            final Matcher replies = client.line(Pattern.compile("^udaddy: node " + node + ": received (\\d+) " +
                "replies of (\\d+) bytes from QPN (0x[0-9a-f]{6}), echoing (\\d+) bytes sent$"));
            assertEquals(List.of("" + count, "" + size, "" + (size - 40)),
                List.of(replies.group(1), replies.group(2), replies.group(4)));
            serverQpns.add(replies.group(3));
        }
        assertEquals(nodes, clientQpns.size(), "each server endpoint heard from its own client QP");
        assertEquals(nodes, serverQpns.size(), "each client endpoint heard from its own server QP");
        assertEquals(List.of("udaddy: starting client", "udaddy: connecting", "initiating data transfers",
            "receiving data transfers"), client.outLines().subList(0, 4));
        assertEquals(List.of("data transfers complete", "test complete", "return status 0"),
            client.outLines().subList(4 + nodes, 7 + nodes));
        assertEquals(List.of("sending replies", "data transfers complete", "test complete", "return status 0"),
            server.outLines().subList(2 + nodes, 6 + nodes));
    }

    @Test
    void messagesNoLongerThanTheGrhEchoNothingYetArrive()
    {
        final IbexRun server = CmPrograms.start("udaddy", "-b", LOOPBACK, "--port", "" + port,
            "-C", "2", "-S", "30");
        IbexRun.awaitListening(port, server);

        final IbexRun client = CmPrograms.run("udaddy", "-s", LOOPBACK, "--port", "" + port,
            "-C", "2", "-S", "30").assertStatus(0);
        server.assertStatus(0);

        client.line(Pattern.compile("^udaddy: node 0: received 2 replies of 30 bytes from QPN 0x[0-9a-f]{6}, " +
            "echoing 0 bytes sent$"));
        server.line(Pattern.compile("^udaddy: node 0: received 2 messages of 30 bytes from QPN .*$"));
    }

    @Test
    void noMessagesOnlyPairsTheEndpoints()
    {
        final IbexRun server = CmPrograms.start("udaddy", "-b", LOOPBACK, "--port", "" + port, "-C", "0");
        IbexRun.awaitListening(port, server);

        final IbexRun client = CmPrograms.run("udaddy", "-s", LOOPBACK, "--port", "" + port, "-C", "0")
            .assertStatus(0);
        server.assertStatus(0);

        assertEquals(List.of("udaddy: starting client", "udaddy: connecting", "test complete", "return status 0"),
            client.outLines());
        assertEquals(List.of("udaddy: starting server", "test complete", "return status 0"), server.outLines());
    }

    @Test
    void aClientWithNoServerFailsNamingUnreachable()
    {
        final IbexRun client = CmPrograms.run("udaddy", "-s", LOOPBACK, "--port", "" + port, "-C", "1")
            .assertStatus(1);

        assertTrue(client.err().startsWith("ibex udaddy: error: awaiting the connection of 1 of 1 endpoints to " +
            "/127.0.0.1:" + port + ", got UNREACHABLE"), client::toString);
    }

    @Test
    void anAddressNoDeviceReachesFailsNamingAddrError()
    {
        final IbexRun client = CmPrograms.run("udaddy", "-s", "192.0.2.1", "--port", "" + port)
            .assertStatus(1);

        assertTrue(client.err().startsWith("ibex udaddy: error: awaiting the connection of 1 of 1 endpoints to " +
            "/192.0.2.1:" + port + ", got ADDR_ERROR"), client::toString);
    }

    @Test
    void aClientsMessageLargerThanTheMtuIsRefusedBeforeItConnects()
    {
        final IbexRun client = CmPrograms.run("udaddy", "-s", LOOPBACK, "--port", "" + port,
            "-S", "5000").assertStatus(1);

        assertEquals("ibex udaddy: error: -S 5000 is larger than the active MTU 4096 of soft0 port 1",
            client.err().strip());
    }

    @Test
    void aServersMessageLargerThanTheMtuTurnsTheClientAway()
    {
        final IbexRun server = CmPrograms.start("udaddy", "-b", LOOPBACK, "--port", "" + port,
            "-S", "5000");
        IbexRun.awaitListening(port, server);

        final IbexRun client = CmPrograms.run("udaddy", "-s", LOOPBACK, "--port", "" + port)
            .assertStatus(1);
        server.assertStatus(1);

        assertEquals("ibex udaddy: error: -S 5000 is larger than the active MTU 4096 of soft0 port 1",
            server.err().strip());
        assertTrue(client.err().startsWith("ibex udaddy: error: awaiting the connection of 1 of 1 endpoints to " +
            "/127.0.0.1:" + port + ", got UNREACHABLE"), client::toString);
    }

    @Test
    void badArgumentsAreNamed()
    {
        assertEquals("ibex udaddy: error: -p 0x0002: port space 0x0002 is not supported; ibex udaddy uses " +
            "RDMA_PS_UDP (0x0111)", CmPrograms.run("udaddy", "-p", "0x0002").assertStatus(1).err().strip());
        assertEquals("ibex udaddy: error: -p udp: not a port space number",
            CmPrograms.run("udaddy", "-p", "udp").assertStatus(1).err().strip());
        assertEquals("ibex udaddy: error: -c 0 must be in 1..32767",
            CmPrograms.run("udaddy", "-c", "0").assertStatus(1).err().strip());
        assertEquals("ibex udaddy: error: --port 0 must be in 1..65535",
            CmPrograms.run("udaddy", "-s", LOOPBACK, "--port", "0").assertStatus(1).err().strip());
    }
}
