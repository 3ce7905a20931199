package io.ibex.rdma.provider.disni;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import com.ibm.disni.util.MemoryUtils;
import com.ibm.disni.verbs.RdmaCm;
import com.ibm.disni.verbs.RdmaCmId;
import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.Mtu;
import io.ibex.rdma.verbs.PostException;
import io.ibex.rdma.verbs.QpAttrMask;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.VerbsException;
import io.ibex.rdma.verbs.WcFlags;
import io.ibex.rdma.verbs.WcOpcode;
import io.ibex.rdma.verbs.WcStatus;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * IbexNative's QPs, posts and AHs on the Soft-RoCE device without rdma_cm: an RC pair connected out of band
 * (RESET, INIT, RTR with the GID, RTS) carrying SEND/RECV, RDMA WRITE and both atomics; a UD QP sending to
 * itself through an address handle; a post list refused part-way; and misuse that must throw.
 */
@Tag("verbs")
@Timeout(120)
class IbexNativeQpTest
{
    private static final int PORT = IbexNativeTest.PORT;
    private static final int QKEY = 0x11111111;
    /** The Global Routing Header a UD receive buffer starts with. */
    private static final int GRH_BYTES = 40;
    private static final byte[] NO_GID = new byte[16];
    /** enum ibv_event_type. */
    private static final int IBV_EVENT_CQ_ERR = 0;

    private static long context;
    private static byte[] gid;

    @BeforeAll
    static void openDevice() throws Exception
    {
        System.loadLibrary("disni"); // IbexNative has no loader of its own: the provider loads the library
        context = IbexNativeTest.context(IbexNativeTest.DEVICE);
        gid = IbexNativeTest.expectedGid();
    }

    private static int[] caps()
    {
        return new int[] {8, 8, 1, 1, 0};
    }

    /** @return an AH attribute array towards this device's GID {@link IbexNativeTest#GID_INDEX}. */
    private static long[] ahToSelf()
    {
        final long[] ah = new long[IbexNative.AH_ATTR_LENGTH];
        ah[IbexNative.AH_IS_GLOBAL] = 1;
        ah[IbexNative.AH_PORT_NUM] = PORT;
        ah[IbexNative.AH_SGID_INDEX] = IbexNativeTest.GID_INDEX;
        ah[IbexNative.AH_HOP_LIMIT] = 64;
        return ah;
    }

    /** Moves an RC QP from RESET to RTS towards remoteQpn on this device, checking each state. */
    private static void connectRc(final long qp, final int remoteQpn)
    {
        final long[] attr = new long[IbexNative.QP_ATTR_LENGTH];
        attr[IbexNative.QP_STATE] = QpState.INIT.value();
        attr[IbexNative.QP_PORT_NUM] = PORT;
        attr[IbexNative.QP_ACCESS_FLAGS] = AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ
            | AccessFlags.REMOTE_ATOMIC;
        IbexNative.modifyQp(qp, QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.ACCESS_FLAGS,
            attr, NO_GID);
        assertEquals(QpState.INIT.value(), IbexNative.queryQpState(qp));

        attr[IbexNative.QP_STATE] = QpState.RTR.value();
        attr[IbexNative.QP_PATH_MTU] = Mtu.MTU_1024.value();
        attr[IbexNative.QP_DEST_QP_NUM] = remoteQpn;
        attr[IbexNative.QP_RQ_PSN] = 0;
        attr[IbexNative.QP_MAX_DEST_RD_ATOMIC] = 1;
        attr[IbexNative.QP_MIN_RNR_TIMER] = 12;
        System.arraycopy(ahToSelf(), 0, attr, IbexNative.QP_AH, IbexNative.AH_ATTR_LENGTH);
        IbexNative.modifyQp(qp, QpAttrMask.STATE | QpAttrMask.AV | QpAttrMask.PATH_MTU | QpAttrMask.DEST_QPN
            | QpAttrMask.RQ_PSN | QpAttrMask.MAX_DEST_RD_ATOMIC | QpAttrMask.MIN_RNR_TIMER, attr, gid);
        assertEquals(QpState.RTR.value(), IbexNative.queryQpState(qp));

        attr[IbexNative.QP_STATE] = QpState.RTS.value();
        attr[IbexNative.QP_TIMEOUT] = 14;
        attr[IbexNative.QP_RETRY_CNT] = 7;
        attr[IbexNative.QP_RNR_RETRY] = 7;
        attr[IbexNative.QP_SQ_PSN] = 0;
        attr[IbexNative.QP_MAX_RD_ATOMIC] = 1;
        IbexNative.modifyQp(qp, QpAttrMask.STATE | QpAttrMask.TIMEOUT | QpAttrMask.RETRY_CNT | QpAttrMask.RNR_RETRY
            | QpAttrMask.SQ_PSN | QpAttrMask.MAX_QP_RD_ATOMIC, attr, NO_GID);
        assertEquals(QpState.RTS.value(), IbexNative.queryQpState(qp));
        final long[] got = new long[IbexNative.QP_AH];
        IbexNative.queryQp(qp, got);
        for (final int field : new int[] {IbexNative.QP_STATE, IbexNative.QP_ACCESS_FLAGS, IbexNative.QP_DEST_QP_NUM,
            IbexNative.QP_MIN_RNR_TIMER, IbexNative.QP_TIMEOUT, IbexNative.QP_RETRY_CNT, IbexNative.QP_RNR_RETRY})
        {
            assertEquals(attr[field], got[field], "queryQp's field " + field);
        }
    }

