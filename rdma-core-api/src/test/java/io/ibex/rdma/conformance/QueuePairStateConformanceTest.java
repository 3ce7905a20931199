package io.ibex.rdma.conformance;

import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpCapabilities;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.VerbsException;
import io.ibex.rdma.verbs.WcOpcode;
import io.ibex.rdma.verbs.WcStatus;
import io.ibex.rdma.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.function.Function;
import java.util.stream.Stream;

import static io.ibex.rdma.conformance.Await.assertStatus;
import static io.ibex.rdma.conformance.Await.assertSuccess;
import static io.ibex.rdma.conformance.Await.completion;
import static io.ibex.rdma.conformance.Await.completions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ibv_create_qp capabilities and the ibv_modify_qp state machine: legal transitions, illegal transitions and
 * missing or disallowed attributes (EINVAL, as the kernel's ib_modify_qp_is_ok decides), and the flush on
 * ERR.
 */
class QueuePairStateConformanceTest extends LoopbackTest
{
    private static final int SIZE = 256;
    private static final int SOME_QPN = 0x123;
    private static final int SOME_PSN = 0x4567;

    @ParameterizedTest(name = "{0}")
    @EnumSource(QpType.class)
    void createdQpStartsInResetWithAtLeastTheRequestedCapabilities(final QpType type)
    {
        final QueuePair qp = loopback.qp(type);
        assertEquals(QpState.RESET, qp.state());
        assertEquals(type, qp.type());
        assertSame(loopback.pd(), qp.pd());
        assertTrue(qp.qpNum() > 1, "QP numbers 0 and 1 are the special QPs, got " + qp.qpNum());
        final QpCapabilities got = qp.capabilities();
        final QpCapabilities asked = Loopback.CAPS;
        assertTrue(got.maxSendWr() >= asked.maxSendWr(), "max_send_wr " + got);
        assertTrue(got.maxRecvWr() >= asked.maxRecvWr(), "max_recv_wr " + got);
        assertTrue(got.maxSendSge() >= asked.maxSendSge(), "max_send_sge " + got);
        assertTrue(got.maxRecvSge() >= asked.maxRecvSge(), "max_recv_sge " + got);
        assertTrue(got.maxInlineData() >= asked.maxInlineData(), "max_inline_data " + got);
    }

    @Test
    void everyQpHasItsOwnNumber()
    {
        final QueuePair first = loopback.qp(QpType.RC);
        final QueuePair second = loopback.qp(QpType.RC);
        assertTrue(first.qpNum() != second.qpNum(), "two QPs numbered " + first.qpNum());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(QpType.class)
    void legalTransitionsReachRts(final QpType type)
    {
        final QueuePair qp = loopback.qp(type);
        final QueuePair peer = loopback.qp(type);
        qp.modify(Loopback.init(type));
        assertEquals(QpState.INIT, qp.state());
        qp.modify(initToInit(type));
        assertEquals(QpState.INIT, qp.state());
        qp.modify(loopback.rtr(type, peer));
        assertEquals(QpState.RTR, qp.state());
        qp.modify(Loopback.rts(type, qp));
        assertEquals(QpState.RTS, qp.state());
        qp.modify(QpAttr.to(QpState.RTS));
        assertEquals(QpState.RTS, qp.state());
    }

    @Test
    void queryReportsWhatTheTransitionsSet()
    {
        final QueuePair qp = loopback.qp(QpType.RC);
        final QueuePair peer = loopback.qp(QpType.RC);
        final QpAttr rtr = loopback.rtr(QpType.RC, peer);
        final QpAttr rts = Loopback.rts(QpType.RC, qp);
        loopback.connect(qp, peer);

        final QpAttr got = qp.query();
        assertEquals(QpState.RTS, got.state());
        assertEquals(Loopback.QP_ACCESS, got.accessFlags());
        assertEquals(peer.qpNum(), got.destQpNum());
        assertEquals(rtr.minRnrTimer(), got.minRnrTimer());
        assertEquals(rts.timeout(), got.timeout());
        assertEquals(rts.retryCnt(), got.retryCnt());
        assertEquals(rts.rnrRetry(), got.rnrRetry());

        qp.modify(QpAttr.to(QpState.RTS).minRnrTimer(1));
        assertEquals(1, qp.query().minRnrTimer(), "RTS to RTS may change the RNR NAK timer");
        qp.modify(QpAttr.to(QpState.ERR));
        assertEquals(QpState.ERR, qp.query().state());
    }

    @Test
    void rnrRetryChangesOnlyThroughSqdOnceConnected()
    {
        final QueuePair qp = loopback.qp(QpType.RC);
        final QueuePair peer = loopback.qp(QpType.RC);
        loopback.connect(qp, peer);
        final VerbsException ex = assertThrows(VerbsException.class,
            () -> qp.modify(QpAttr.to(QpState.RTS).rnrRetry(3)));
        assertEquals(VerbsException.EINVAL, ex.errno(), "RTS to RTS cannot change rnr_retry: " + ex.getMessage());

        qp.modify(QpAttr.to(QpState.SQD));
        assertEquals(QpState.SQD, qp.query().state());
        assertThrows(VerbsException.class, () -> qp.modify(QpAttr.to(QpState.RTS).rnrRetry(3)),
            "SQD to RTS cannot change rnr_retry either");
        Await.until(() -> modifies(qp, QpAttr.to(QpState.SQD).rnrRetry(3)),
            "SQD to SQD to take rnr_retry once the send queue drained");
        qp.modify(QpAttr.to(QpState.RTS));
        final QpAttr got = qp.query();
        assertEquals(QpState.RTS, got.state());
        assertEquals(3, got.rnrRetry());
    }

    private static boolean modifies(final QueuePair qp, final QpAttr attr)
    {
        try
        {
            qp.modify(attr);
            return true;
        }
        catch (final VerbsException ex)
        {
            return false;
        }
    }

    @Test
    void queryOfAUdQpReportsItsQkey()
    {
        final QueuePair qp = loopback.qp(QpType.UD);
        qp.modify(Loopback.init(QpType.UD));
        final QpAttr got = qp.query();
        assertEquals(QpState.INIT, got.state());
        assertEquals(Loopback.QKEY, got.qkey());
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"RESET,RTR", "RESET,RTS", "RESET,ERR", "INIT,RTS", "RTR,INIT", "RTS,RTR", "RTS,INIT", "ERR,INIT",
        "ERR,RTS"})
    void illegalTransitionIsEinvalAndKeepsTheState(final QpState from, final QpState to)
    {
        final QueuePair qp = loopback.qp(QpType.RC);
        final QueuePair peer = loopback.qp(QpType.RC);
        moveTo(qp, peer, from);
        final QpAttr attr = switch (to)
        {
            case ERR -> QpAttr.to(QpState.ERR);
            case INIT -> Loopback.init(QpType.RC);
            case RTR -> loopback.rtr(QpType.RC, peer);
            default -> Loopback.rts(QpType.RC, qp);
        };

        final VerbsException ex = assertThrows(VerbsException.class, () -> qp.modify(attr));
        assertEquals(VerbsException.EINVAL, ex.errno(), ex.getMessage());
        assertEquals(from, qp.state());
    }

    static Stream<Arguments> incompleteModifies()
    {
        final Function<Loopback, QpAttr> rcInitNoAccess =
            (l) -> new QpAttr().state(QpState.INIT).pkeyIndex(0).portNum(Loopback.PORT);
        final Function<Loopback, QpAttr> rcInitNoPort =
            (l) -> new QpAttr().state(QpState.INIT).pkeyIndex(0).accessFlags(Loopback.QP_ACCESS);
        final Function<Loopback, QpAttr> rcInitWithQkey =
            (l) -> Loopback.init(QpType.RC).qkey(Loopback.QKEY);
        final Function<Loopback, QpAttr> rcRtrNoDestQpn =
            (l) -> new QpAttr().state(QpState.RTR).ahAttr(l.address()).rqPsn(SOME_PSN).pathMtu(l.mtu())
                .maxDestRdAtomic(1).minRnrTimer(12);
        final Function<Loopback, QpAttr> rcRtrNoAddress =
            (l) -> new QpAttr().state(QpState.RTR).destQpNum(SOME_QPN).rqPsn(SOME_PSN).pathMtu(l.mtu())
                .maxDestRdAtomic(1).minRnrTimer(12);
        final Function<Loopback, QpAttr> rcRtsNoSqPsn =
            (l) -> new QpAttr().state(QpState.RTS).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(1);
        final Function<Loopback, QpAttr> udInitNoQkey =
            (l) -> new QpAttr().state(QpState.INIT).pkeyIndex(0).portNum(Loopback.PORT);
        final Function<Loopback, QpAttr> udRtsNoSqPsn = (l) -> QpAttr.to(QpState.RTS);
        return Stream.of(
            Arguments.of("RC INIT without access flags", QpType.RC, QpState.RESET, rcInitNoAccess),
            Arguments.of("RC INIT without port", QpType.RC, QpState.RESET, rcInitNoPort),
            Arguments.of("RC INIT with a Q_Key", QpType.RC, QpState.RESET, rcInitWithQkey),
            Arguments.of("RC RTR without dest QPN", QpType.RC, QpState.INIT, rcRtrNoDestQpn),
            Arguments.of("RC RTR without address", QpType.RC, QpState.INIT, rcRtrNoAddress),
            Arguments.of("RC RTS without sq PSN", QpType.RC, QpState.RTR, rcRtsNoSqPsn),
            Arguments.of("UD INIT without Q_Key", QpType.UD, QpState.RESET, udInitNoQkey),
            Arguments.of("UD RTS without sq PSN", QpType.UD, QpState.RTR, udRtsNoSqPsn));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("incompleteModifies")
    void missingOrDisallowedAttributeIsEinval(
        final String description,
        final QpType type,
        final QpState from,
        final Function<Loopback, QpAttr> attr)
    {
        final QueuePair qp = loopback.qp(type);
        final QueuePair peer = loopback.qp(type);
        moveTo(qp, peer, from);

        final VerbsException ex = assertThrows(VerbsException.class, () -> qp.modify(attr.apply(loopback)));
        assertEquals(VerbsException.EINVAL, ex.errno(), ex.getMessage());
        assertEquals(from, qp.state());
    }

    @Test
    void modifyToErrFlushesOutstandingRequestsInOrder()
    {
        final Loopback.QpPair pair = loopback.pair(QpType.RC);
        final QueuePair qp = pair.a();
        final RegisteredBuffer buffer = loopback.register(SIZE, AccessFlags.LOCAL_WRITE);
        for (int i = 0; i < 3; i++)
        {
            qp.postRecv(buffer.recv(10 + i, 0, SIZE));
        }
        // The peer has no receive and rnr_retry is 7 (forever): both sends stay outstanding.
        qp.postSend(buffer.send(20, 0, 8));
        qp.postSend(buffer.send(21, 0, 8));

        qp.modify(QpAttr.to(QpState.ERR));

        assertEquals(QpState.ERR, qp.state());
        final WorkCompletion[] sends = completions(qp.sendCq(), 2);
        final WorkCompletion[] recvs = completions(qp.recvCq(), 3);
        for (int i = 0; i < 2; i++)
        {
            assertStatus(sends[i], 20 + i, WcStatus.WR_FLUSH_ERR);
            assertEquals(qp.qpNum(), sends[i].qpNum());
        }
        for (int i = 0; i < 3; i++)
        {
            assertStatus(recvs[i], 10 + i, WcStatus.WR_FLUSH_ERR);
            assertEquals(qp.qpNum(), recvs[i].qpNum());
        }
    }

    @Test
    void resetAfterErrMakesTheQpUsableAgain()
    {
        final Loopback.QpPair pair = loopback.pair(QpType.RC);
        for (final QueuePair qp : new QueuePair[]{pair.a(), pair.b()})
        {
            qp.modify(QpAttr.to(QpState.ERR));
            qp.modify(QpAttr.to(QpState.RESET));
            assertEquals(QpState.RESET, qp.state());
        }
        loopback.connect(pair.a(), pair.b());
        loopback.connect(pair.b(), pair.a());
        final RegisteredBuffer buffer = loopback.register(SIZE, AccessFlags.LOCAL_WRITE);
        pair.b().postRecv(buffer.recv(1, 64, 64));

        pair.a().postSend(buffer.pattern(0, 16, 3).send(2, 0, 16));

        assertSuccess(completion(pair.a().sendCq()), 2, WcOpcode.SEND);
        assertSuccess(completion(pair.b().recvCq()), 1, WcOpcode.RECV);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = QpState.class, names = {"INIT", "RTR", "RTS"})
    void anyStateMayMoveToErrAndReset(final QpState from)
    {
        final QueuePair qp = loopback.qp(QpType.RC);
        moveTo(qp, loopback.qp(QpType.RC), from);
        qp.modify(QpAttr.to(QpState.ERR));
        assertEquals(QpState.ERR, qp.state());
        qp.modify(QpAttr.to(QpState.RESET));
        assertEquals(QpState.RESET, qp.state());
    }

    private static QpAttr initToInit(final QpType type)
    {
        // INIT to INIT may change the access flags (RC, UC) or the Q_Key (UD).
        return type == QpType.UD ? QpAttr.to(QpState.INIT).qkey(Loopback.QKEY) :
            QpAttr.to(QpState.INIT).accessFlags(AccessFlags.REMOTE_WRITE);
    }

    private void moveTo(final QueuePair qp, final QueuePair peer, final QpState state)
    {
        if (state == QpState.ERR)
        {
            // The IB spec lets any state go to ERR, but the kernel's table (ib_modify_qp_is_ok) lets RESET go
            // only to RESET or INIT, and rxe refuses RESET -> ERR with EINVAL; soft follows the kernel.
            qp.modify(Loopback.init(qp.type()));
            qp.modify(QpAttr.to(QpState.ERR));
            return;
        }
        if (state.value() >= QpState.INIT.value())
        {
            qp.modify(Loopback.init(qp.type()));
        }
        if (state.value() >= QpState.RTR.value())
        {
            qp.modify(loopback.rtr(qp.type(), peer));
        }
        if (state.value() >= QpState.RTS.value())
        {
            qp.modify(Loopback.rts(qp.type(), qp));
        }
    }
}
