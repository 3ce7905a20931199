package io.ibex.rdma.provider.soft;

import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.WcFlags;
import io.ibex.rdma.verbs.WcOpcode;
import io.ibex.rdma.verbs.WcStatus;
import io.ibex.rdma.verbs.WorkCompletion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Soft-specific data path checks the conformance suite does not make: messages cut into several frames,
 * RNR retry timing on the soft wire, UD with the soft GRH, the ACK a QP still owes when it stops, the goodbye of
 * a QP that leaves.
 */
@Timeout(30)
class SoftDataPathTest
{
    private final SoftFixture fixture = new SoftFixture();

    @AfterEach
    void close()
    {
        fixture.close();
    }

    @Test
    void largeSendAndWriteAndReadSpanManyFrames()
    {
        final int size = 1 << 20;
        final QueuePair a = fixture.qp(QpType.RC, 8);
        final QueuePair b = fixture.qp(QpType.RC, 8);
        fixture.pair(a, b, 7);
        final MemoryRegion src = fixture.register(size);
        final MemoryRegion dst = fixture.register(size);
        for (int i = 0; i < size; i++)
        {
            src.buffer().put(i, (byte)(i * 31));
        }
        final ReceiveWorkRequest recv = new ReceiveWorkRequest().wrId(1);
        recv.sge(0).set(dst, 0, size);
        b.postRecv(recv);
        final SendWorkRequest send = new SendWorkRequest().wrId(2).opcode(SendOpcode.SEND_WITH_IMM).immData(77)
            .sendFlags(SendFlags.SIGNALED);
        send.sge(0).set(src, 0, size);
        a.postSend(send);
        final WorkCompletion rwc = SoftFixture.await(b.recvCq());
        assertEquals(WcStatus.SUCCESS, rwc.status());
        assertEquals(size, rwc.byteLen());
        assertEquals(77, rwc.immData());
        assertEquals(WcFlags.WITH_IMM, rwc.wcFlags() & WcFlags.WITH_IMM);
        assertEquals(WcStatus.SUCCESS, SoftFixture.await(a.sendCq()).status());
        assertEquals(src.buffer(), dst.buffer());

        for (int i = 0; i < size; i++)
        {
            dst.buffer().put(i, (byte)0);
        }
        final SendWorkRequest read = new SendWorkRequest().wrId(3).opcode(SendOpcode.RDMA_READ)
            .sendFlags(SendFlags.SIGNALED).remote(src.address(), src.rkey());
        read.sge(0).set(dst, 0, size);
        a.postSend(read);
        final WorkCompletion readWc = SoftFixture.await(a.sendCq());
        assertEquals(WcStatus.SUCCESS, readWc.status());
        assertEquals(WcOpcode.RDMA_READ, readWc.opcode());
        assertEquals(src.buffer(), dst.buffer());
    }

    @Test
    void rnrNakIsRetriedUntilAReceiveIsPosted()
    {
        final QueuePair a = fixture.qp(QpType.RC, 4);
        final QueuePair b = fixture.qp(QpType.RC, 4);
        fixture.pair(a, b, 7);
        final MemoryRegion mr = fixture.register(64);
        final SendWorkRequest send = new SendWorkRequest().wrId(5).sendFlags(SendFlags.SIGNALED);
        send.sge(0).set(mr, 0, 8);
        a.postSend(send);
        final long until = System.nanoTime() + 20_000_000L;
        final WorkCompletion[] wcs = {new WorkCompletion()};
        while (System.nanoTime() < until)
        {
            assertEquals(0, a.sendCq().poll(wcs));
            assertEquals(0, b.recvCq().poll(wcs));
        }
        final ReceiveWorkRequest recv = new ReceiveWorkRequest().wrId(6);
        recv.sge(0).set(mr, 32, 32);
        b.postRecv(recv);
        assertEquals(WcStatus.SUCCESS, SoftFixture.await(b.recvCq()).status());
        assertEquals(WcStatus.SUCCESS, SoftFixture.await(a.sendCq()).status());
    }