    /**
     * Moves a UD QP from RESET to RTS with {@link #QKEY}.
     *
     * @param qp a UD QP in RESET.
     * @return its qp_num.
     */
    private static int toRts(final long qp)
    {
        final long[] attr = new long[IbexNative.QP_ATTR_LENGTH];
        attr[IbexNative.QP_STATE] = QpState.INIT.value();
        attr[IbexNative.QP_PORT_NUM] = PORT;
        attr[IbexNative.QP_QKEY] = QKEY;
        IbexNative.modifyQp(qp, QpAttrMask.STATE | QpAttrMask.PKEY_INDEX | QpAttrMask.PORT | QpAttrMask.QKEY, attr,
            NO_GID);
        attr[IbexNative.QP_STATE] = QpState.RTR.value();
        IbexNative.modifyQp(qp, QpAttrMask.STATE, attr, NO_GID);
        attr[IbexNative.QP_STATE] = QpState.RTS.value();
        IbexNative.modifyQp(qp, QpAttrMask.STATE | QpAttrMask.SQ_PSN, attr, NO_GID);
        assertEquals(QpState.RTS.value(), IbexNative.queryQpState(qp));
        return IbexNative.qpNum(qp);
    }

    /**
     * Awaits the two completions of a message, in either order, and checks both.
     *
     * @return the receiver's completion.
     */
    private static NativeVerbs.Completion awaitPair(final NativeVerbs v, final long sendId, final WcOpcode sendOpcode,
        final long sendQp, final long recvId, final WcOpcode recvOpcode, final long recvQp)
    {
        final NativeVerbs.Completion first = v.await();
        final NativeVerbs.Completion second = v.await();
        final NativeVerbs.Completion recv = first.wrId() == recvId ? first : second;
        assertCompletion(recv == first ? second : first, sendId, sendOpcode, sendQp);
        assertCompletion(recv, recvId, recvOpcode, recvQp);
        return recv;
    }

    private static void assertCompletion(final NativeVerbs.Completion wc, final long wrId, final WcOpcode opcode,
        final long qp)
    {
        assertEquals(WcStatus.SUCCESS.value(), wc.status(), wc.toString());
        assertEquals(wrId, wc.wrId(), wc.toString());
        assertEquals(opcode.value(), wc.opcode(), wc.toString());
        assertEquals(IbexNative.qpNum(qp), wc.qpNum(), wc.toString());
    }

