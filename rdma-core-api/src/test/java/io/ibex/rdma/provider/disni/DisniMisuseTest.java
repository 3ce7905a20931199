package io.ibex.rdma.provider.disni;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

import com.ibm.disni.util.MemoryUtils;
import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.RdmaCm;
import com.ibm.disni.verbs.RdmaCmEvent.EventType;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaConnParam;
import com.ibm.disni.verbs.RdmaVerbs;
import com.ibm.disni.verbs.impl.NativeDispatcher;
import com.ibm.disni.verbs.impl.RdmaVerbsNat;
import io.ibex.rdma.verbs.VerbsException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Misuse of libdisni.so gives exceptions, never a crash: null handles on every native, destroyed ids, and
 * calls librdmacm does not check (route before address, connect before route). Each test ends by using the
 * library again, which only a live JVM can do.
 */
@Tag("verbs")
@Timeout(120)
class DisniMisuseTest
{
    private static final short TCP = RdmaCm.RDMA_PS_TCP;

    @BeforeAll
    static void openDevice() throws Exception
    {
        DisniPeer.openDevice();
    }

    @Test
    void everyNativeRefusesNullHandles() throws Exception
    {
        final NativeDispatcher d = DisniPeer.dispatcher();
        final List<Executable> calls = List.of(
            () -> d._createId(0, TCP),
            () -> d._createQP(0, 0, 0, 0, IbvQP.IBV_QPT_RC, 1, 1, 0),
            () -> d._bindAddr(0, 0),
            () -> d._listen(0, 1),
            () -> d._resolveAddr(0, 0, 0, 100),
            () -> d._resolveRoute(0, 100),
            () -> d._getCmEvent(0, 0, 0, 0),
            () -> d._connect(0, 7, 7, 0, (byte)0),
            () -> d._accept(0, 7, 7),
            () -> d._disconnect(0),
            () -> d._destroyEventChannel(0),
            () -> d._destroyCmId(0),
            () -> d._destroyQP(0),
            () -> d._getSrcAddr(0, 0),
            () -> d._getDstAddr(0, 0),
            () -> d._destroyEp(0),
            () -> d._allocPd(0),
            () -> d._createCompChannel(0),
            () -> d._createCQ(0, 0, 1, 0),
            () -> d._modifyQP(0, 0),
            () -> d._regMr(0, 0, 0, 0, 0, 0, 0),
            () -> d._queryOdpSupport(0),
            () -> d._expPrefetchMr(0, 0, 0),
            () -> d._deregMr(0),
            () -> d._postSend(0, 0),
            () -> d._postRecv(0, 0),
            () -> d._getCqEvent(0, 0),
            () -> d._pollCQ(0, 1, 0),
            () -> d._reqNotifyCQ(0, 0),
            () -> d._ackCqEvent(0, 1),
            () -> d._destroyCompChannel(0),
            () -> d._deallocPd(0),
            () -> d._destroyCQ(0),
            () -> d._getContext(0),
            () -> d._getQpNum(0),
            () -> d._getContextFd(0),
            () -> d._getContextNumCompVectors(0),
            () -> d._getPdHandle(0),
            () -> IbexNative.cmCreateId(0, TCP, IbvQP.IBV_QPT_RC),
            () -> IbexNative.cmEventDetails(0, new long[IbexNative.CM_EVENT_LENGTH], new byte[16], new byte[256]),
            () -> IbexNative.cmConnect(0, new long[IbexNative.CONN_LENGTH], null),
            () -> IbexNative.cmAccept(0, new long[IbexNative.CONN_LENGTH], null),
            () -> IbexNative.cmReject(0, null),
            () -> IbexNative.cmPortNum(0),
            () -> IbexNative.cmAddress(0, false));
        for (int i = 0; i < calls.size(); i++)
        {
            final Throwable thrown = assertThrows(Exception.class, calls.get(i), "call " + i + " with null handles");
            assertTrue(thrown instanceof IOException || thrown instanceof VerbsException,
                "call " + i + " threw " + thrown);
        }
        assertEquals(32, d._getVersion(), "the library still answers");
    }

    @Test
    void resolveRouteBeforeResolveAddrThrows() throws Exception
    {
        try (DisniPeer peer = new DisniPeer())
        {
            final RdmaCmId id = peer.createId(TCP);
            final IOException thrown = assertThrows(IOException.class, () -> id.resolveRoute(1000));
            assertTrue(thrown.getMessage().contains("no device"), thrown.getMessage());
            assertThrows(IOException.class, id::disconnect, "disconnect of an id that never connected (DiSNI #19)");
            resolveWorksAfterwards(peer, id);
        }
    }

