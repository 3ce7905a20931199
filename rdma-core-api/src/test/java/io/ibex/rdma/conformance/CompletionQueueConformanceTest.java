package io.ibex.rdma.conformance;

import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.AsyncEvent;
import io.ibex.rdma.verbs.AsyncEventType;
import io.ibex.rdma.verbs.CompletionChannel;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.QpCapabilities;
import io.ibex.rdma.verbs.QpInitAttr;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.WcOpcode;
import io.ibex.rdma.verbs.WcStatus;
import io.ibex.rdma.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;


import static io.ibex.rdma.conformance.Await.assertSuccess;
import static io.ibex.rdma.conformance.Await.completion;
import static io.ibex.rdma.conformance.Await.completions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * ibv_create_cq, ibv_poll_cq, CQ overrun, and completion channels (ibv_req_notify_cq, ibv_get_cq_event).
 */
class CompletionQueueConformanceTest extends LoopbackTest
{
    private static final int SIZE = 256;
    private static final long QUIET_MILLIS = 200;

    @Test
    void cqHasAtLeastTheRequestedEntries()
    {
        final CompletionQueue cq = loopback.cq(5);
        assertTrue(cq.cqe() >= 5, "cqe " + cq.cqe());
        assertSame(loopback.context(), cq.context());
        assertNull(cq.channel());
    }

    @Test
    void pollOfAnEmptyCqReturnsZero()
    {
        final CompletionQueue cq = loopback.cq(4);
        final WorkCompletion[] wcs = {new WorkCompletion(), new WorkCompletion()};
        assertEquals(0, cq.poll(wcs));
        assertEquals(0, cq.poll(wcs, 1));
    }

    @Test
    void pollFillsTheCallersObjectsAndTakesAtMostMax()
    {
        final Loopback.QpPair pair = loopback.pair(QpType.RC);
        final RegisteredBuffer buffer = loopback.register(SIZE, AccessFlags.LOCAL_WRITE);
        for (int i = 0; i < 3; i++)
        {
            pair.b().postRecv(buffer.recv(100 + i, 0, SIZE));
        }
        for (int i = 0; i < 3; i++)
        {
            pair.a().postSend(buffer.send(i, 0, 8));
        }

        final WorkCompletion[] wcs = {new WorkCompletion(), new WorkCompletion(), new WorkCompletion()};
        final WorkCompletion untouched = wcs[2].set(-1, WcStatus.GENERAL_ERR, WcOpcode.SEND, 0, 0, 0, 0, 0, 0, 0);
        final long[] wrIds = new long[3];
        final int[] received = {0};
        Await.until(() ->
        {
            final int n = pair.a().sendCq().poll(wcs, 2);
            assertTrue(n <= 2, "poll(wcs, 2) returned " + n);
            for (int i = 0; i < n; i++)
            {
                assertEquals(WcStatus.SUCCESS, wcs[i].status());
                wrIds[received[0]++] = wcs[i].wrId();
            }
            return received[0] == 3;
        }, "3 send completions");

        assertSame(untouched, wcs[2]);
        assertEquals(-1, wcs[2].wrId(), "poll wrote beyond max");
        assertEquals(0, wrIds[0]);
        assertEquals(1, wrIds[1]);
        assertEquals(2, wrIds[2]);
        assertEquals(0, pair.a().sendCq().poll(wcs));
    }