    @Test
    void rcPairCarriesSendWriteAndAtomics() throws Exception
    {
        try (NativeVerbs v = new NativeVerbs(context))
        {
            final int[] caps = caps();
            final long a = v.qp(QpType.RC.value(), caps);
            assertTrue(caps[0] >= 8 && caps[1] >= 8 && caps[2] >= 1 && caps[3] >= 1,
                "granted " + Arrays.toString(caps));
            final long b = v.qp(QpType.RC.value(), caps());
            assertEquals(QpState.RESET.value(), IbexNative.queryQpState(a));
            connectRc(a, IbexNative.qpNum(b));
            connectRc(b, IbexNative.qpNum(a));

            final byte[] hello = "hello over rxe0".getBytes(StandardCharsets.US_ASCII);
            v.buffer.put(0, hello);
            IbexNative.postRecv(b, v.recv(0, 1, 2048, 512));
            IbexNative.postSend(a, v.send(1, 2, SendOpcode.SEND.value(), 0, hello.length));
            final NativeVerbs.Completion recv = awaitPair(v, 2, WcOpcode.SEND, a, 1, WcOpcode.RECV, b);
            assertEquals(hello.length, recv.byteLen());
            assertArrayEquals(hello, bytes(v, 2048, hello.length), "the receive buffer holds the message");

            final long write = v.send(0, 3, SendOpcode.RDMA_WRITE.value(), 0, hello.length);
            v.rdma(0, 1024);
            IbexNative.postSend(a, write);
            assertCompletion(v.await(), 3, WcOpcode.RDMA_WRITE, a);
            assertArrayEquals(hello, bytes(v, 1024, hello.length), "RDMA WRITE landed at remote_addr");

            v.buffer.putLong(3072, 40);
            final long add = v.send(0, 4, SendOpcode.ATOMIC_FETCH_AND_ADD.value(), 3080, Long.BYTES);
            v.atomic(0, 3072, 2, 0);
            IbexNative.postSend(a, add);
            assertCompletion(v.await(), 4, WcOpcode.FETCH_ADD, a);
            assertEquals(42, v.buffer.getLong(3072), "fetch-and-add added compare_add");
            assertEquals(40, v.buffer.getLong(3080), "and returned the old value");

            final long swap = v.send(0, 5, SendOpcode.ATOMIC_CMP_AND_SWP.value(), 3080, Long.BYTES);
            v.atomic(0, 3072, 42, 7);
            IbexNative.postSend(a, swap);
            assertCompletion(v.await(), 5, WcOpcode.COMP_SWAP, a);
            assertEquals(7, v.buffer.getLong(3072), "compare-and-swap swapped");
            assertEquals(42, v.buffer.getLong(3080), "and returned the old value");
        }
    }