    @Test
    void connectInTheWrongStateThrows() throws Exception
    {
        try (DisniPeer peer = new DisniPeer())
        {
            final RdmaConnParam param = new RdmaConnParam();
            final RdmaCmId fresh = peer.createId(TCP);
            assertThrows(IOException.class, () -> fresh.connect(param), "connect before resolveAddr");
            assertThrows(IOException.class, () -> fresh.accept(param), "accept on an id without a request");

            final RdmaCmId addressOnly = peer.createId(TCP);
            addressOnly.resolveAddr(null, new InetSocketAddress(InetAddress.getByName(DisniPeer.ADDRESS), 7471),
                2000);
            peer.await(EventType.RDMA_CM_EVENT_ADDR_RESOLVED);
            assertThrows(IOException.class, () -> addressOnly.connect(param), "connect before resolveRoute");
            resolveWorksAfterwards(peer, fresh);
        }
    }

    @Test
    void destroyedIdsAreRefused() throws Exception
    {
        try (DisniPeer peer = new DisniPeer())
        {
            // DiSNI's destroyEp leaves its Java id open, so only the native can refuse the second call.
            final RdmaCmId endpoint = peer.channel.createId(TCP);
            assertEquals(0, endpoint.destroyEp());
            final IOException thrown = assertThrows(IOException.class, endpoint::destroyEp);
            assertTrue(thrown.getMessage().contains("not a live"), thrown.getMessage());
            assertThrows(IOException.class, () -> endpoint.resolveRoute(100), "use after destroyEp");

            final RdmaCmId id = peer.channel.createId(TCP);
            assertEquals(0, id.destroyId());
            assertThrows(IOException.class, id::destroyId, "DiSNI's Java refuses a second destroyId");
            assertThrows(IOException.class, () -> DisniPeer.dispatcher()._destroyCmId(DisniPeer.handle(id)),
                "the native refuses it too");
            resolveWorksAfterwards(peer, peer.createId(TCP));
        }
    }

    @Test
    void aChannelWithLiveIdsIsNotDestroyed() throws Exception
    {
        final NativeDispatcher d = DisniPeer.dispatcher();
        final long channel = d._createEventChannel();
        final long id = d._createId(channel, TCP);
        final IOException busy = assertThrows(IOException.class, () -> d._destroyEventChannel(channel));
        assertTrue(busy.getMessage().contains("1 rdma_cm id(s) still report"), busy.getMessage());
        assertEquals(0, d._destroyCmId(id));
        assertEquals(0, d._destroyEventChannel(channel));
    }

    @Test
    void modifyQpNeedsRealAttributesAndAppliesThem() throws Exception
    {
        try (DisniPeer peer = new DisniPeer())
        {
            final RdmaCmId id = peer.createId(TCP);
            id.bindAddr(new InetSocketAddress(InetAddress.getByName(DisniPeer.ADDRESS), 0));
            final DisniPeer.Endpoint endpoint = peer.endpoint(id, IbvQP.IBV_QPT_RC);
            final IOException none = assertThrows(IOException.class,
                () -> ((RdmaVerbsNat)RdmaVerbs.open()).modifyQP(endpoint.qp, null),
                "DiSNI's Java passes no attributes");
            assertTrue(none.getMessage().contains("no attributes"), none.getMessage());

            // struct disni_modify_qp: int mask, int reserved, struct ibv_qp_attr (qp_state first).
            final ByteBuffer modify = ByteBuffer.allocateDirect(256).order(ByteOrder.nativeOrder());
            modify.putInt(0, 1 /* IBV_QP_STATE */).putInt(8, IbvQP.IBV_QPS_ERR);
            endpoint.postRecv(9, 0, 64);
            assertEquals(0, DisniPeer.dispatcher()._modifyQP(DisniPeer.handle(endpoint.qp),
                MemoryUtils.getAddress(modify)));
            final IbvWC flushed = endpoint.awaitCompletion();
            assertEquals(9, flushed.getWr_id());
            assertEquals(IbvWC.IbvWcStatus.IBV_WC_WR_FLUSH_ERR.ordinal(), flushed.getStatus(),
                "a receive flushes once the QP is in ERR");
        }
    }

    @Test
    void prefetchWithoutOnDemandPagingThrows() throws Exception
    {
        try (DisniPeer peer = new DisniPeer())
        {
            final RdmaCmId id = peer.createId(TCP);
            id.bindAddr(new InetSocketAddress(InetAddress.getByName(DisniPeer.ADDRESS), 0));
            final DisniPeer.Endpoint endpoint = peer.endpoint(id, IbvQP.IBV_QPT_RC);
            final int odp = endpoint.context.queryOdpSupport();
            assertThrows(IOException.class, () -> endpoint.mr.expPrefetchMr(endpoint.mr.getAddr(), 64),
                "ibv_advise_mr on an MR registered without on-demand paging (device RC ODP caps " + odp + ")");
        }
    }

    /** The library still works after the misuse: a fresh resolution succeeds. */
    private static void resolveWorksAfterwards(final DisniPeer peer, final RdmaCmId id) throws IOException
    {
        peer.resolve(id, new InetSocketAddress(InetAddress.getByName(DisniPeer.ADDRESS), 7471));
    }
}