    @Test
    void overrunRaisesCqErrAndMovesTheQpToErr()
    {
        final CompletionQueue smallCq = loopback.cq(2);
        final int overrun = smallCq.cqe() + 1;
        final QueuePair requester = loopback.qp(QpType.RC, new QpCapabilities(overrun + 1, 1, 1, 1, 0), false);
        final QpCapabilities cap = new QpCapabilities(1, overrun + 1, 1, 1, 0);
        final QueuePair responder =
            loopback.qp(new QpInitAttr(QpType.RC, loopback.cq(Loopback.DEPTH), smallCq, cap, false));
        loopback.connect(requester, responder);
        loopback.connect(responder, requester);
        final RegisteredBuffer buffer = loopback.register(SIZE, AccessFlags.LOCAL_WRITE);
        for (int i = 0; i < overrun; i++)
        {
            responder.postRecv(buffer.recv(i, 0, SIZE));
        }

        for (int i = 0; i < overrun; i++)
        {
            final SendWorkRequest send = buffer.send(i, 0, 8).sendFlags(0);
            requester.postSend(send);
        }

        final AsyncEvent event = Await.asyncEvent(loopback.context(), AsyncEventType.CQ_ERR);
        assertSame(smallCq, event.cq());
        Await.until(() -> responder.state() == QpState.ERR, "responder QP in ERR after its CQ overran");
    }

    @Test
    void armedCqRaisesOneEventOnTheChannel()
    {
        final CompletionChannel channel = loopback.track(loopback.context().createCompChannel());
        final CompletionQueue cq = loopback.track(loopback.context().createCq(Loopback.DEPTH * 2, channel, 0));
        assertSame(channel, cq.channel());
        assertSame(loopback.context(), channel.context());
        final QueuePair requester = loopback.qp(QpType.RC);
        final QueuePair responder =
            loopback.qp(new QpInitAttr(QpType.RC, loopback.cq(Loopback.DEPTH), cq, Loopback.CAPS, false));
        loopback.connect(requester, responder);
        loopback.connect(responder, requester);
        final RegisteredBuffer buffer = loopback.register(SIZE, AccessFlags.LOCAL_WRITE);
        responder.postRecv(buffer.recv(1, 0, SIZE));
        responder.postRecv(buffer.recv(2, 0, SIZE));

        cq.requestNotify(false);
        assertNull(channel.getEvent(0), "event before any completion");
        requester.postSend(buffer.send(1, 0, 8));
        assertSame(cq, channel.getEvent(Loopback.WAIT_MILLIS), "no completion event after requestNotify");
        assertSuccess(completion(cq), 1, WcOpcode.RECV);

        requester.postSend(buffer.send(2, 0, 8));
        assertSuccess(completion(cq), 2, WcOpcode.RECV);
        assertNull(channel.getEvent(QUIET_MILLIS), "event without re-arming the CQ");
    }

    @Test
    void solicitedOnlyArmIgnoresUnsolicitedCompletions()
    {
        final CompletionChannel channel = loopback.track(loopback.context().createCompChannel());
        final CompletionQueue cq = loopback.track(loopback.context().createCq(Loopback.DEPTH * 2, channel, 0));
        final QueuePair requester = loopback.qp(QpType.RC);
        final QueuePair responder =
            loopback.qp(new QpInitAttr(QpType.RC, loopback.cq(Loopback.DEPTH), cq, Loopback.CAPS, false));
        loopback.connect(requester, responder);
        loopback.connect(responder, requester);
        final RegisteredBuffer buffer = loopback.register(SIZE, AccessFlags.LOCAL_WRITE);
        responder.postRecv(buffer.recv(1, 0, SIZE));
        responder.postRecv(buffer.recv(2, 0, SIZE));

        cq.requestNotify(true);
        requester.postSend(buffer.send(1, 0, 8));
        assertSuccess(completion(cq), 1, WcOpcode.RECV);
        assertNull(channel.getEvent(QUIET_MILLIS), "event for an unsolicited completion");

        requester.postSend(buffer.send(2, 0, 8).sendFlags(SendFlags.SIGNALED | SendFlags.SOLICITED));
        final CompletionQueue signalled = channel.getEvent(Loopback.WAIT_MILLIS);
        if (signalled == null)
        {
            fail("no event for a solicited completion");
        }
        assertSame(cq, signalled);
        assertSuccess(completion(cq), 2, WcOpcode.RECV);
        assertEquals(2, completions(requester.sendCq(), 2).length);
    }
}