    @Test
    void rcImmediatesReadAndInline() throws Exception
    {
        try (NativeVerbs v = new NativeVerbs(context))
        {
            final int[] caps = {8, 8, 1, 1, 64};
            final long a = v.qp(QpType.RC.value(), caps);
            assertTrue(caps[4] >= 64, "inline granted " + Arrays.toString(caps));
            final long b = v.qp(QpType.RC.value(), caps());
            connectRc(a, IbexNative.qpNum(b));
            connectRc(b, IbexNative.qpNum(a));
            final byte[] data = "immediate, read, inline".getBytes(StandardCharsets.US_ASCII);
            v.buffer.put(0, data);

            IbexNative.postRecv(b, v.recv(0, 70, 2048, 512));
            final long send = v.send(1, 71, SendOpcode.SEND_WITH_IMM.value(), 0, data.length);
            v.imm(1, 0x12345678);
            IbexNative.postSend(a, send);
            final NativeVerbs.Completion sendImm = awaitPair(v, 71, WcOpcode.SEND, a, 70, WcOpcode.RECV, b);
            assertEquals(0x12345678, sendImm.imm(), sendImm.toString());
            assertTrue((sendImm.wcFlags() & WcFlags.WITH_IMM) != 0, sendImm.toString());

            IbexNative.postRecv(b, v.recv(0, 72, 2048, 512));
            final long write = v.send(1, 73, SendOpcode.RDMA_WRITE_WITH_IMM.value(), 0, data.length);
            v.rdma(1, 1024);
            v.imm(1, 0x0a0b0c0d);
            IbexNative.postSend(a, write);
            final NativeVerbs.Completion writeImm = awaitPair(v, 73, WcOpcode.RDMA_WRITE, a, 72,
                WcOpcode.RECV_RDMA_WITH_IMM, b);
            assertEquals(0x0a0b0c0d, writeImm.imm(), writeImm.toString());
            assertEquals(data.length, writeImm.byteLen(), writeImm.toString());
            assertArrayEquals(data, bytes(v, 1024, data.length));

            final long read = v.send(0, 74, SendOpcode.RDMA_READ.value(), 3500, data.length);
            v.rdma(0, 1024);
            IbexNative.postSend(a, read);
            assertCompletion(v.await(), 74, WcOpcode.RDMA_READ, a);
            assertArrayEquals(data, bytes(v, 3500, data.length), "RDMA READ fetched remote_addr");

            IbexNative.postRecv(b, v.recv(0, 75, 2560, 512));
            final long inline = v.send(1, 76, SendOpcode.SEND.value(), 0, data.length);
            v.flags(1, 2 | 8 /* IBV_SEND_SIGNALED | IBV_SEND_INLINE */, 0);
            IbexNative.postSend(a, inline);
            assertEquals(data.length, awaitPair(v, 76, WcOpcode.SEND, a, 75, WcOpcode.RECV, b).byteLen());
            assertArrayEquals(data, bytes(v, 2560, data.length), "inline data needs no lkey");
        }
    }

    @Test
    void aListRefusedPartWayNamesTheBadRequest() throws Exception
    {
        try (NativeVerbs v = new NativeVerbs(context))
        {
            final long a = v.qp(QpType.RC.value(), caps());
            final long b = v.qp(QpType.RC.value(), caps());
            connectRc(a, IbexNative.qpNum(b));
            connectRc(b, IbexNative.qpNum(a));
            final long list = v.send(0, 10, SendOpcode.RDMA_WRITE.value(), 0, 64);
            v.rdma(0, 512);
            v.send(1, 11, SendOpcode.RDMA_WRITE.value(), 0, 64);
            v.rdma(1, 512);
            v.numSge(1, 99);
            v.link(0, 1);
            final PostException thrown = assertThrows(PostException.class, () -> IbexNative.postSend(a, list));
            assertEquals(1, thrown.badIndex(), thrown.getMessage());
            assertEquals(VerbsException.EINVAL, thrown.errno(), thrown.getMessage());
            assertCompletion(v.await(), 10, WcOpcode.RDMA_WRITE, a);
        }
    }

    @Test
    void udQpSendsToItselfThroughAnAddressHandle() throws Exception
    {
        try (NativeVerbs v = new NativeVerbs(context))
        {
            final long qp = v.qp(QpType.UD.value(), caps());
            final int qpn = toRts(qp);

            final long ah = v.ah(ahToSelf(), gid);
            final byte[] datagram = "a datagram to myself".getBytes(StandardCharsets.US_ASCII);
            v.buffer.put(0, datagram);
            IbexNative.postRecv(qp, v.recv(0, 20, 2048, GRH_BYTES + 256));
            final long send = v.send(1, 21, SendOpcode.SEND.value(), 0, datagram.length);
            v.ud(1, ah, qpn, QKEY);
            IbexNative.postSend(qp, send);
            final NativeVerbs.Completion recv = awaitPair(v, 21, WcOpcode.SEND, qp, 20, WcOpcode.RECV, qp);
            assertEquals(GRH_BYTES + datagram.length, recv.byteLen(), "the GRH, then the payload");
            assertEquals(qpn, recv.srcQp(), "src_qp names the sender");
            assertTrue((recv.wcFlags() & WcFlags.GRH) != 0, "RoCE datagrams carry a GRH: " + recv);
            assertArrayEquals(datagram, bytes(v, 2048 + GRH_BYTES, datagram.length));
        }
    }

