package io.ibex.rdma.provider.soft.cm;

import io.ibex.rdma.cm.CmEvent;
import io.ibex.rdma.cm.CmEventType;
import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.cm.ConnParam;
import io.ibex.rdma.cm.EventChannel;
import io.ibex.rdma.cm.PortSpace;
import io.ibex.rdma.cm.UdParams;
import io.ibex.rdma.provider.soft.SoftProvider;
import io.ibex.rdma.verbs.AddressHandle;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.QpCapabilities;
import io.ibex.rdma.verbs.QpInitAttr;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.VerbsException;
import io.ibex.rdma.verbs.WcStatus;
import io.ibex.rdma.verbs.WorkCompletion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.ibex.rdma.provider.soft.cm.CmTestSupport.Endpoint;
import static io.ibex.rdma.provider.soft.cm.CmTestSupport.LOOPBACK;
import static io.ibex.rdma.provider.soft.cm.CmTestSupport.await;
import static io.ibex.rdma.provider.soft.cm.CmTestSupport.listen;
import static io.ibex.rdma.provider.soft.cm.CmTestSupport.resolve;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SoftCmTest
{
    private static final long QUIET_MILLIS = 300;

    private final SoftProvider provider = new SoftProvider();
    private final List<Endpoint> endpoints = new ArrayList<>();
    private int baselineResources;
    private EventChannel server;
    private EventChannel client;

    @BeforeEach
    void openChannels()
    {
        SharedContexts.of(provider); // the shared context stays open for the JVM, as with librdmacm
        baselineResources = SoftProvider.liveResources();
        server = provider.createEventChannel();
        client = provider.createEventChannel();
    }

    @AfterEach
    void closeEverything()
    {
        client.close();
        server.close();
        endpoints.forEach(Endpoint::close);
        assertEquals(0, ((SoftEventChannel)client).idCount());
        assertEquals(0, ((SoftEventChannel)server).idCount());
        assertEquals(baselineResources, SoftProvider.liveResources(), "soft verbs resources leaked");
    }

    @Test
    void rcConnectAcceptExchangesPrivateDataAndCarriesSends()
    {
        final CmId listener = listen(server, PortSpace.TCP);
        final CmId active = resolve(client, PortSpace.TCP, listener.localAddress());
        final Endpoint clientEnd = endpoint(active);
        assertEquals(QpState.INIT, clientEnd.qp.state());
        active.connect(ConnParam.of(bytes("hello")));

        final CmEvent request = await(server, CmEventType.CONNECT_REQUEST);
        assertSame(listener, request.listenId());
        assertDelivered(bytes("hello"), ConnParam.MAX_CONNECT_PRIVATE_DATA, request);
        assertEquals(clientEnd.qp.qpNum(), request.remoteQpNum());
        assertNull(request.ud());
        final CmId passive = request.id();
        assertSame(server, passive.channel());
        assertNotNull(passive.context());
        assertEquals(active.localAddress(), passive.remoteAddress());
        final Endpoint serverEnd = endpoint(passive);
        serverEnd.postRecv(1, 0, 64);
        passive.accept(ConnParam.of(bytes("welcome")));
        assertEquals(QpState.RTS, serverEnd.qp.state());

        final CmEvent established = await(client, CmEventType.ESTABLISHED);
        assertDelivered(bytes("welcome"), ConnParam.MAX_ACCEPT_PRIVATE_DATA, established);
        assertEquals(serverEnd.qp.qpNum(), established.remoteQpNum());
        assertEquals(QpState.RTS, clientEnd.qp.state());
        assertEquals(clientEnd.qp.qpNum(), await(server, CmEventType.ESTABLISHED).remoteQpNum());

        clientEnd.buffer.put(0, bytes("ping"));
        clientEnd.qp.postSend(clientEnd.send(2, 0, 4));
        assertEquals(WcStatus.SUCCESS, clientEnd.poll().status());
        final WorkCompletion received = serverEnd.poll();
        assertEquals(WcStatus.SUCCESS, received.status());
        assertEquals(4, received.byteLen());
        assertEquals("ping", string(serverEnd, 0, 4));
    }

    @Test
    void ipv6LoopbackConnects()
    {
        final CmId listener = server.createId(PortSpace.TCP);
        listener.bindAddr(new InetSocketAddress("::1", 0));
        listener.listen(1);
        final CmId active = resolve(client, PortSpace.TCP, listener.localAddress());
        endpoint(active);
        active.connect(ConnParam.of(null));
        final CmEvent request = await(server, CmEventType.CONNECT_REQUEST);
        assertEquals(active.localAddress(), request.id().remoteAddress());
        endpoint(request.id());
        request.id().accept(ConnParam.of(null));
        await(client, CmEventType.ESTABLISHED);
        await(server, CmEventType.ESTABLISHED);
    }

    @Test
    void rejectDeliversStatus28AndPrivateData()
    {
        final CmId listener = listen(server, PortSpace.TCP);
        final CmId active = resolve(client, PortSpace.TCP, listener.localAddress());
        final Endpoint clientEnd = endpoint(active);
        active.connect(ConnParam.of(null));

        await(server, CmEventType.CONNECT_REQUEST).id().reject(bytes("go away"));

        final CmEvent rejected = await(client, CmEventType.REJECTED);
        assertEquals(CmMessageDescriptor.REJ_CONSUMER_DEFINED, rejected.status());
        assertDelivered(bytes("go away"), ConnParam.MAX_REJECT_PRIVATE_DATA, rejected);
        assertEquals(QpState.ERR, clientEnd.qp.state());
    }

    @Test
    void sidrRejectIsUnreachableWithSidrRejectStatusAndPrivateData()
    {
        final CmId listener = listen(server, PortSpace.UDP);
        final CmId active = resolve(client, PortSpace.UDP, listener.localAddress());
        endpoint(active);
        active.connect(ConnParam.of(null));

        await(server, CmEventType.CONNECT_REQUEST).id().reject(bytes("full"));

        final CmEvent unreachable = await(client, CmEventType.UNREACHABLE); // as cma_sidr_rep_handler reports
        assertEquals(CmMessageDescriptor.SIDR_REJECT, unreachable.status());
        assertDelivered(bytes("full"), CmMessageDescriptor.SIDR_REP_PRIVATE_DATA, unreachable);
    }

    @ParameterizedTest
    @EnumSource(value = PortSpace.class, names = { "TCP", "IB" })
    void connectingWhereNothingListensIsRejectedWithInvalidServiceId(final PortSpace portSpace) throws IOException
    {
        final CmId active = resolve(client, portSpace, unusedPort());
        endpoint(active);
        active.connect(ConnParam.of(null));

        assertEquals(CmMessageDescriptor.REJ_INVALID_SERVICE_ID, await(client, CmEventType.REJECTED).status());
    }

    @Test
    void sidrWhereNothingListensIsUnreachableWithSidrUnsupported() throws IOException
    {
        final CmId active = resolve(client, PortSpace.UDP, unusedPort());
        endpoint(active);
        active.connect(ConnParam.of(null));

        assertEquals(CmMessageDescriptor.SIDR_UNSUPPORTED, await(client, CmEventType.UNREACHABLE).status());
    }

    @Test
    void requestOfAnotherPortSpaceIsRejectedAsInvalidService()
    {
        final CmId listener = listen(server, PortSpace.UDP);
        final CmId active = resolve(client, PortSpace.TCP, listener.localAddress());
        endpoint(active);
        active.connect(ConnParam.of(null));

        assertEquals(CmMessageDescriptor.REJ_INVALID_SERVICE_ID, await(client, CmEventType.REJECTED).status());
        assertNull(server.getEvent(QUIET_MILLIS));
    }

    @Test
    void udSidrGivesTheClientTheServersAddressAndDatagramsFlow()
    {
        final CmId listener = listen(server, PortSpace.UDP);
        final CmId active = resolve(client, PortSpace.UDP, listener.localAddress());
        final Endpoint clientEnd = endpoint(active);
        assertEquals(QpState.RTS, clientEnd.qp.state());
        active.connect(ConnParam.of(bytes("sidr")));

        final CmEvent request = await(server, CmEventType.CONNECT_REQUEST);
        assertDelivered(bytes("sidr"), CmMessageDescriptor.SIDR_REQ_PRIVATE_DATA, request);
        assertEquals(clientEnd.qp.qpNum(), request.ud().qpNum());
        final Endpoint serverEnd = endpoint(request.id());
        serverEnd.postRecv(1, 0, 40 + 64);
        request.id().accept(ConnParam.of(bytes("ok")));

        final CmEvent established = await(client, CmEventType.ESTABLISHED);
        assertDelivered(bytes("ok"), CmMessageDescriptor.SIDR_REP_PRIVATE_DATA, established);
        final UdParams ud = established.ud();
        assertEquals(serverEnd.qp.qpNum(), ud.qpNum());
        assertEquals(SoftCmId.RDMA_UDP_QKEY, ud.qkey());
        assertEquals(request.id().context().queryGid(1, 1), ud.ahAttr().dgid());
        assertNull(server.getEvent(QUIET_MILLIS), "the passive side of SIDR gets no ESTABLISHED");

        try (AddressHandle ah = clientEnd.pd.createAh(ud.ahAttr()))
        {
            clientEnd.buffer.put(0, bytes("datagram"));
            clientEnd.qp.postSend(clientEnd.send(2, 0, 8).ud(ah, ud.qpNum(), ud.qkey()));
            assertEquals(WcStatus.SUCCESS, clientEnd.poll().status());
            final WorkCompletion received = serverEnd.poll();
            assertEquals(WcStatus.SUCCESS, received.status());
            assertEquals(clientEnd.qp.qpNum(), received.srcQp());
            assertEquals("datagram", string(serverEnd, 40, 8));
        }
    }

    @Test
    void aUdIdClosedRightAfterAcceptHasAnsweredTheSidrRequest()
    {
        // rdma_accept sends the SIDR REP before it returns, so a server may destroy the id at once (udaddy -C 0)
        final CmId listener = listen(server, PortSpace.UDP);
        final CmId active = resolve(client, PortSpace.UDP, listener.localAddress());
        endpoint(active);
        active.connect(ConnParam.of(null));
        final CmId passive = await(server, CmEventType.CONNECT_REQUEST).id();
        final Endpoint serverEnd = endpoint(passive);

        passive.accept(ConnParam.of(null));
        passive.close();

        final CmEvent established = await(client, CmEventType.ESTABLISHED);
        assertEquals(serverEnd.qp.qpNum(), established.ud().qpNum());
    }

    @Test
    void ibPortSpaceConnectsRcAndCarriesSends()
    {
        final CmId listener = listen(server, PortSpace.IB);
        final CmId active = resolve(client, PortSpace.IB, listener.localAddress());
        final Endpoint clientEnd = endpoint(active);
        active.connect(ConnParam.of(null));
        final CmId passive = await(server, CmEventType.CONNECT_REQUEST).id();
        final Endpoint serverEnd = endpoint(passive);
        serverEnd.postRecv(1, 0, 64);
        passive.accept(ConnParam.of(null));
        await(client, CmEventType.ESTABLISHED);
        await(server, CmEventType.ESTABLISHED);

        clientEnd.buffer.put(0, bytes("ib"));
        clientEnd.qp.postSend(clientEnd.send(2, 0, 2));
        assertEquals(WcStatus.SUCCESS, clientEnd.poll().status());
        assertEquals(WcStatus.SUCCESS, serverEnd.poll().status());
        assertEquals("ib", string(serverEnd, 0, 2));
    }

    @ParameterizedTest
    @ValueSource(booleans = { true, false })
    void disconnectIsCompletedByThePeersDisconnectAndFlushesReceives(final boolean clientDisconnects)
    {
        final Endpoint[] ends = new Endpoint[2];
        final CmId[] ids = connectRc(ends);
        ends[0].postRecv(7, 0, 64);
        ends[1].postRecv(8, 0, 64);
        final int initiator = clientDisconnects ? 0 : 1;
        final int peer = 1 - initiator;
        final EventChannel initiatorChannel = clientDisconnects ? client : server;
        final EventChannel peerChannel = clientDisconnects ? server : client;

        ids[initiator].disconnect();

        assertEquals(QpState.ERR, ends[initiator].qp.state());
        assertEquals(WcStatus.WR_FLUSH_ERR, ends[initiator].poll().status());
        await(peerChannel, CmEventType.DISCONNECTED);
        assertNull(initiatorChannel.getEvent(QUIET_MILLIS), "the DREP waits for the peer's rdma_disconnect");

        ids[peer].disconnect();

        await(initiatorChannel, CmEventType.DISCONNECTED);
        assertEquals(QpState.ERR, ends[peer].qp.state());
        assertEquals(WcStatus.WR_FLUSH_ERR, ends[peer].poll().status());
        assertNull(peerChannel.getEvent(QUIET_MILLIS), "each side gets DISCONNECTED once");
        assertNull(initiatorChannel.getEvent(0));
    }

    @Test
    void unansweredDisconnectTimesOut()
    {
        final String previous = System.setProperty(SoftEventChannel.REPLY_TIMEOUT_PROPERTY, "300");
        try (EventChannel impatient = provider.createEventChannel())
        {
            final CmId listener = listen(server, PortSpace.TCP);
            final CmId active = resolve(impatient, PortSpace.TCP, listener.localAddress());
            endpoint(active);
            active.connect(ConnParam.of(null));
            final CmId passive = await(server, CmEventType.CONNECT_REQUEST).id();
            endpoint(passive);
            passive.accept(ConnParam.of(null));
            await(impatient, CmEventType.ESTABLISHED);
            await(server, CmEventType.ESTABLISHED);

            active.disconnect();

            await(server, CmEventType.DISCONNECTED);
            assertEquals(-VerbsException.ETIMEDOUT, await(impatient, CmEventType.DISCONNECTED).status());
        }
        finally
        {
            restoreProperty(previous);
        }
    }

    @Test
    void simultaneousDisconnectsGiveEachSideOneEvent()
    {
        final Endpoint[] ends = new Endpoint[2];
        final CmId[] ids = connectRc(ends);

        ids[0].disconnect();
        ids[1].disconnect();

        await(client, CmEventType.DISCONNECTED);
        await(server, CmEventType.DISCONNECTED);
        assertNull(client.getEvent(QUIET_MILLIS));
        assertNull(server.getEvent(0));
    }

    @Test
    void closingAnUnansweredRequestRejectsIt()
    {
        final CmId listener = listen(server, PortSpace.TCP);
        final CmId active = resolve(client, PortSpace.TCP, listener.localAddress());
        endpoint(active);
        active.connect(ConnParam.of(null));

        await(server, CmEventType.CONNECT_REQUEST).id().close();

        assertEquals(CmMessageDescriptor.REJ_CONSUMER_DEFINED, await(client, CmEventType.REJECTED).status());
    }

    @Test
    void aRequestItsRequesterAbandonedEndsRejectedWithTimeoutAndCannotBeAccepted()
    {
        final CmId listener = listen(server, PortSpace.TCP);
        final CmId active = resolve(client, PortSpace.TCP, listener.localAddress());
        endpoint(active);
        active.connect(ConnParam.of(null));
        final CmId passive = await(server, CmEventType.CONNECT_REQUEST).id();
        endpoint(passive);

        active.close(); // the requester gives up before the request is answered

        final CmEvent abandoned = await(server, CmEventType.REJECTED);
        assertSame(passive, abandoned.id());
        assertEquals(CmEvent.REJ_TIMEOUT, abandoned.status());
        assertEquals("the other side gave up on the handshake", abandoned.failureText());
        final VerbsException late = assertThrows(VerbsException.class, () -> passive.accept(ConnParam.of(null)));
        assertEquals(VerbsException.EINVAL, late.errno());
    }

    @Test
    void aRequestWhoseRequesterHasGoneBeforeItIsReadIsNeverHandedUp() throws InterruptedException
    {
        final CmId listener = listen(server, PortSpace.TCP);
        final CountDownLatch paused = new CountDownLatch(1);
        final CountDownLatch resume = new CountDownLatch(1);
        ((SoftEventChannel)server).agent().execute(() ->
        {
            paused.countDown();
            awaitQuietly(resume); // as a stopped process: the kernel takes the connection and the REQ, nobody reads
        });
        assertTrue(paused.await(5, TimeUnit.SECONDS));
        final CmId stale = resolve(client, PortSpace.TCP, listener.localAddress());
        endpoint(stale);
        stale.connect(ConnParam.of(bytes("stale")));
        Thread.sleep(QUIET_MILLIS); // the REQ is out
        stale.close();
        resume.countDown();

        assertNull(server.getEvent(QUIET_MILLIS), "a stale request was handed up");
        final CmId live = resolve(client, PortSpace.TCP, listener.localAddress());
        endpoint(live);
        live.connect(ConnParam.of(bytes("live")));
        assertDelivered(bytes("live"), ConnParam.MAX_CONNECT_PRIVATE_DATA, await(server, CmEventType.CONNECT_REQUEST));
    }

    private static void awaitQuietly(final CountDownLatch latch)
    {
        try
        {
            latch.await(5, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void closingAListenerFreesItsAddress()
    {
        final CmId first = listen(server, PortSpace.TCP);
        final InetSocketAddress address = first.localAddress();
        first.close();

        final CmId second = server.createId(PortSpace.TCP);
        second.bindAddr(address);
        assertEquals(address, second.localAddress());
    }

    @Test
    void closingAConnectedIdDisconnectsThePeer()
    {
        final Endpoint[] ends = new Endpoint[2];
        final CmId[] ids = connectRc(ends);

        ids[0].close();

        await(server, CmEventType.DISCONNECTED);
        assertTrue(ids[0].isClosed());
        assertThrows(IllegalStateException.class, () -> ids[0].disconnect());
        ids[1].disconnect(); // answers a DREQ whose sender is gone: no error, no event
        assertEquals(QpState.ERR, ends[1].qp.state());
        assertNull(server.getEvent(QUIET_MILLIS));
    }

    @Test
    void peerDeathIsDisconnectedWithinTwoSeconds() throws Exception
    {
        final CmId listener = listen(server, PortSpace.TCP);
        final Process peer = SoftCmPeer.start(listener.localAddress().getPort());
        try
        {
            final CmEvent request = await(server, CmEventType.CONNECT_REQUEST);
            final Endpoint serverEnd = endpoint(request.id());
            request.id().accept(ConnParam.of(null));
            await(server, CmEventType.ESTABLISHED);
            assertEquals(SoftCmPeer.READY, SoftCmPeer.readLine(peer));

            peer.destroyForcibly();
            final long killedAt = System.nanoTime();
            final CmEvent disconnected = server.getEvent(2_000);
            assertNotNull(disconnected, "no DISCONNECTED within 2 s of the peer's death");
            assertEquals(CmEventType.DISCONNECTED, disconnected.type());
            assertTrue(System.nanoTime() - killedAt < TimeUnit.SECONDS.toNanos(2));
            assertEquals(QpState.ERR, serverEnd.qp.state());
        }
        finally
        {
            peer.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void noReplyInTimeIsUnreachable() throws IOException
    {
        final String previous = System.setProperty(SoftEventChannel.REPLY_TIMEOUT_PROPERTY, "300");
        try (ServerSocket silent = new ServerSocket(0, 8, LOOPBACK);
            EventChannel impatient = provider.createEventChannel())
        {
            final CmId active = resolve(impatient, PortSpace.TCP,
                new InetSocketAddress(LOOPBACK, silent.getLocalPort()));
            endpoint(active);
            active.connect(ConnParam.of(null));
            try (Socket accepted = silent.accept())
            {
                assertTrue(accepted.isConnected());
                final CmEvent event = await(impatient, CmEventType.UNREACHABLE);
                assertEquals(-VerbsException.ETIMEDOUT, event.status());
            }
        }
        finally
        {
            restoreProperty(previous);
        }
    }

    @Test
    void garbageIsDroppedAndTheListenerKeepsWorking() throws IOException
    {
        final CmId listener = listen(server, PortSpace.TCP);
        try (Socket junk = new Socket(LOOPBACK, listener.localAddress().getPort()))
        {
            final OutputStream out = junk.getOutputStream();
            out.write(new byte[CmMessageDescriptor.HEADER_LENGTH]);
            out.flush();
            junk.setSoTimeout(5_000);
            assertEquals(-1, junk.getInputStream().read(), "the listener must drop a malformed connection");
        }
        assertNull(server.getEvent(QUIET_MILLIS));

        final CmId active = resolve(client, PortSpace.TCP, listener.localAddress());
        endpoint(active);
        active.connect(ConnParam.of(null));
        assertNotNull(await(server, CmEventType.CONNECT_REQUEST).id());
    }

    @Test
    void bindingAnAddressInUseFailsWithEaddrinuse()
    {
        final CmId first = listen(server, PortSpace.TCP);
        final CmId second = server.createId(PortSpace.TCP);

        final VerbsException ex = assertThrows(VerbsException.class, () -> second.bindAddr(first.localAddress()));
        assertEquals(VerbsException.EADDRINUSE, ex.errno());
        assertTrue(ex.getMessage().contains(first.localAddress().toString()), ex.getMessage());
    }

    @Test
    void bindingPortZeroPicksAFreePort()
    {
        final CmId id = server.createId(PortSpace.TCP);
        id.bindAddr(new InetSocketAddress(LOOPBACK, 0));
        assertTrue(id.localAddress().getPort() > 0);
        assertNotNull(id.context());
    }

    @Test
    void callsInTheWrongStateFailWithEinvalNamingTheState()
    {
        final CmId fresh = client.createId(PortSpace.TCP);
        assertEinval(() -> fresh.accept(ConnParam.of(null)), "IDLE");
        assertEinval(() -> fresh.resolveRoute(1000), "IDLE");
        assertEinval(() -> fresh.connect(ConnParam.of(null)), "IDLE");
        assertEinval(() -> fresh.disconnect(), "IDLE");

        final CmId listener = listen(server, PortSpace.TCP);
        assertEinval(() -> listener.connect(ConnParam.of(null)), "LISTENING");
        assertEinval(() -> listener.reject(null), "LISTENING");

        fresh.resolveAddr(null, listener.localAddress(), 1000);
        await(client, CmEventType.ADDR_RESOLVED);
        assertEinval(() -> fresh.connect(ConnParam.of(null)), "ADDR_RESOLVED");
        fresh.resolveRoute(1000);
        await(client, CmEventType.ROUTE_RESOLVED);
        assertEinval(() -> fresh.connect(ConnParam.of(null)), "createQp");
    }

    @Test
    void privateDataOverTheLimitsFailsWithEinval()
    {
        final CmId listener = listen(server, PortSpace.TCP);
        final CmId active = resolve(client, PortSpace.TCP, listener.localAddress());
        endpoint(active);
        assertEinval(() -> active.connect(ConnParam.of(new byte[ConnParam.MAX_CONNECT_PRIVATE_DATA + 1])), "57");
        active.connect(ConnParam.of(new byte[ConnParam.MAX_CONNECT_PRIVATE_DATA]));

        final CmId passive = await(server, CmEventType.CONNECT_REQUEST).id();
        endpoint(passive);
        assertEinval(() -> passive.accept(ConnParam.of(new byte[ConnParam.MAX_ACCEPT_PRIVATE_DATA + 1])), "197");
        assertEinval(() -> passive.reject(new byte[ConnParam.MAX_REJECT_PRIVATE_DATA + 1]), "149");
        final byte[] full = new byte[ConnParam.MAX_ACCEPT_PRIVATE_DATA];
        Arrays.fill(full, (byte)7);
        passive.accept(ConnParam.of(full));
        assertArrayEquals(full, await(client, CmEventType.ESTABLISHED).privateData());
    }

    @Test
    void sidrPrivateDataLimitsAreTheSidrSizes()
    {
        final CmId listener = listen(server, PortSpace.UDP);
        final CmId active = resolve(client, PortSpace.UDP, listener.localAddress());
        endpoint(active);
        assertEinval(() -> active.connect(ConnParam.of(new byte[CmMessageDescriptor.SIDR_REQ_PRIVATE_DATA + 1])),
            "181");
        active.connect(ConnParam.of(new byte[CmMessageDescriptor.SIDR_REQ_PRIVATE_DATA]));

        final CmId passive = await(server, CmEventType.CONNECT_REQUEST).id();
        endpoint(passive);
        assertEinval(() -> passive.accept(ConnParam.of(new byte[CmMessageDescriptor.SIDR_REP_PRIVATE_DATA + 1])),
            "137");
        assertEinval(() -> passive.reject(new byte[CmMessageDescriptor.SIDR_REP_PRIVATE_DATA + 1]), "137");
    }

    @Test
    void qpTypeMustMatchThePortSpace()
    {
        final CmId listener = listen(server, PortSpace.TCP);
        final CmId active = resolve(client, PortSpace.UDP, listener.localAddress());
        final ProtectionDomain pd = active.context().allocPd();
        final CompletionQueue cq = active.context().createCq(4, null, 0);
        try
        {
            final VerbsException ex = assertThrows(VerbsException.class, () -> active.createQp(pd,
                new QpInitAttr(QpType.RC, cq, cq, new QpCapabilities(1, 1, 1, 1, 0), false)));
            assertEquals(VerbsException.EINVAL, ex.errno());
            assertTrue(ex.getMessage().contains("RC does not match port space UDP (needs UD)"), ex.getMessage());
            assertNull(active.qp());
        }
        finally
        {
            cq.close();
            pd.close();
        }
    }

    @Test
    void nonLoopbackDestinationsAreAddressErrors()
    {
        final CmId id = client.createId(PortSpace.TCP);
        id.resolveAddr(null, new InetSocketAddress("192.0.2.1", 7471), 1000); // never contacted
        await(client, CmEventType.ADDR_ERROR);
        assertNull(id.context());
    }

    @Test
    void closingTheChannelClosesItsIds()
    {
        final CmId listener = listen(server, PortSpace.TCP);
        final CmId id = client.createId(PortSpace.TCP);
        server.close();
        assertTrue(listener.isClosed());
        assertThrows(IllegalStateException.class, () -> server.getEvent(0));
        assertTrue(!id.isClosed());
    }

    private CmId[] connectRc(final Endpoint[] ends)
    {
        final CmId listener = listen(server, PortSpace.TCP);
        final CmId active = resolve(client, PortSpace.TCP, listener.localAddress());
        ends[0] = endpoint(active);
        active.connect(ConnParam.of(null));
        final CmId passive = await(server, CmEventType.CONNECT_REQUEST).id();
        ends[1] = endpoint(passive);
        passive.accept(ConnParam.of(null));
        await(client, CmEventType.ESTABLISHED);
        await(server, CmEventType.ESTABLISHED);
        return new CmId[] { active, passive };
    }

    private Endpoint endpoint(final CmId id)
    {
        final Endpoint end = new Endpoint(id);
        endpoints.add(end);
        return end;
    }

    private static InetSocketAddress unusedPort() throws IOException
    {
        try (ServerSocket probe = new ServerSocket(0, 1, LOOPBACK))
        {
            return new InetSocketAddress(LOOPBACK, probe.getLocalPort());
        }
    }

    private static void assertEinval(final Runnable call, final String expectedInMessage)
    {
        final VerbsException ex = assertThrows(VerbsException.class, call::run);
        assertEquals(VerbsException.EINVAL, ex.errno(), ex.getMessage());
        assertTrue(ex.getMessage().contains(expectedInMessage), ex.getMessage());
    }

    private static void restoreProperty(final String previous)
    {
        if (previous == null)
        {
            System.clearProperty(SoftEventChannel.REPLY_TIMEOUT_PROPERTY);
        }
        else
        {
            System.setProperty(SoftEventChannel.REPLY_TIMEOUT_PROPERTY, previous);
        }
    }

    /** rdma_cm delivers the IB CM's fixed-size private data: what was sent, then zeros. */
    private static void assertDelivered(final byte[] sent, final int size, final CmEvent event)
    {
        final byte[] expected = Arrays.copyOf(sent, size);
        assertArrayEquals(expected, event.privateData(), event::toString);
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static String string(final Endpoint end, final int offset, final int length)
    {
        final byte[] raw = new byte[length];
        end.buffer.get(offset, raw);
        return new String(raw, StandardCharsets.US_ASCII);
    }
}
