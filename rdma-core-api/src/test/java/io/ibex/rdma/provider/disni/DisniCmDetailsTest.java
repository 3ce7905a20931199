package io.ibex.rdma.provider.disni;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import com.ibm.disni.util.MemoryUtils;
import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.RdmaCm;
import com.ibm.disni.verbs.RdmaCmEvent.EventType;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaConnParam;
import io.ibex.rdma.verbs.VerbsException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The DiSNI defects this library fixes, seen from Java: the port space is honoured (a UDP id connects by SIDR
 * and its ESTABLISHED event carries UD parameters, read with IbexNative.cmEventDetails), private data on
 * accept arrives, connect's private data is kept past DiSNI's immediate ack, and _resolveAddr binds to a given
 * source address.
 */
@Tag("verbs")
@Timeout(120)
class DisniCmDetailsTest
{
    private static final int RDMA_PS_IB = 0x013F;
    private static final int IBV_QPT_UC = 3;
    private static final int RDMA_UDP_QKEY = 0x01234567;
    private static final byte[] IPV4_MAPPED_PREFIX = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte)0xff, (byte)0xff};

    @BeforeAll
    static void openDevice() throws Exception
    {
        DisniPeer.openDevice();
    }

    @Test
    void udpPortSpaceGivesUdEventParameters() throws Exception
    {
        try (DisniPeer server = new DisniPeer(); DisniPeer client = new DisniPeer())
        {
            final RdmaCmId listener = server.createId(RdmaCm.RDMA_PS_UDP);
            listener.bindAddr(new InetSocketAddress(InetAddress.getByName(DisniPeer.ADDRESS), 0));
            listener.listen(4);
            final RdmaCmId connector = client.createId(RdmaCm.RDMA_PS_UDP);
            client.resolve(connector, (InetSocketAddress)listener.getSource());
            client.endpoint(connector, IbvQP.IBV_QPT_UD);
            connector.connect(new RdmaConnParam());

            final RdmaCmId accepted = server.own(server.await(EventType.RDMA_CM_EVENT_CONNECT_REQUEST).getConnIdPriv());
            final long[] request = new long[IbexNative.CM_EVENT_LENGTH];
            IbexNative.cmEventDetails(DisniPeer.handle(server.channel), request, new byte[16], new byte[256]);
            assertEquals(1, request[IbexNative.CM_IS_UD], "a UDP id's connection request carries UD parameters");
            final DisniPeer.Endpoint passive = server.endpoint(accepted, IbvQP.IBV_QPT_UD);
            accepted.accept(new RdmaConnParam());

            client.await(EventType.RDMA_CM_EVENT_ESTABLISHED);
            final long[] details = new long[IbexNative.CM_EVENT_LENGTH];
            final byte[] dgid = new byte[16];
            IbexNative.cmEventDetails(DisniPeer.handle(client.channel), details, dgid, new byte[256]);
            assertEquals(0, details[IbexNative.CM_STATUS], "status");
            assertEquals(1, details[IbexNative.CM_IS_UD], "UD parameters (DiSNI always made a TCP id)");
            assertEquals(passive.qp.getQp_num(), details[IbexNative.CM_QP_NUM], "the server's UD QP number");
            assertEquals(RDMA_UDP_QKEY, details[IbexNative.CM_QKEY], "rdma_cm's UDP qkey");
            assertEquals(1, details[IbexNative.CM_AH + IbexNative.AH_IS_GLOBAL], "RoCE address handles are global");
            final byte[] expectedGid = Arrays.copyOf(IPV4_MAPPED_PREFIX, 16);
            System.arraycopy(InetAddress.getByName(DisniPeer.ADDRESS).getAddress(), 0, expectedGid, 12, 4);
            assertArrayEquals(expectedGid, dgid, "dgid: the server's IPv4-mapped GID");
            assertEquals(1, IbexNative.cmPortNum(DisniPeer.handle(connector)), "port of rxe0");
        }
    }

    @Test
    void privateDataOfConnectAndAcceptArrives() throws Exception
    {
        final byte[] hello = "hello from connect".getBytes(StandardCharsets.US_ASCII);
        final byte[] welcome = "welcome from accept".getBytes(StandardCharsets.US_ASCII);
        try (DisniPeer server = new DisniPeer(); DisniPeer client = new DisniPeer())
        {
            final RdmaCmId listener = server.createId(RdmaCm.RDMA_PS_TCP);
            listener.bindAddr(new InetSocketAddress(InetAddress.getByName(DisniPeer.ADDRESS), 0));
            listener.listen(4);
            final RdmaCmId connector = client.createId(RdmaCm.RDMA_PS_TCP);
            client.resolve(connector, (InetSocketAddress)listener.getSource());
            client.endpoint(connector, IbvQP.IBV_QPT_RC);
            final ByteBuffer helloBuffer = ByteBuffer.allocateDirect(hello.length).put(0, hello);
            final RdmaConnParam connect = new RdmaConnParam();
            connect.setPrivate_data(MemoryUtils.getAddress(helloBuffer));
            connect.setPrivate_data_len((byte)hello.length);
            connector.connect(connect);

            final RdmaCmId accepted = server.own(server.await(EventType.RDMA_CM_EVENT_CONNECT_REQUEST).getConnIdPriv());
            assertPrivateData(hello, server);
            server.endpoint(accepted, IbvQP.IBV_QPT_RC);
            final long[] param = new long[IbexNative.CONN_LENGTH];
            param[IbexNative.CONN_RESPONDER_RESOURCES] = 1;
            param[IbexNative.CONN_INITIATOR_DEPTH] = 1;
            param[IbexNative.CONN_RNR_RETRY_COUNT] = 7;
            IbexNative.cmAccept(DisniPeer.handle(accepted), param, welcome);

            client.await(EventType.RDMA_CM_EVENT_ESTABLISHED);
            assertPrivateData(welcome, client);
            server.await(EventType.RDMA_CM_EVENT_ESTABLISHED);

            final byte[] local = IbexNative.cmAddress(DisniPeer.handle(connector), false);
            final byte[] remote = IbexNative.cmAddress(DisniPeer.handle(connector), true);
            assertEquals(8, local.length, "IPv4 sockaddr bytes");
            assertArrayEquals(InetAddress.getByName(DisniPeer.ADDRESS).getAddress(), Arrays.copyOfRange(remote, 4, 8));
            final int port = ((remote[2] & 0xff) << 8) | (remote[3] & 0xff);
            assertEquals(((InetSocketAddress)listener.getSource()).getPort(), port, "peer port, network order");

            DisniPeer.disconnect(client, connector, server, accepted);
        }
    }

    @Test
    void resolveAddrBindsToTheGivenSource() throws Exception
    {
        try (DisniPeer peer = new DisniPeer())
        {
            final RdmaCmId id = peer.createId(RdmaCm.RDMA_PS_TCP);
            final int sourcePort = 40000 + (int)(ProcessHandle.current().pid() % 20000);
            final ByteBuffer source = sockaddrIn(DisniPeer.ADDRESS, sourcePort);
            final ByteBuffer destination = sockaddrIn(DisniPeer.ADDRESS, 7471);
            DisniPeer.dispatcher()._resolveAddr(DisniPeer.handle(id), MemoryUtils.getAddress(source),
                MemoryUtils.getAddress(destination), 2000);
            peer.await(EventType.RDMA_CM_EVENT_ADDR_RESOLVED);
            final InetSocketAddress bound = (InetSocketAddress)id.getSource();
            assertEquals(sourcePort, bound.getPort(), "source port given to resolveAddr (DiSNI passed NULL)");
            assertEquals(DisniPeer.ADDRESS, bound.getAddress().getHostAddress());
        }
    }

    @Test
    void cmCreateIdHonoursWhatLibrdmacmCanDo() throws Exception
    {
        try (DisniPeer peer = new DisniPeer())
        {
            final long channel = DisniPeer.handle(peer.channel);
            final VerbsException mismatch = assertThrows(VerbsException.class,
                () -> IbexNative.cmCreateId(channel, RdmaCm.RDMA_PS_TCP, IbvQP.IBV_QPT_UD));
            assertEquals(VerbsException.EINVAL, mismatch.errno());
            final long uc = IbexNative.cmCreateId(channel, RDMA_PS_IB, IBV_QPT_UC);
            assertTrue(uc != 0, "RDMA_PS_IB with UC gives an id");
            final byte[] unset = IbexNative.cmAddress(uc, false);
            assertEquals(0, unset.length, "no address before bind or resolve");
            DisniPeer.dispatcher()._bindAddr(uc, MemoryUtils.getAddress(sockaddrIn(DisniPeer.ADDRESS, 0)));
            assertEquals(1, IbexNative.cmPortNum(uc), "the UC id binds to rxe0's port");
            assertArrayEquals(InetAddress.getByName(DisniPeer.ADDRESS).getAddress(),
                Arrays.copyOfRange(IbexNative.cmAddress(uc, false), 4, 8), "its local address");
            assertEquals(0, DisniPeer.dispatcher()._destroyCmId(uc));
            assertThrows(VerbsException.class, () -> IbexNative.cmPortNum(uc), "a destroyed id is refused");
        }
    }

    @Test
    void ucQpCannotBeConnectedThroughRdmaCm() throws Exception
    {
        try (DisniPeer server = new DisniPeer(); DisniPeer client = new DisniPeer())
        {
            final RdmaCmId listener = server.createId((short)RDMA_PS_IB);
            listener.bindAddr(new InetSocketAddress(InetAddress.getByName(DisniPeer.ADDRESS), 0));
            listener.listen(4);
            final RdmaCmId connector = client.own(DisniPeer.id(client.channel,
                IbexNative.cmCreateId(DisniPeer.handle(client.channel), RDMA_PS_IB, IBV_QPT_UC)));
            client.resolve(connector, (InetSocketAddress)listener.getSource());
            client.endpoint(connector, (byte)IBV_QPT_UC);
            connector.connect(new RdmaConnParam());

            final RdmaCmId request = server.own(server.await(EventType.RDMA_CM_EVENT_CONNECT_REQUEST).getConnIdPriv());
            server.endpoint(request, (byte)IBV_QPT_UC);
            final IOException refused = assertThrows(IOException.class, () -> request.accept(new RdmaConnParam()),
                "the RC-typed id moves the UC QP to RTR with RC attributes");
            assertTrue(refused.getMessage().contains("Invalid argument"), refused.getMessage());
            IbexNative.cmReject(DisniPeer.handle(request), null);
            client.await(EventType.RDMA_CM_EVENT_REJECTED);
        }
    }

    private static void assertPrivateData(final byte[] expected, final DisniPeer peer)
    {
        final byte[] data = new byte[256];
        final int length = IbexNative.cmEventDetails(DisniPeer.handle(peer.channel),
            new long[IbexNative.CM_EVENT_LENGTH], new byte[16], data);
        assertTrue(length >= expected.length, "private data length " + length);
        assertArrayEquals(expected, Arrays.copyOf(data, expected.length), "private data");
    }

    /** A struct sockaddr_in image as DiSNI's SockAddrIn writes it. */
    private static ByteBuffer sockaddrIn(final String address, final int port) throws Exception
    {
        final ByteBuffer sockaddr = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder());
        sockaddr.putShort(0, (short)2 /* AF_INET */);
        sockaddr.order(ByteOrder.BIG_ENDIAN).putShort(2, (short)port);
        sockaddr.put(4, InetAddress.getByName(address).getAddress());
        return sockaddr;
    }
}
