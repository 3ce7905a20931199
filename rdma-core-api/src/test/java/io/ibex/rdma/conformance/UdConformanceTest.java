package io.ibex.rdma.conformance;

import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.AddressHandle;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.WcFlags;
import io.ibex.rdma.verbs.WcOpcode;
import io.ibex.rdma.verbs.WcStatus;
import io.ibex.rdma.verbs.WorkCompletion;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;


import static io.ibex.rdma.conformance.Await.assertSuccess;
import static io.ibex.rdma.conformance.Await.completion;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * UD: datagrams with the 40-byte GRH in front of the payload, immediate data, Q_Key filtering, address
 * handles, and datagrams that cannot be delivered (longer than the MTU or than the receive buffer).
 */
class UdConformanceTest extends LoopbackTest
{
    /** The Global Route Header every UD receive buffer starts with. */
    private static final int GRH = 40;
    private static final int SIZE = 8192;
    private static final int IMM = 0x0badf00d;

    private QueuePair sender;
    private QueuePair receiver;
    private AddressHandle ah;
    private RegisteredBuffer local;
    private RegisteredBuffer remote;

    @BeforeEach
    void open()
    {
        final Loopback.QpPair pair = loopback.pair(QpType.UD);
        sender = pair.a();
        receiver = pair.b();
        ah = loopback.ah();
        local = loopback.register(SIZE, AccessFlags.LOCAL_WRITE).pattern(0, SIZE, 21);
        remote = loopback.register(SIZE, AccessFlags.LOCAL_WRITE);
    }

    @Test
    void addressHandleKeepsItsAttributes()
    {
        assertSame(loopback.pd(), ah.pd());
        assertEquals(loopback.address(), ah.attr());
    }

    @Test
    void sendDeliversTheGrhAndThePayload()
    {
        receiver.postRecv(remote.recv(1, 0, GRH + 256));

        sender.postSend(datagram(2, 0, 100, Loopback.QKEY));

        assertSuccess(completion(sender.sendCq()), 2, WcOpcode.SEND);
        final WorkCompletion received = completion(receiver.recvCq());
        assertSuccess(received, 1, WcOpcode.RECV);
        assertEquals(GRH + 100, received.byteLen());
        assertEquals(WcFlags.GRH, received.wcFlags() & WcFlags.GRH);
        assertEquals(0, received.wcFlags() & WcFlags.WITH_IMM);
        assertEquals(sender.qpNum(), received.srcQp());
        assertEquals(receiver.qpNum(), received.qpNum());
        assertArrayEquals(local.bytes(0, 100), remote.bytes(GRH, 100));
    }

    @Test
    void sendWithImmDeliversTheImmediate()
    {
        receiver.postRecv(remote.recv(1, 0, GRH + 256));

        sender.postSend(datagram(2, 0, 10, Loopback.QKEY).opcode(SendOpcode.SEND_WITH_IMM).immData(IMM));

        assertSuccess(completion(sender.sendCq()), 2, WcOpcode.SEND);
        final WorkCompletion received = completion(receiver.recvCq());
        assertSuccess(received, 1, WcOpcode.RECV);
        assertEquals(GRH + 10, received.byteLen());
        assertEquals(WcFlags.WITH_IMM, received.wcFlags() & WcFlags.WITH_IMM);
        assertEquals(IMM, received.immData());
        assertEquals(sender.qpNum(), received.srcQp());
    }

    @Test
    void datagramWithTheWrongQkeyIsDropped()
    {
        receiver.postRecv(remote.recv(1, 0, GRH + 256));
        receiver.postRecv(remote.recv(2, 1024, GRH + 256));

        sender.postSend(datagram(3, 0, 30, Loopback.QKEY + 1));
        sender.postSend(datagram(4, 100, 20, Loopback.QKEY));

        // The datagram after the dropped one lands in the first receive.
        final WorkCompletion received = completion(receiver.recvCq());
        assertSuccess(received, 1, WcOpcode.RECV);
        assertEquals(GRH + 20, received.byteLen());
        assertArrayEquals(local.bytes(100, 20), remote.bytes(GRH, 20));
        Await.noCompletion(receiver.recvCq(), 100);
    }

    /**
     * IB spec C10-93.1.1: a UD message longer than the MTU emits no packet and raises no error; rxe completes
     * the send successfully and delivers nothing.
     */
    @Test
    void datagramLongerThanTheMtuIsNotDelivered()
    {
        final int mtu = loopback.mtu().bytes();
        receiver.postRecv(remote.recv(1, 0, GRH + mtu + 64));

        sender.postSend(datagram(2, 0, mtu + 1, Loopback.QKEY));
        sender.postSend(datagram(3, 0, 8, Loopback.QKEY));

        assertSuccess(completion(sender.sendCq()), 2, WcOpcode.SEND);
        assertSuccess(completion(sender.sendCq()), 3, WcOpcode.SEND);
        final WorkCompletion received = completion(receiver.recvCq());
        assertSuccess(received, 1, WcOpcode.RECV);
        assertEquals(GRH + 8, received.byteLen(), "the datagram longer than the MTU was delivered");
    }

