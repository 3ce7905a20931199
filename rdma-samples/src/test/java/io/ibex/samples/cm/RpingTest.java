package io.ibex.samples.cm;

import io.ibex.rdma.testing.LoopbackPorts;
import io.ibex.samples.IbexRun;
import io.ibex.samples.SoftResourcesReleased;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.ibex.samples.cm.CmPrograms.LOOPBACK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 90, unit = TimeUnit.SECONDS)
@ExtendWith(SoftResourcesReleased.class)
class RpingTest
{
    private static final Pattern CLIENT_DATA = Pattern.compile("^ping data: (rdma-ping-(\\d+): (.*))$");
    private static final String SERVER_DATA = "server ping data: ";

    private final int port = LoopbackPorts.next();

    @Test
    void serverAndClientPingWithVerboseAndValidate()
    {
        final int count = 5;
        final int size = 100;
        final IbexRun server = CmPrograms.start(
            "rping", "-s", "-a", LOOPBACK, "-p", "" + port, "-C", "" + count, "-S", "" + size, "-v", "-V");
        IbexRun.awaitListening(port, server);

        final IbexRun client = CmPrograms.run(
            "rping", "-c", "-a", LOOPBACK, "-p", "" + port, "-C", "" + count, "-S", "" + size, "-v", "-V");

        client.assertStatus(0);
        server.assertStatus(0);
        final List<String> pings = checkPingData(client.outLines(), count, size);
        assertEquals(serverData(server.outLines()), pings, "the server read what the client got back");
    }

    @Test
    void aServerInAJvmOfItsOwnPingsWithAClientInThisOne() throws Exception
    {
        final int count = 3;
        final IbexRun server = IbexRun.startJvm("rping", "-s", "-a", LOOPBACK, "-p", "" + port, "-C", "" + count,
            "-v", "-V", "--provider", "soft");
        IbexRun.awaitListening(port, server);

        final IbexRun client = CmPrograms.run(
            "rping", "-c", "-a", LOOPBACK, "-p", "" + port, "-C", "" + count, "-v", "-V").assertStatus(0);

        server.assertStatus(0);
        final List<String> pings = checkPingData(client.outLines(), count, RpingPattern.DEFAULT_SIZE);
        assertEquals(serverData(server.outLines()), pings);
    }

    @Test
    void aClientBufferLargerThanTheServersFailsBothNamingThePing()
    {
        final IbexRun server = CmPrograms.start("rping", "-s", "-a", LOOPBACK, "-p", "" + port, "-S", "64");
        IbexRun.awaitListening(port, server);

        final IbexRun client = CmPrograms.run(
            "rping", "-c", "-a", LOOPBACK, "-p", "" + port, "-S", "100", "-C", "1").assertStatus(1);

        server.assertStatus(1);
        assertEquals("ibex rping: error: ping 0: the client's source buffer of 100 bytes does not fit this " +
            "server's 64-byte buffer (-S 64)", server.err().strip());
        assertTrue(client.err().startsWith("ibex rping: error: "), client::toString);
        assertTrue(client.err().contains("while awaiting the server's go-ahead after its RDMA READ (ping 0)"),
            client::toString);
    }

    @Test
    void aMessageShorterThanRpingsIsBogusData()
    {
        final IbexRun server = CmPrograms.start("rping", "-s", "-a", LOOPBACK, "-p", "" + port);
        IbexRun.awaitListening(port, server);

        try (MisbehavingPeer peer = MisbehavingPeer.connect(port))
        {
            peer.send(8); // a longer one would not fit the receive: a LOC_LEN_ERR completion, as in C
            server.assertStatus(1);
        }

        assertEquals("ibex rping: error: received bogus data while awaiting the client's source buffer " +
            "(ping 0): 8 bytes, where rping's message has 16", server.err().strip());
    }

    @Test
    void theValidatingServerRejectsDataThatIsNotRpings()
    {
        final IbexRun server = CmPrograms.start("rping", "-s", "-a", LOOPBACK, "-p", "" + port, "-V");
        IbexRun.awaitListening(port, server);
        final byte[] data = "rdma-ping-0: hello\0".getBytes(StandardCharsets.US_ASCII);

        try (MisbehavingPeer peer = MisbehavingPeer.connect(port))
        {
            peer.advertise(data);
            server.assertStatus(1);
        }

        assertEquals(String.format("ibex rping: error: ping 0: the client's ping data differs from rping's at " +
            "byte 13 of %d (0x68)", data.length), server.err().strip());
    }

