package io.ibex.samples.verbs;

import io.ibex.rdma.Providers;
import io.ibex.rdma.testing.LoopbackPorts;
import io.ibex.rdma.verbs.Gid;
import io.ibex.samples.EndpointAddress;
import io.ibex.samples.IbexRun;
import io.ibex.samples.Inet6Text;
import io.ibex.samples.RcEndpoint;
import io.ibex.samples.SoftResourcesReleased;
import io.ibex.samples.verbs.RdmaWriteDescriptor.Notice;
import io.ibex.samples.verbs.RdmaWriteDescriptor.Peer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(SoftResourcesReleased.class)
class RdmaWriteCommandTest
{
    private static final String MESSAGE = "Über die Leitung, ohne die CPU des Empfängers: RDMA WRITE";

    private final int port = LoopbackPorts.next();
    private String[] args(final String... more)
    {
        return IbexRun.outOfBandArgs("rdma-write", port, more);
    }

    private static void assertArrivedIntact(final IbexRun server, final IbexRun client, final String message)
    {
        final int length = message.getBytes(StandardCharsets.UTF_8).length;
        assertTrue(client.out().lines().anyMatch((l) ->
            l.matches("arrived: " + length + " bytes at 0x[0-9a-f]+: \"\\Q" + message + "\\E\"")), client::toString);
        assertTrue(client.out().contains("done: the message arrived intact"), client::toString);
        assertTrue(server.out().contains("done: the client found the " + length + " bytes intact"), server::toString);
        assertEquals(client.address("local").split(";")[0], server.address("remote").split(";")[0]);
    }

    @Test
    void theServerWritesStraightIntoTheClientsBuffer()
    {
        final IbexRun server = IbexRun.start(args("-m", MESSAGE)).awaitOutput("local address");
        final IbexRun client = IbexRun.run(args("127.0.0.1"));

        server.assertSucceeded();
        client.assertSucceeded();
        assertArrivedIntact(server, client, MESSAGE);
        // the server wrote to the address and rkey the client announced
        final String clientBuffer = client.address("local").split("; ")[1];
        assertTrue(server.address("remote").endsWith(clientBuffer), server::toString);
    }

    @Test
    void serverAndClientAsSeparateProcesses()
    {
        final IbexRun server = IbexRun.startJvm(args("-m", "sixteen bytes!!!")).awaitOutput("local address");
        final IbexRun client = IbexRun.startJvm(args("-s", "16", "localhost"));

        client.assertSucceeded();
        server.assertSucceeded();
        assertArrivedIntact(server, client, "sixteen bytes!!!");
    }

    @Test
    void aMessageLargerThanTheClientsBufferFailsBothSides()
    {
        final IbexRun server = IbexRun.start(args("-m", "seventeen bytes!!")).awaitOutput("local address");
        final IbexRun client = IbexRun.run(args("-s", "16", "127.0.0.1"));

        server.assertFailed("rdma-write", "the 17-byte message does not fit the client's buffer of 16 bytes");
        client.assertFailed("rdma-write", "closed the connection");
    }

    @Test
    void aServerThatSaysItWroteButDidNotFailsTheClient() throws Exception
    {
        try (ServerSocket listener = new ServerSocket(port, 1, InetAddress.getLoopbackAddress());
            RcEndpoint fake = RcEndpoint.open(Providers.select("soft").devices().get(0), 1, 1, 64, 1))
        {
            final IbexRun client = IbexRun.start(args("127.0.0.1"));
            try (Socket peer = listener.accept())
            {
                final InputStream in = peer.getInputStream();
                final Peer clientPeer =
                    RdmaWriteDescriptor.decodeAddress(in.readNBytes(RdmaWriteDescriptor.ADDRESS_LENGTH));
                fake.connect(clientPeer.endpoint());
                peer.getOutputStream().write(RdmaWriteDescriptor.encodeAddress(
                    new Peer(fake.address(), fake.mr().address(), fake.mr().rkey(), 64)));
                RdmaWriteDescriptor.decodeNotice(in.readNBytes(RdmaWriteDescriptor.NOTICE_LENGTH),
                    RdmaWriteDescriptor.READY);
                final CRC32 crc = new CRC32();
                crc.update(MESSAGE.getBytes(StandardCharsets.UTF_8));
                peer.getOutputStream().write(RdmaWriteDescriptor.encodeNotice(new Notice(RdmaWriteDescriptor.WRITTEN,
                    MESSAGE.getBytes(StandardCharsets.UTF_8).length, (int)crc.getValue())));
                final Notice arrived = RdmaWriteDescriptor.decodeNotice(
                    in.readNBytes(RdmaWriteDescriptor.NOTICE_LENGTH), RdmaWriteDescriptor.ARRIVED);

                client.assertFailed("rdma-write", "bytes in our buffer are not what the server wrote");
                assertTrue(arrived.crc() != (int)crc.getValue());
            }
        }
    }