    @Test
    void completionEventNamesTheCq() throws Exception
    {
        final var dispatcher = DisniPeer.dispatcher();
        final long channel = dispatcher._createCompChannel(context);
        try (NativeVerbs v = new NativeVerbs(context))
        {
            final long recvCq = IbexNative.createCq(context, channel, 4, 0);
            try
            {
                final long qp = IbexNative.createQp(0, v.pd, v.cq, recvCq, QpType.UD.value(), caps(), false);
                try
                {
                    final int qpn = toRts(qp);
                    IbexNative.reqNotifyCq(recvCq, false);
                    IbexNative.postRecv(qp, v.recv(0, 40, 2048, GRH_BYTES + 64));
                    final long send = v.send(1, 41, SendOpcode.SEND.value(), 0, 64);
                    v.ud(1, v.ah(ahToSelf(), gid), qpn, QKEY);
                    IbexNative.postSend(qp, send);
                    assertEquals(recvCq, IbexNative.getCqEvent(channel, 20_000),
                        "the event names the receive CQ");
                    assertCompletion(v.await(recvCq), 40, WcOpcode.RECV, qp);
                    assertCompletion(v.await(), 41, WcOpcode.SEND, qp);
                    assertEquals(0, IbexNative.getCqEvent(channel, 0), "one event per notification request");
                }
                finally
                {
                    IbexNative.destroyQp(0, qp);
                }
            }
            finally
            {
                IbexNative.destroyCq(recvCq); // returns only once every event was acked: getCqEvent acked it
            }
        }
        finally
        {
            dispatcher._destroyCompChannel(channel);
        }
    }

    @Test
    void cqOverflowRaisesCqErrNamingTheCq() throws Exception
    {
        try (NativeVerbs v = new NativeVerbs(context))
        {
            final long small = IbexNative.createCq(context, 0, 1, 0);
            try
            {
                final int datagrams = IbexNative.cqEntries(small) + 1; // twice as many completions: overflow
                final long qp = IbexNative.createQp(0, v.pd, small, small, QpType.UD.value(),
                    new int[] {datagrams, datagrams, 1, 1, 0}, false);
                try
                {
                    final int qpn = toRts(qp);
                    final long ah = v.ah(ahToSelf(), gid);
                    for (int i = 0; i < datagrams; i++)
                    {
                        IbexNative.postRecv(qp, v.recv(0, 50 + i, 2048, GRH_BYTES + 64));
                    }
                    for (int i = 0; i < datagrams; i++)
                    {
                        final long send = v.send(1, 60 + i, SendOpcode.SEND.value(), 0, 64);
                        v.ud(1, ah, qpn, QKEY);
                        IbexNative.postSend(qp, send);
                    }
                    final List<String> events = new ArrayList<>();
                    boolean cqErr = false;
                    final long[] element = new long[1];
                    for (int type; (type = IbexNative.getAsyncEvent(context, 5000, element)) != -1; )
                    {
                        events.add(type + "@" + Long.toHexString(element[0]));
                        cqErr |= type == IBV_EVENT_CQ_ERR && element[0] == small;
                    }
                    assertTrue(cqErr, "CQ_ERR for CQ " + Long.toHexString(small) + " among " + events);
                }
                finally
                {
                    IbexNative.destroyQp(0, qp);
                }
            }
            finally
            {
                IbexNative.destroyCq(small);
            }
        }
    }