    @Test
    void aClientThatDiesInTheMiddleOfAPingFailsTheServerNamingWhatItAwaited() throws Exception
    {
        final IbexRun server = CmPrograms.start("rping", "-s", "-a", LOOPBACK, "-p", "" + port, "-V");
        IbexRun.awaitListening(port, server);

        final String client = CmPrograms.awaitJvm(CmPrograms.startJvm(RpingDyingClient.class, "" + port));

        assertTrue(client.contains("dying after the server's first go-ahead"), client);
        server.assertStatus(1);
        assertTrue(server.err().startsWith("ibex rping: error: "), server::toString);
        assertTrue(server.err().contains("while awaiting the client's sink buffer (ping 0)"), server::toString);
    }

    @Test
    void aServerExpectingMorePingsThanTheClientMadeFails()
    {
        final IbexRun server = CmPrograms.start("rping", "-s", "-a", LOOPBACK, "-p", "" + port, "-C", "3");
        IbexRun.awaitListening(port, server);

        CmPrograms.run("rping", "-c", "-a", LOOPBACK, "-p", "" + port, "-C", "2").assertStatus(0);

        server.assertStatus(1);
        assertEquals("ibex rping: error: the client disconnected after 2 pings, expected 3 (-C 3)",
            server.err().strip());
    }

    @Test
    void aClientWithNoServerFailsNamingRejected()
    {
        final IbexRun client = CmPrograms.run("rping", "-c", "-a", LOOPBACK, "-p", "" + port, "-C", "1")
            .assertStatus(1);

        assertEquals("ibex rping: error: awaiting ESTABLISHED (the connection to /127.0.0.1:" + port + "), got " +
            "REJECTED (status 8: nothing listens on that port)", client.err().strip());
    }

    @Test
    void badArgumentsAreNamed()
    {
        assertEquals("ibex rping: error: exactly one of -s (server) and -c (client) is required",
            CmPrograms.run("rping", "-a", LOOPBACK).assertStatus(1).err().strip());
        assertEquals("ibex rping: error: exactly one of -s (server) and -c (client) is required",
            CmPrograms.run("rping", "-s", "-c").assertStatus(1).err().strip());
        assertEquals("ibex rping: error: the client needs the server's address: -a ADDRESS",
            CmPrograms.run("rping", "-c").assertStatus(1).err().strip());
        assertEquals("ibex rping: error: -S 22 must be in 23..65535",
            CmPrograms.run("rping", "-c", "-a", LOOPBACK, "-S", "22").assertStatus(1).err().strip());
        assertEquals("ibex rping: error: -C -1 must be in 0..2147483647",
            CmPrograms.run("rping", "-c", "-a", LOOPBACK, "-C", "-1").assertStatus(1).err().strip());
        assertEquals("ibex rping: error: -p 0 must be in 1..65535",
            CmPrograms.run("rping", "-s", "-p", "0").assertStatus(1).err().strip());
    }

    @Test
    void helpShowsRpingsOptionsWithMinusVForValidation()
    {
        final String usage = CmPrograms.run("rping", "--help").assertStatus(0).out();

        assertTrue(usage.contains("-V                        Validate the ping data."), usage);
        assertTrue(usage.contains("-S=SIZE                   Bytes of ping data, 23..65535 (default: 64)."), usage);
    }

    /**
     * Checks the client's "ping data" lines: one per ping, numbered from 0, each the text rping writes
     * ("rdma-ping-N: " and the letters from 'A' + N on, cycling through 'A'..'z') of {@code size - 1} bytes.
     *
     * @return the ping data.
     */
    private static List<String> checkPingData(final List<String> lines, final int count, final int size)
    {
        final List<String> pings = new ArrayList<>();
        for (final String line : lines)
        {
            final Matcher matcher = CLIENT_DATA.matcher(line);
            if (!matcher.matches())
            {
                continue;
            }
            final int ping = Integer.parseInt(matcher.group(2));
            assertEquals(pings.size(), ping, line);
            final String data = matcher.group(1);
            assertEquals(size - 1, data.length(), line);
            final String letters = matcher.group(3);
            for (int i = 0; i < letters.length(); i++)
            {
                assertEquals((char)('A' + (ping + i) % ('z' - 'A' + 1)), letters.charAt(i), line);
            }
            pings.add(data);
        }
        assertEquals(count, pings.size(), () -> "ping data lines: " + lines);
        return pings;
    }

    private static List<String> serverData(final List<String> lines)
    {
        return lines.stream().filter(line -> line.startsWith(SERVER_DATA))
            .map(line -> line.substring(SERVER_DATA.length())).toList();
    }
}