    @Test
    void aMalformedAddressMessageIsNamed() throws Exception
    {
        try (ServerSocket listener = new ServerSocket(port, 1, InetAddress.getLoopbackAddress()))
        {
            final IbexRun client = IbexRun.start(args("127.0.0.1"));
            try (Socket peer = listener.accept())
            {
                peer.getInputStream().readNBytes(RdmaWriteDescriptor.ADDRESS_LENGTH);
                final byte[] garbage = new byte[RdmaWriteDescriptor.ADDRESS_LENGTH];
                Arrays.fill(garbage, (byte)'A');
                peer.getOutputStream().write(garbage);
                client.assertFailed("rdma-write",
                    "sent a malformed address message: magic 0x41414141, expected 0x49425841 ('IBXA')");
            }
        }
    }

    @Test
    void badWireDataIsRefusedFieldByField()
    {
        final Peer valid = RdmaWriteDescriptor.decodeAddress(RdmaWriteDescriptor.encodeAddress(new Peer(
            new EndpointAddress(7, 0x123456, 0xabcdef, Gid.parse("::ffff:10.0.0.1")),
            0x7f0012345678L, 0x1234, 4096)));
        assertEquals(0x123456, valid.endpoint().qpNum());
        assertEquals(0xabcdef, valid.endpoint().psn());
        assertEquals(0x7f0012345678L, valid.address());
        assertEquals("::ffff:10.0.0.1", Inet6Text.format(valid.endpoint().gid()));

        final byte[] zeroLength = RdmaWriteDescriptor.encodeAddress(valid);
        zeroLength[RdmaWriteDescriptor.LENGTH_OFFSET + 3] = 0;
        zeroLength[RdmaWriteDescriptor.LENGTH_OFFSET + 2] = 0;
        assertRefused(zeroLength, "length 0: expected a registered buffer");

        final byte[] bigQpn = RdmaWriteDescriptor.encodeAddress(valid);
        bigQpn[RdmaWriteDescriptor.QPN_OFFSET] = 1;
        assertRefused(bigQpn, "QPN 0x1123456 is not the number of a queue pair");

        final byte[] version = RdmaWriteDescriptor.encodeAddress(valid);
        version[RdmaWriteDescriptor.VERSION_OFFSET + 1] = 9;
        assertRefused(version, "address message version 9, expected 1");

        final byte[] notice = RdmaWriteDescriptor.encodeNotice(new Notice(RdmaWriteDescriptor.ARRIVED, 3, 0));
        final IllegalArgumentException wrongKind = assertThrows(IllegalArgumentException.class,
            () -> RdmaWriteDescriptor.decodeNotice(notice, RdmaWriteDescriptor.WRITTEN));
        assertEquals("notice of kind 3, expected 2 (WRITTEN)", wrongKind.getMessage());
    }

    private static void assertRefused(final byte[] message, final String problem)
    {
        final IllegalArgumentException refused = assertThrows(
            IllegalArgumentException.class, () -> RdmaWriteDescriptor.decodeAddress(message));
        assertTrue(refused.getMessage().contains(problem), refused.getMessage());
    }
}
