package io.ibex.rdma.conformance;

import io.ibex.rdma.Provider;
import io.ibex.rdma.Providers;
import io.ibex.rdma.cm.CmEvent;
import io.ibex.rdma.cm.CmEventType;
import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.cm.ConnParam;
import io.ibex.rdma.cm.EventChannel;
import io.ibex.rdma.cm.PortSpace;
import io.ibex.rdma.cm.UdParams;
import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.AddressHandle;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpInitAttr;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.RdmaResource;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.VerbsException;
import io.ibex.rdma.verbs.WcFlags;
import io.ibex.rdma.verbs.WcOpcode;
import io.ibex.rdma.verbs.WcStatus;
import io.ibex.rdma.verbs.WorkCompletion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.concurrent.TimeUnit;

import static io.ibex.rdma.conformance.Await.assertStatus;
import static io.ibex.rdma.conformance.Await.assertSuccess;
import static io.ibex.rdma.conformance.Await.cmEvent;
import static io.ibex.rdma.conformance.Await.completion;
import static io.ibex.rdma.conformance.Await.completions;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rdma_cm flows on loopback ({@code ibex.test.address}): RC connect and accept with private data both
 * ways, reject, no listener, UD through the UDP port space (SIDR), RC through the IB port space, disconnect,
 * and calls made in the wrong state.
 * <p>
 * Private data: the IB CM carries fixed-size private data (a REQ has 56 bytes after rdma_cm's header, a REP
 * 196, a REJ 148), so rdma_cm over a real device delivers the sender's bytes followed by zero padding. The
 * tests therefore check that what arrives starts with what was sent.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ConnectionManagerConformanceTest
{
    /** IB CM reject reason of rdma_reject. */
    private static final int IB_CM_REJ_CONSUMER_DEFINED = 28;
    /** IB CM reject reason when no one listens on the service id (the port). */
    private static final int IB_CM_REJ_INVALID_SERVICE_ID = 8;
    /** The 40-byte GRH in front of every UD receive. */
    private static final int GRH = 40;
    private static final int SIZE = 4096;
    private static final int RESOLVE_MILLIS = 2000;
    /** Accept private data in {@link #rcConnectAcceptThenSendAndWrite()}: the server buffer's address, rkey. */
    private static final int REMOTE_ADDRESS_OFFSET = 0;
    private static final int REMOTE_RKEY_OFFSET = 8;
    private static final int REMOTE_LENGTH = 12;

    private final Deque<RdmaResource> resources = new ArrayDeque<>();
    private EventChannel serverChannel;
    private EventChannel clientChannel;

    @BeforeEach
    void open()
    {
        final Provider provider = Providers.select();
        serverChannel = provider.createEventChannel();
        clientChannel = provider.createEventChannel();
    }

    @AfterEach
    void close()
    {
        // Closing a channel closes its ids and their QPs; then the CQs, MRs and PDs they used.
        clientChannel.close();
        serverChannel.close();
        while (!resources.isEmpty())
        {
            resources.pop().close();
        }
    }

    @Test
    void rcConnectAcceptThenSendAndWrite()
    {
        final byte[] request = text("connect from the client");
        final CmId listener = listen(PortSpace.TCP);
        final CmId client = resolve(PortSpace.TCP, listener.localAddress());
        final Side clientSide = side(client, QpType.RC);
        assertEquals(QpState.INIT, clientSide.qp().state(), "rdma_create_qp leaves a connected QP in INIT");

        client.connect(ConnParam.of(request));

        final CmEvent connectRequest = cmEvent(serverChannel, CmEventType.CONNECT_REQUEST);
        assertSame(listener, connectRequest.listenId());
        assertStartsWith(request, connectRequest.privateData());
        assertEquals(clientSide.qp().qpNum(), connectRequest.remoteQpNum());
        final CmId connection = connectRequest.id();
        assertNotNull(connection.context(), "an id from CONNECT_REQUEST is bound to a device");
        assertEquals(listener.localAddress().getPort(), connection.localAddress().getPort());
        assertEquals(client.localAddress().getPort(), connection.remoteAddress().getPort());
        final Side serverSide = side(connection, QpType.RC);
        serverSide.qp().postRecv(serverSide.buffer().recv(1, 0, 64));
        final byte[] accept = ByteBuffer.allocate(REMOTE_LENGTH).order(ByteOrder.LITTLE_ENDIAN)
            .putLong(REMOTE_ADDRESS_OFFSET, serverSide.buffer().address(1024))
            .putInt(REMOTE_RKEY_OFFSET, serverSide.buffer().mr().rkey()).array();

        connection.accept(ConnParam.of(accept));

        final CmEvent established = cmEvent(clientChannel, CmEventType.ESTABLISHED);
        assertStartsWith(accept, established.privateData());
        assertEquals(serverSide.qp().qpNum(), established.remoteQpNum());
        assertSame(connection, cmEvent(serverChannel, CmEventType.ESTABLISHED).id());
        assertEquals(QpState.RTS, clientSide.qp().state());
        Await.until(() -> serverSide.qp().state() == QpState.RTS, "server QP in RTS");
        for (final Side side : new Side[] {clientSide, serverSide})
        {
            // The kernel's IB CM sets RTR's RNR NAK timer to 0, which encodes 655.36 ms; the retry counts are
            // the connection parameters' (ConnParam.of: 7 and 7).
            final QpAttr attr = side.qp().query();
            assertEquals(0, attr.minRnrTimer(), "min_rnr_timer of " + side.qp());
            assertEquals(7, attr.retryCnt(), "retry_cnt of " + side.qp());
            assertEquals(7, attr.rnrRetry(), "rnr_retry of " + side.qp());
        }

        final ByteBuffer remote = ByteBuffer.wrap(established.privateData()).order(ByteOrder.LITTLE_ENDIAN);
        final RegisteredBuffer buffer = clientSide.buffer().pattern(0, SIZE, 5);
        final SendWorkRequest write = buffer.send(2, 100, 200).opcode(SendOpcode.RDMA_WRITE)
            .remote(remote.getLong(REMOTE_ADDRESS_OFFSET), remote.getInt(REMOTE_RKEY_OFFSET));
        clientSide.qp().postSend(write);
        clientSide.qp().postSend(buffer.send(3, 0, 16));

        assertSuccess(completion(clientSide.cq()), 2, WcOpcode.RDMA_WRITE);
        assertSuccess(completion(clientSide.cq()), 3, WcOpcode.SEND);
        final WorkCompletion received = completion(serverSide.cq());
        assertSuccess(received, 1, WcOpcode.RECV);
        assertEquals(16, received.byteLen());
        assertArrayEquals(buffer.bytes(0, 16), serverSide.buffer().bytes(0, 16));
        assertArrayEquals(buffer.bytes(100, 200), serverSide.buffer().bytes(1024, 200));
    }

    @Test
    void rejectDeliversPrivateDataToTheClient()
    {
        final byte[] reason = text("not today");
        final CmId listener = listen(PortSpace.TCP);
        final CmId client = resolve(PortSpace.TCP, listener.localAddress());
        side(client, QpType.RC);

        client.connect(ConnParam.of(text("please")));
        cmEvent(serverChannel, CmEventType.CONNECT_REQUEST).id().reject(reason);

        final CmEvent rejected = cmEvent(clientChannel, CmEventType.REJECTED);
        assertEquals(IB_CM_REJ_CONSUMER_DEFINED, rejected.status(), rejected::toString);
        assertStartsWith(reason, rejected.privateData());
    }

    @Test
    void connectWithoutAListenerIsRejected()
    {
        // A port that was just free: bind, note it, release it.
        final CmId probe = serverChannel.createId(PortSpace.TCP);
        probe.bindAddr(new InetSocketAddress(Loopback.ADDRESS, 0));
        final InetSocketAddress nobody = probe.localAddress();
        probe.close();
        final CmId client = resolve(PortSpace.TCP, nobody);
        side(client, QpType.RC);

        client.connect(ConnParam.of(null));

        // The IB CM of the target answers a REQ for an unknown service id with a REJ (rxe: status 8).
        final CmEvent rejected = cmEvent(clientChannel, CmEventType.REJECTED);
        assertEquals(IB_CM_REJ_INVALID_SERVICE_ID, rejected.status(), rejected::toString);
    }

    @Test
    void udResolveThenExchangeDatagrams()
    {
        final byte[] request = text("ud hello");
        final CmId listener = listen(PortSpace.UDP);
        final CmId client = resolve(PortSpace.UDP, listener.localAddress());
        final Side clientSide = side(client, QpType.UD);
        assertEquals(QpState.RTS, clientSide.qp().state(), "rdma_create_qp moves a UD QP to RTS");
        clientSide.qp().postRecv(clientSide.buffer().recv(10, 2048, GRH + 64));

        client.connect(ConnParam.of(request));
        final CmEvent connectRequest = cmEvent(serverChannel, CmEventType.CONNECT_REQUEST);
        assertStartsWith(request, connectRequest.privateData());
        final CmId connection = connectRequest.id();
        final Side serverSide = side(connection, QpType.UD);
        serverSide.qp().postRecv(serverSide.buffer().recv(20, 0, GRH + 64));
        connection.accept(ConnParam.of(null));

        final UdParams server = cmEvent(clientChannel, CmEventType.ESTABLISHED).ud();
        assertNotNull(server, "ESTABLISHED of a UD id carries the peer's QPN, Q_Key and address");
        assertEquals(serverSide.qp().qpNum(), server.qpNum());
        final AddressHandle toServer = track(clientSide.pd().createAh(server.ahAttr()));
        final RegisteredBuffer clientBuffer = clientSide.buffer().pattern(0, 32, 40);
        clientSide.qp().postSend(clientBuffer.send(1, 0, 32).ud(toServer, server.qpNum(), server.qkey()));

        assertSuccess(completion(clientSide.cq()), 1, WcOpcode.SEND);
        final WorkCompletion atServer = completion(serverSide.cq());
        assertSuccess(atServer, 20, WcOpcode.RECV);
        assertEquals(GRH + 32, atServer.byteLen());
        assertEquals(WcFlags.GRH, atServer.wcFlags() & WcFlags.GRH);
        assertEquals(clientSide.qp().qpNum(), atServer.srcQp());
        assertArrayEquals(clientBuffer.bytes(0, 32), serverSide.buffer().bytes(GRH, 32));

        // Both ids are on the same port (loopback), so the server's address is the client's too; rdma_cm
        // gives every QP of the UDP port space the same Q_Key.
        final AddressHandle toClient = track(serverSide.pd().createAh(server.ahAttr()));
        final RegisteredBuffer serverBuffer = serverSide.buffer().pattern(1024, 16, 90);
        serverSide.qp().postSend(serverBuffer.send(2, 1024, 16).ud(toClient, atServer.srcQp(), server.qkey()));
        assertSuccess(completion(serverSide.cq()), 2, WcOpcode.SEND);
        final WorkCompletion atClient = completion(clientSide.cq());
        assertSuccess(atClient, 10, WcOpcode.RECV);
        assertEquals(serverSide.qp().qpNum(), atClient.srcQp());
        assertArrayEquals(serverBuffer.bytes(1024, 16), clientSide.buffer().bytes(2048 + GRH, 16));
    }

    /**
     * UC cannot be connected through rdma_cm: librdmacm's rdma_create_id gives an id of the IB port space the
     * RC type, and the kernel's CM then moves the QP with RC-only attributes, which a UC QP refuses (on rxe,
     * rdma_accept fails with EINVAL). So the IB port space carries RC, as in librdmacm, a UC QP is refused at
     * createQp, and UC queue pairs are connected out of band (UcConformanceTest); soft does the same.
     */
    @Test
    void ibPortSpaceConnectsRcAndRefusesUc()
    {
        final CmId listener = listen(PortSpace.IB);
        final CmId client = resolve(PortSpace.IB, listener.localAddress());
        final ProtectionDomain pd = track(client.context().allocPd());
        final CompletionQueue cq = track(client.context().createCq(Loopback.DEPTH, null, 0));
        final VerbsException refused = assertThrows(VerbsException.class,
            () -> client.createQp(pd, new QpInitAttr(QpType.UC, cq, cq, Loopback.CAPS, false)));
        assertEquals(VerbsException.EINVAL, refused.errno(), refused.getMessage());
        assertNull(client.qp());
        final Side clientSide = side(client, QpType.RC);
        client.connect(ConnParam.of(null));
        final Side serverSide = side(cmEvent(serverChannel, CmEventType.CONNECT_REQUEST).id(), QpType.RC);
        serverSide.qp().postRecv(serverSide.buffer().recv(1, 0, 64));
        serverSide.id().accept(ConnParam.of(null));
        cmEvent(clientChannel, CmEventType.ESTABLISHED);
        cmEvent(serverChannel, CmEventType.ESTABLISHED);
        final RegisteredBuffer buffer = clientSide.buffer().pattern(0, 24, 60);

        clientSide.qp().postSend(buffer.send(2, 0, 24));

        assertSuccess(completion(clientSide.cq()), 2, WcOpcode.SEND);
        final WorkCompletion received = completion(serverSide.cq());
        assertSuccess(received, 1, WcOpcode.RECV);
        assertEquals(24, received.byteLen());
        assertArrayEquals(buffer.bytes(0, 24), serverSide.buffer().bytes(0, 24));
    }

    @Test
    void disconnectReachesBothSidesAndFlushesReceives()
    {
        final Connection connection = establish(PortSpace.TCP, QpType.RC);
        final Side client = connection.client();
        final Side server = connection.server();
        for (int i = 0; i < 2; i++)
        {
            client.qp().postRecv(client.buffer().recv(10 + i, i * 64, 64));
            server.qp().postRecv(server.buffer().recv(20 + i, i * 64, 64));
        }

        client.id().disconnect();

        assertEquals(QpState.ERR, client.qp().state());
        assertFlushed(client.cq(), 10);
        cmEvent(serverChannel, CmEventType.DISCONNECTED);
        // As applications do, the passive side answers with its own disconnect: its QP moves to ERR and the
        // IB CM sends the DREP that raises DISCONNECTED on the active side (without it, only the DREQ timeout
        // would).
        server.id().disconnect();
        assertEquals(QpState.ERR, server.qp().state());
        assertFlushed(server.cq(), 20);
        cmEvent(clientChannel, CmEventType.DISCONNECTED);
    }

    enum WrongStateCall
    {
        CONNECT_BEFORE_RESOLVE, RESOLVE_ROUTE_BEFORE_RESOLVE_ADDR, ACCEPT_WITHOUT_REQUEST, DISCONNECT_UNCONNECTED,
        BIND_TWICE
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(WrongStateCall.class)
    void callInTheWrongStateIsEinval(final WrongStateCall call)
    {
        final CmId id = clientChannel.createId(PortSpace.TCP);
        final InetSocketAddress any = new InetSocketAddress(Loopback.ADDRESS, 0);
        final VerbsException ex = assertThrows(VerbsException.class, () ->
        {
            switch (call)
            {
                case CONNECT_BEFORE_RESOLVE -> id.connect(ConnParam.of(null));
                case RESOLVE_ROUTE_BEFORE_RESOLVE_ADDR -> id.resolveRoute(RESOLVE_MILLIS);
                case ACCEPT_WITHOUT_REQUEST -> id.accept(ConnParam.of(null));
                case DISCONNECT_UNCONNECTED -> id.disconnect();
                case BIND_TWICE ->
                {
                    id.bindAddr(any);
                    id.bindAddr(any);
                }
            }
        });
        assertEquals(VerbsException.EINVAL, ex.errno(), ex.getMessage());
    }

    @Test
    void bindingAPortAnotherIdHoldsFails()
    {
        final CmId listener = listen(PortSpace.TCP);
        final CmId second = serverChannel.createId(PortSpace.TCP);

        // The kernel answers EADDRINUSE or EADDRNOTAVAIL depending on the version: only the refusal is common.
        assertThrows(VerbsException.class, () -> second.bindAddr(listener.localAddress()));
    }

    @Test
    void idleChannelTimesOutWithoutAnEvent()
    {
        clientChannel.createId(PortSpace.TCP);
        assertNull(clientChannel.getEvent(0));
        assertNull(clientChannel.getEvent(50));
    }

    @Test
    void closingTheChannelClosesItsIds()
    {
        final EventChannel channel = Providers.select().createEventChannel();
        final CmId id = channel.createId(PortSpace.TCP);
        assertEquals(PortSpace.TCP, id.portSpace());
        assertSame(channel, id.channel());
        assertNull(id.qp());

        channel.close();

        assertTrue(id.isClosed());
        assertTrue(channel.isClosed());
    }

    private CmId listen(final PortSpace portSpace)
    {
        final CmId listener = serverChannel.createId(portSpace);
        listener.bindAddr(new InetSocketAddress(Loopback.ADDRESS, 0));
        listener.listen(8);
        assertNotEquals(0, listener.localAddress().getPort(), "port 0 binds a free port");
        return listener;
    }

    private CmId resolve(final PortSpace portSpace, final InetSocketAddress destination)
    {
        final CmId client = clientChannel.createId(portSpace);
        client.resolveAddr(null, destination, RESOLVE_MILLIS);
        cmEvent(clientChannel, CmEventType.ADDR_RESOLVED);
        assertNotNull(client.context(), "address resolution binds the id to a device");
        client.resolveRoute(RESOLVE_MILLIS);
        cmEvent(clientChannel, CmEventType.ROUTE_RESOLVED);
        assertEquals(destination.getPort(), client.remoteAddress().getPort());
        return client;
    }

    private Connection establish(final PortSpace portSpace, final QpType type)
    {
        final CmId listener = listen(portSpace);
        final CmId client = resolve(portSpace, listener.localAddress());
        final Side clientSide = side(client, type);
        client.connect(ConnParam.of(null));
        final CmId connection = cmEvent(serverChannel, CmEventType.CONNECT_REQUEST).id();
        final Side serverSide = side(connection, type);
        connection.accept(ConnParam.of(null));
        cmEvent(clientChannel, CmEventType.ESTABLISHED);
        cmEvent(serverChannel, CmEventType.ESTABLISHED);
        return new Connection(clientSide, serverSide);
    }

    private Side side(final CmId id, final QpType type)
    {
        final ProtectionDomain pd = track(id.context().allocPd());
        final CompletionQueue cq = track(id.context().createCq(Loopback.DEPTH * 4, null, 0));
        final QueuePair qp = id.createQp(pd, new QpInitAttr(type, cq, cq, Loopback.CAPS, false));
        assertSame(qp, id.qp());
        assertEquals(type, qp.type());
        final RegisteredBuffer buffer = RegisteredBuffer.allocate(pd, SIZE, AccessFlags.ALL);
        track(buffer.mr());
        return new Side(id, pd, cq, qp, buffer);
    }

    private <T extends RdmaResource> T track(final T resource)
    {
        resources.push(resource);
        return resource;
    }

    private static void assertFlushed(final CompletionQueue cq, final long firstWrId)
    {
        final WorkCompletion[] flushed = completions(cq, 2);
        assertStatus(flushed[0], firstWrId, WcStatus.WR_FLUSH_ERR);
        assertStatus(flushed[1], firstWrId + 1, WcStatus.WR_FLUSH_ERR);
    }

    private static void assertStartsWith(final byte[] sent, final byte[] received)
    {
        assertTrue(received.length >= sent.length, "private data of " + received.length + " bytes, sent " +
            sent.length);
        assertArrayEquals(sent, Arrays.copyOf(received, sent.length), "private data");
    }

    private static byte[] text(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private record Side(CmId id, ProtectionDomain pd, CompletionQueue cq, QueuePair qp, RegisteredBuffer buffer)
    {
    }

    private record Connection(Side client, Side server)
    {
    }
}