    @Test
    void udReceiveStartsWithTheGrhNamingTheSender()
    {
        final QueuePair a = fixture.qp(QpType.UD, 4);
        final QueuePair b = fixture.qp(QpType.UD, 4);
        SoftFixture.connect(a, null, 0, 0);
        SoftFixture.connect(b, null, 0, 0);
        final MemoryRegion mr = fixture.register(4096);
        mr.buffer().put(0, (byte)42);
        final ReceiveWorkRequest recv = new ReceiveWorkRequest().wrId(7);
        recv.sge(0).set(mr, 1024, 1024);
        b.postRecv(recv);
        final SendWorkRequest send = new SendWorkRequest().wrId(8).sendFlags(SendFlags.SIGNALED)
            .ud(fixture.pd.createAh(fixture.address()), b.qpNum(), SoftFixture.QKEY);
        send.sge(0).set(mr, 0, 100);
        a.postSend(send);
        assertEquals(WcStatus.SUCCESS, SoftFixture.await(a.sendCq()).status());
        final WorkCompletion wc = SoftFixture.await(b.recvCq());
        assertEquals(WcStatus.SUCCESS, wc.status());
        assertEquals(140, wc.byteLen());
        assertEquals(a.qpNum(), wc.srcQp());
        assertEquals(WcFlags.GRH, wc.wcFlags() & WcFlags.GRH);
        assertEquals(42, mr.buffer().get(1024 + 40));
        for (int i = 0; i < 16; i++)
        {
            assertEquals(fixture.address().dgid().byteAt(i), mr.buffer().get(1024 + 8 + i), "GRH sgid byte " + i);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void aReceiverThatStopsRightAfterItsReceiveCompletedHasAcknowledgedTheSend(final boolean errorFirst)
    {
        // An HCA acknowledges as it executes; soft delays a lone ACK to piggyback it, so a QP that stops
        // driving its link (ERR, destroy) must still send the ACK it owes, or the peer's SEND fails. Whether the
        // ACK is still owed at that moment is a matter of microseconds: several rounds make it likely.
        final MemoryRegion mr = fixture.register(64);
        for (int round = 0; round < 20; round++)
        {
            final QueuePair a = fixture.qp(QpType.RC, 4);
            final QueuePair b = fixture.qp(QpType.RC, 4);
            fixture.pair(a, b, 7);
            sendIntoAPostedReceive(a, b, mr);

            assertEquals(WcStatus.SUCCESS, SoftFixture.await(b.recvCq()).status());
            if (errorFirst)
            {
                b.modify(QpAttr.to(QpState.ERR)); // as rdma_disconnect does before the id is destroyed
            }
            b.close();

            final WorkCompletion sent = SoftFixture.await(a.sendCq());
            assertEquals(WcStatus.SUCCESS, sent.status(), "round " + round + ": " + sent);
            assertEquals(WcOpcode.SEND, sent.opcode());
            a.close();
        }
    }

    @Test
    void aPeerThatReconnectsAfterAResetIsNotMistakenForItsClosedLink()
    {
        // The lower QP opens the link at RTR; its HELLO waits at the other QP until that one reaches RTR. If the
        // opener is reset and reconnects first, the waiting QP must take the new link, not the closed one
        // (which would send it to ERR and refuse the new link). Whether the old HELLO or the new one arrives
        // first is a matter of microseconds: several rounds make both orders likely.
        final MemoryRegion mr = fixture.register(64);
        for (int round = 0; round < 50; round++)
        {
            final QueuePair a = fixture.qp(QpType.RC, 4);
            final QueuePair b = fixture.qp(QpType.RC, 4);
            SoftFixture.connect(a, fixture.address(), b.qpNum(), 7);
            a.modify(QpAttr.to(QpState.ERR));
            a.modify(QpAttr.to(QpState.RESET));
            fixture.pair(a, b, 7);
            sendIntoAPostedReceive(a, b, mr);

            final WorkCompletion sent = SoftFixture.await(a.sendCq());
            assertEquals(WcStatus.SUCCESS, sent.status(), "round " + round + ": " + sent);
            assertEquals(WcStatus.SUCCESS, SoftFixture.await(b.recvCq()).status(), "round " + round);
            a.close();
            b.close();
        }
    }

    @Test
    void aPeerDestroyedCleanlyIsNoWarning()
    {
        // A destroyed QP says goodbye, so its peer tells it from a process that died (both close the connection):
        // the peer's QP still enters ERR, but without a warning. A message first, so the link is up: a QP destroyed
        // while its link is still being set up goes unnoticed, as on an HCA, until a request times out.
        final MemoryRegion mr = fixture.register(64);
        final QueuePair leaving = fixture.qp(QpType.RC, 4);
        final QueuePair staying = fixture.qp(QpType.RC, 4);
        fixture.pair(leaving, staying, 7);
        sendIntoAPostedReceive(leaving, staying, mr);
        assertEquals(WcStatus.SUCCESS, SoftFixture.await(leaving.sendCq()).status());
        assertEquals(WcStatus.SUCCESS, SoftFixture.await(staying.recvCq()).status());
        final ReceiveWorkRequest recv = new ReceiveWorkRequest().wrId(3);
        recv.sge(0).set(mr, 32, 32);
        staying.postRecv(recv);
        final String aboutLeaving = "QP 0x" + Integer.toHexString(leaving.qpNum()) + " at ";
        try (LogCapture log = new LogCapture())
        {
            leaving.close();
            assertEquals(WcStatus.WR_FLUSH_ERR, SoftFixture.await(staying.recvCq()).status(),
                "the staying QP's second receive, flushed as it enters ERR");
            assertEquals(QpState.ERR, staying.state());
            assertFalse(log.text().contains(aboutLeaving), "nothing logged at WARN about it: " + log.text());
        }
    }

    /** Posts a receive (wr_id 1) on {@code b}, then a signaled 16-byte SEND (wr_id 2) on {@code a}. */
    private static void sendIntoAPostedReceive(final QueuePair a, final QueuePair b, final MemoryRegion mr)
    {
        final ReceiveWorkRequest recv = new ReceiveWorkRequest().wrId(1);
        recv.sge(0).set(mr, 32, 32);
        b.postRecv(recv);
        final SendWorkRequest send = new SendWorkRequest().wrId(2).sendFlags(SendFlags.SIGNALED);
        send.sge(0).set(mr, 0, 16);
        a.postSend(send);
    }
}