    @Test
    void qpOnAnRdmaCmIdIsTheIdsQp() throws Exception
    {
        try (DisniPeer peer = new DisniPeer(); NativeVerbs v = new NativeVerbs(context))
        {
            final RdmaCmId id = peer.createId(RdmaCm.RDMA_PS_TCP);
            id.bindAddr(new InetSocketAddress(InetAddress.getByName(DisniPeer.ADDRESS), 0));
            final long cmId = DisniPeer.handle(id);
            assertEquals(context, DisniPeer.dispatcher()._getContext(cmId),
                "contexts() hands out the ibv_context librdmacm gives its ids");
            final int[] caps = caps();
            final long qp = IbexNative.createQp(cmId, v.pd, v.cq, v.cq, QpType.RC.value(), caps, true);
            assertTrue(caps[0] >= 8, "granted " + Arrays.toString(caps));
            assertEquals(QpState.INIT.value(), IbexNative.queryQpState(qp), "rdma_create_qp moves an RC QP to INIT");
            final VerbsException other = assertThrows(VerbsException.class, () -> IbexNative.destroyQp(cmId, v.pd),
                "a pointer that is not the id's QP");
            assertTrue(other.getMessage().contains("not the rdma_cm id's"), other.getMessage());
            IbexNative.destroyQp(cmId, qp);
            assertThrows(VerbsException.class, () -> IbexNative.destroyQp(cmId, qp), "destroyed already");
        }
    }

    @Test
    void wrongTransitionsAndPostsInResetThrow() throws Exception
    {
        try (NativeVerbs v = new NativeVerbs(context))
        {
            final long qp = v.qp(QpType.RC.value(), caps());
            final long[] attr = new long[IbexNative.QP_ATTR_LENGTH];
            attr[IbexNative.QP_STATE] = QpState.RTS.value();
            final VerbsException skip = assertThrows(VerbsException.class,
                () -> IbexNative.modifyQp(qp, QpAttrMask.STATE, attr, NO_GID), "RESET to RTS");
            assertTrue(skip.getMessage().contains("mask 0x1") && skip.getMessage().contains("to state 3"),
                skip.getMessage());
            assertEquals(QpState.RESET.value(), IbexNative.queryQpState(qp), "the QP stays in RESET");

            final PostException send = assertThrows(PostException.class,
                () -> IbexNative.postSend(qp, v.send(0, 30, SendOpcode.SEND.value(), 0, 8)));
            assertEquals(0, send.badIndex(), send.getMessage());
            final PostException recv = assertThrows(PostException.class,
                () -> IbexNative.postRecv(qp, v.recv(1, 31, 0, 8)));
            assertEquals(0, recv.badIndex(), recv.getMessage());
        }
    }

    @Test
    void nullHandlesAndShortArraysThrow() throws Exception
    {
        try (NativeVerbs v = new NativeVerbs(context))
        {
            final long qp = v.qp(QpType.RC.value(), caps());
            final long[] attr = new long[IbexNative.QP_ATTR_LENGTH];
            IbexNativeTest.assertAllThrow(List.of(
                () -> IbexNative.createQp(0, 0, v.cq, v.cq, QpType.RC.value(), caps(), false),
                () -> IbexNative.createQp(0, v.pd, 0, v.cq, QpType.RC.value(), caps(), false),
                () -> IbexNative.createQp(0, v.pd, v.cq, 0, QpType.RC.value(), caps(), false),
                () -> IbexNative.createQp(0, v.pd, v.cq, v.cq, QpType.RC.value(), new int[4], false),
                () -> IbexNative.createQp(0, v.pd, v.cq, v.cq, QpType.RC.value(), null, false),
                () -> IbexNative.createQp(v.pd, v.pd, v.cq, v.cq, QpType.RC.value(), caps(), false),
                () -> IbexNative.qpNum(0),
                () -> IbexNative.modifyQp(0, QpAttrMask.STATE, attr, NO_GID),
                () -> IbexNative.modifyQp(qp, QpAttrMask.STATE, new long[IbexNative.QP_AH], NO_GID),
                () -> IbexNative.modifyQp(qp, QpAttrMask.STATE, attr, new byte[15]),
                () -> IbexNative.queryQpState(0),
                () -> IbexNative.queryQp(0, attr),
                () -> IbexNative.queryQp(qp, new long[IbexNative.QP_AH - 1]),
                () -> IbexNative.queryQp(qp, null),
                () -> IbexNative.destroyQp(0, 0),
                () -> IbexNative.destroyQp(v.pd, qp),
                () -> IbexNative.postSend(0, v.send(0, 1, SendOpcode.SEND.value(), 0, 8)),
                () -> IbexNative.postSend(qp, 0),
                () -> IbexNative.postRecv(0, v.recv(0, 1, 0, 8)),
                () -> IbexNative.postRecv(qp, 0),
                () -> IbexNative.createAh(0, ahToSelf(), gid),
                () -> IbexNative.createAh(v.pd, new long[IbexNative.AH_ATTR_LENGTH - 1], gid),
                () -> IbexNative.createAh(v.pd, ahToSelf(), null),
                () -> IbexNative.destroyAh(0)));
            assertEquals(QpState.RESET.value(), IbexNative.queryQpState(qp), "the QP is still usable");
        }
    }