    @Test
    void datagramOfExactlyTheMtuIsDelivered()
    {
        final int mtu = loopback.mtu().bytes();
        receiver.postRecv(remote.recv(1, 0, GRH + mtu));

        sender.postSend(datagram(2, 0, mtu, Loopback.QKEY));

        assertSuccess(completion(sender.sendCq()), 2, WcOpcode.SEND);
        final WorkCompletion received = completion(receiver.recvCq());
        assertSuccess(received, 1, WcOpcode.RECV);
        assertEquals(GRH + mtu, received.byteLen());
        assertArrayEquals(local.bytes(0, mtu), remote.bytes(GRH, mtu));
    }

    /**
     * A datagram longer than the receive buffer is never delivered. Hardware completes the receive with
     * LOC_LEN_ERR; rxe (kernel 6.1) fails to copy it into the receive (copy_data in send_data_in:
     * RESPST_ERR_MALFORMED_WQE) and completes the receive with LOC_QP_OP_ERR, as soft does. A device that
     * drops it silently (IB class D) leaves the receive for the next datagram.
     */
    @Test
    void datagramLongerThanTheReceiveBufferIsNotDelivered()
    {
        receiver.postRecv(remote.recv(1, 0, GRH + 16));

        sender.postSend(datagram(2, 0, 64, Loopback.QKEY));
        sender.postSend(datagram(3, 200, 8, Loopback.QKEY));

        assertSuccess(completion(sender.sendCq()), 2, WcOpcode.SEND);
        final WorkCompletion received = completion(receiver.recvCq());
        assertEquals(1, received.wrId());
        if (received.status() == WcStatus.SUCCESS)
        {
            assertEquals(GRH + 8, received.byteLen(), "the datagram longer than the receive was delivered");
            assertArrayEquals(local.bytes(200, 8), remote.bytes(GRH, 8));
        }
        else
        {
            assertTrue(received.status() == WcStatus.LOC_LEN_ERR || received.status() == WcStatus.LOC_QP_OP_ERR,
                () -> "expected LOC_LEN_ERR (hardware) or LOC_QP_OP_ERR (rxe), got " + received);
        }
    }

    @Test
    void datagramToAQpNumberNobodyHasIsDroppedSilently()
    {
        receiver.postRecv(remote.recv(1, 0, GRH + 64));
        final SendWorkRequest lost = local.send(2, 0, 8).ud(ah, 0xfffff0, Loopback.QKEY);

        sender.postSend(lost);
        sender.postSend(datagram(3, 64, 8, Loopback.QKEY));

        // UD has no acknowledgements: the sender cannot know, and the receiver only sees the second datagram.
        assertSuccess(completion(sender.sendCq()), 2, WcOpcode.SEND);
        assertSuccess(completion(sender.sendCq()), 3, WcOpcode.SEND);
        final WorkCompletion received = completion(receiver.recvCq());
        assertSuccess(received, 1, WcOpcode.RECV);
        assertArrayEquals(local.bytes(64, 8), remote.bytes(GRH, 8));
    }

    @Test
    void oneQpReceivesFromSeveralSenders()
    {
        final QueuePair other = loopback.qp(QpType.UD);
        loopback.connect(other, receiver);
        receiver.postRecv(remote.recv(1, 0, GRH + 64));
        receiver.postRecv(remote.recv(2, 1024, GRH + 64));

        sender.postSend(datagram(3, 0, 8, Loopback.QKEY));
        assertSuccess(completion(sender.sendCq()), 3, WcOpcode.SEND);
        final SendWorkRequest fromOther = datagram(4, 0, 8, Loopback.QKEY);
        other.postSend(fromOther);
        assertSuccess(completion(other.sendCq()), 4, WcOpcode.SEND);

        final WorkCompletion first = completion(receiver.recvCq());
        final WorkCompletion second = completion(receiver.recvCq());
        assertTrue(first.srcQp() != second.srcQp(), "both datagrams report source QP " + first.srcQp());
        assertEquals(sender.qpNum(), first.srcQp());
        assertEquals(other.qpNum(), second.srcQp());
    }

    private SendWorkRequest datagram(final long wrId, final int offset, final int length, final int qkey)
    {
        return local.send(wrId, offset, length).ud(ah, receiver.qpNum(), qkey);
    }
}