    /**
     * Numbers no device takes, straight to the natives (the provider's Java checks most of them first): each throws,
     * and the device still works.
     */
    @Test
    void numbersNoDeviceTakesThrow() throws Exception
    {
        try (NativeVerbs v = new NativeVerbs(context))
        {
            final long qp = v.qp(QpType.RC.value(), caps());
            final long[] badState = new long[IbexNative.QP_ATTR_LENGTH];
            badState[IbexNative.QP_STATE] = 99;
            final long[] badPort = ahToSelf();
            badPort[IbexNative.AH_PORT_NUM] = 99;
            final long[] badGid = ahToSelf();
            badGid[IbexNative.AH_SGID_INDEX] = 9999;
            final List<Executable> calls = List.of(
                () -> IbexNative.createCq(context, 0, 0, 0),
                () -> IbexNative.createCq(context, 0, -1, 0),
                () -> createQp(v, new int[]{1 << 30, 1, 1, 1, 0}),
                () -> createQp(v, new int[]{-1, 1, 1, 1, 0}),
                () -> createQp(v, new int[]{1, 1, 1 << 20, 1, 0}),
                () -> createQp(v, new int[]{1, 1, 1, 1, 1 << 30}),
                () -> IbexNative.createQp(0, v.pd, v.cq, v.cq, 99, caps(), false),
                () -> IbexNative.modifyQp(qp, QpAttrMask.STATE, badState, NO_GID),
                () -> IbexNative.queryPort(context, 0),
                () -> IbexNative.queryPort(context, 255),
                () -> IbexNative.queryGid(context, PORT, -1),
                () -> IbexNative.queryGid(context, PORT, 1 << 20),
                () -> IbexNative.createAh(v.pd, badPort, gid),
                () -> IbexNative.createAh(v.pd, badGid, gid));
            for (int i = 0; i < calls.size(); i++)
            {
                assertThrows(VerbsException.class, calls.get(i), "call " + i);
            }
            final ByteBuffer wcs = ByteBuffer.allocateDirect(4096);
            final int polled;
            try
            {
                polled = IbexNative.pollCq(v.cq, -1, MemoryUtils.getAddress(wcs));
                assertEquals(0, polled, "a poll of -1 completions takes none");
            }
            catch (final VerbsException refused)
            {
                assertEquals(VerbsException.EINVAL, refused.errno(), refused.getMessage());
            }
            assertEquals(QpState.RESET.value(), IbexNative.queryQpState(qp), "the QP is still usable");
        }
    }

    private static long createQp(final NativeVerbs v, final int[] caps)
    {
        return IbexNative.createQp(0, v.pd, v.cq, v.cq, QpType.RC.value(), caps, false);
    }

    private static byte[] bytes(final NativeVerbs v, final int offset, final int length)
    {
        final byte[] bytes = new byte[length];
        v.buffer.get(offset, bytes);
        return bytes;
    }
}
