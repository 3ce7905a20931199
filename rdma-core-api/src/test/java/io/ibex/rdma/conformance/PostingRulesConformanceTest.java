package io.ibex.rdma.conformance;

import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.PostException;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpCapabilities;
import io.ibex.rdma.verbs.QpInitAttr;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.VerbsException;
import io.ibex.rdma.verbs.WcOpcode;
import io.ibex.rdma.verbs.WcStatus;
import io.ibex.rdma.verbs.WorkCompletion;
import org.agrona.BufferUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.ByteBuffer;


import static io.ibex.rdma.conformance.Await.assertStatus;
import static io.ibex.rdma.conformance.Await.assertSuccess;
import static io.ibex.rdma.conformance.Await.completion;
import static io.ibex.rdma.conformance.Await.completions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The ibv_post_send / ibv_post_recv rules: what a post refuses (with the errno and the index of the first
 * request not posted) and that the requests before it were posted.
 */
class PostingRulesConformanceTest extends LoopbackTest
{
    private static final int SIZE = 1024;
    private static final int BIG_CQ = 256;

    @Test
    void postRecvInResetIsEinval()
    {
        final QueuePair qp = loopback.qp(QpType.RC);
        final RegisteredBuffer buffer = loopback.register(SIZE, AccessFlags.LOCAL_WRITE);

        // IB spec C10-97.2.1; rxe checks it in user space.
        assertPostFails(VerbsException.EINVAL, 0, () -> qp.postRecv(buffer.recv(1, 0, SIZE)));
    }

    @Test
    void postRecvInInitIsAllowed()
    {
        final QueuePair qp = loopback.qp(QpType.RC);
        qp.modify(Loopback.init(QpType.RC));
        final RegisteredBuffer buffer = loopback.register(SIZE, AccessFlags.LOCAL_WRITE);

        qp.postRecv(buffer.recv(1, 0, SIZE));
        qp.modify(QpAttr.to(QpState.ERR));

        assertStatus(completion(qp.recvCq()), 1, WcStatus.WR_FLUSH_ERR);
    }

    @ParameterizedTest(name = "in {0}")
    @EnumSource(value = QpState.class, names = {"RESET", "INIT", "RTR"})
    void postSendBeforeRtsIsEinval(final QpState state)
    {
        final QueuePair qp = loopback.qp(QpType.RC);
        final QueuePair peer = loopback.qp(QpType.RC);
        if (state != QpState.RESET)
        {
            qp.modify(Loopback.init(QpType.RC));
        }
        if (state == QpState.RTR)
        {
            qp.modify(loopback.rtr(QpType.RC, peer));
        }
        final RegisteredBuffer buffer = loopback.register(SIZE, AccessFlags.LOCAL_WRITE);

        // rxe: the kernel's post_send refuses a QP below RTS with EINVAL.
        assertPostFails(VerbsException.EINVAL, 0, () -> qp.postSend(buffer.send(1, 0, 8)));
        assertEquals(state, qp.state());
    }

    @Test
    void fullReceiveQueueIsEnomemAtTheFirstRequestThatDoesNotFit()
    {
        final QueuePair qp = qpWithBigCqs(new QpCapabilities(4, 4, 1, 1, 0));
        qp.modify(Loopback.init(QpType.RC));
        final int depth = qp.capabilities().maxRecvWr();
        final RegisteredBuffer buffer = loopback.register(SIZE, AccessFlags.LOCAL_WRITE);
        final ReceiveWorkRequest first = buffer.recv(0, 0, 16);
        ReceiveWorkRequest last = first;
        for (int i = 1; i <= depth; i++)
        {
            final ReceiveWorkRequest wr = buffer.recv(i, 0, 16);
            last.next(wr);
            last = wr;
        }

        assertPostFails(VerbsException.ENOMEM, depth, () -> qp.postRecv(first));

        qp.modify(QpAttr.to(QpState.ERR));
        final WorkCompletion[] flushed = completions(qp.recvCq(), depth);
        for (int i = 0; i < depth; i++)
        {
            assertStatus(flushed[i], i, WcStatus.WR_FLUSH_ERR);
        }
        Await.noCompletion(qp.recvCq(), 100);
    }

    @Test
    void fullSendQueueIsEnomemAtTheFirstRequestThatDoesNotFit()
    {
        final QueuePair qp = qpWithBigCqs(new QpCapabilities(4, 4, 1, 1, 0));
        final QueuePair peer = loopback.qp(QpType.RC);
        loopback.connect(qp, peer);
        loopback.connect(peer, qp);
        final int depth = qp.capabilities().maxSendWr();
        final RegisteredBuffer buffer = loopback.register(SIZE, AccessFlags.LOCAL_WRITE);
        // The peer posts no receive and rnr_retry is 7 (forever): nothing completes, no slot frees.
        final SendWorkRequest first = buffer.send(0, 0, 8);
        SendWorkRequest last = first;
        for (int i = 1; i <= depth; i++)
        {
            final SendWorkRequest wr = buffer.send(i, 0, 8);
            last.next(wr);
            last = wr;
        }

        assertPostFails(VerbsException.ENOMEM, depth, () -> qp.postSend(first));

        qp.modify(QpAttr.to(QpState.ERR));
        final WorkCompletion[] flushed = completions(qp.sendCq(), depth);
        for (int i = 0; i < depth; i++)
        {
            assertStatus(flushed[i], i, WcStatus.WR_FLUSH_ERR);
        }
    }

    @Test
    void tooManySendSgesIsEinvalAndTheRequestsBeforeArePosted()
    {
        final Loopback.QpPair pair = loopback.pair(QpType.RC);
        final int maxSge = pair.a().capabilities().maxSendSge();
        final RegisteredBuffer buffer = loopback.register(SIZE, AccessFlags.LOCAL_WRITE);
        pair.b().postRecv(buffer.recv(1, 512, 512));
        final SendWorkRequest tooMany = new SendWorkRequest(maxSge + 1).wrId(2).sendFlags(SendFlags.SIGNALED)
            .numSge(maxSge + 1);
        for (int i = 0; i <= maxSge; i++)
        {
            tooMany.sge(i).set(buffer.mr(), i, 1);
        }
        final SendWorkRequest good = buffer.send(1, 0, 8).next(tooMany);

        assertPostFails(VerbsException.EINVAL, 1, () -> pair.a().postSend(good));

        assertSuccess(completion(pair.a().sendCq()), 1, WcOpcode.SEND);
        assertSuccess(completion(pair.b().recvCq()), 1, WcOpcode.RECV);
    }

    @Test
    void tooManyRecvSgesIsEinval()
    {
        final QueuePair qp = loopback.qp(QpType.RC);
        qp.modify(Loopback.init(QpType.RC));
        final int maxSge = qp.capabilities().maxRecvSge();
        final RegisteredBuffer buffer = loopback.register(SIZE, AccessFlags.LOCAL_WRITE);
        final ReceiveWorkRequest tooMany = new ReceiveWorkRequest(maxSge + 1).wrId(1).numSge(maxSge + 1);
        for (int i = 0; i <= maxSge; i++)
        {
            tooMany.sge(i).set(buffer.mr(), i * 8L, 8);
        }

        assertPostFails(VerbsException.EINVAL, 0, () -> qp.postRecv(tooMany));
    }

    @Test
    void inlineDataLongerThanTheQpAllowsIsEinval()
    {
        final Loopback.QpPair pair = loopback.pair(QpType.RC);
        final int maxInline = pair.a().capabilities().maxInlineData();
        final RegisteredBuffer buffer = loopback.register(maxInline + SIZE, AccessFlags.LOCAL_WRITE);
        final SendWorkRequest wr = buffer.send(1, 0, maxInline + 1)
            .sendFlags(SendFlags.SIGNALED | SendFlags.INLINE);

        assertPostFails(VerbsException.EINVAL, 0, () -> pair.a().postSend(wr));
    }

    /**
     * Inline data is copied from the entry's address with no key check (by rxe's user-space provider too): an entry
     * outside the region its lkey names would crash the JVM at an unmapped address, or send whatever lies there, so
     * the post refuses it. A request whose entries are all inside their regions, before it in the list, is posted.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"unregistered memory with lkey 0", "an address no memory is at", "beyond the end of its region",
        "a negative length", "a deregistered region", "a region of another PD"})
    void inlineDataOutsideItsRegionIsEinval(final String where)
    {
        final Loopback.QpPair pair = loopback.pair(QpType.RC);
        final RegisteredBuffer buffer = loopback.register(SIZE, AccessFlags.LOCAL_WRITE);
        final RegisteredBuffer remote = loopback.register(SIZE, AccessFlags.LOCAL_WRITE);
        pair.b().postRecv(remote.recv(1, 0, SIZE));
        final SendWorkRequest good = buffer.send(1, 0, 8).sendFlags(SendFlags.SIGNALED | SendFlags.INLINE);
        final SendWorkRequest bad = buffer.send(2, 0, 8).sendFlags(SendFlags.SIGNALED | SendFlags.INLINE);
        final MemoryRegion mr = buffer.mr();
        switch (where)
        {
            case "unregistered memory with lkey 0" ->
                bad.sge(0).set(BufferUtil.address(ByteBuffer.allocateDirect(8)), 8, 0);
            case "an address no memory is at" -> bad.sge(0).set(16, 8, mr.lkey());
            case "beyond the end of its region" -> bad.sge(0).set(mr.address() + SIZE - 4, 8, mr.lkey());
            case "a negative length" -> bad.sge(0).set(mr.address(), -1, mr.lkey());
            case "a deregistered region" ->
            {
                final RegisteredBuffer gone = loopback.register(SIZE, AccessFlags.LOCAL_WRITE);
                gone.mr().close();
                bad.sge(0).set(gone.mr(), 0, 8);
            }
            default ->
            {
                final ProtectionDomain otherPd = loopback.track(loopback.context().allocPd());
                bad.sge(0).set(loopback.register(otherPd, SIZE, AccessFlags.LOCAL_WRITE).mr(), 0, 8);
            }
        }
        good.next(bad);

        assertPostFails(VerbsException.EINVAL, 1, () -> pair.a().postSend(good));
        assertSuccess(completion(pair.a().sendCq()), 1, WcOpcode.SEND);
        Await.noCompletion(pair.a().sendCq(), 50);
    }

    /**
     * The QueuePair contract refuses these at post time. Real devices differ: rxe's user-space provider
     * queues them and its requester completes them with LOC_QP_OP_ERR, so a provider over real verbs must
     * check the opcode against the QP type itself before calling ibv_post_send.
     */
    @ParameterizedTest(name = "{1} on {0}")
    @CsvSource({
        "UC,RDMA_READ", "UC,ATOMIC_CMP_AND_SWP", "UC,ATOMIC_FETCH_AND_ADD",
        "UD,RDMA_WRITE", "UD,RDMA_WRITE_WITH_IMM", "UD,RDMA_READ", "UD,ATOMIC_CMP_AND_SWP",
        "UD,ATOMIC_FETCH_AND_ADD"})
    void opcodeTheQpTypeDoesNotSupportIsEinval(final QpType type, final SendOpcode opcode)
    {
        final Loopback.QpPair pair = loopback.pair(type);
        final RegisteredBuffer local = loopback.register(SIZE, AccessFlags.LOCAL_WRITE);
        final RegisteredBuffer remote = loopback.register(SIZE, AccessFlags.ALL);
        final SendWorkRequest wr = local.remote(opcode, 1, 0, 8, remote, 0).atomic(0, 1);
        if (type == QpType.UD)
        {
            wr.ud(loopback.ah(), pair.b().qpNum(), Loopback.QKEY);
        }

        assertPostFails(VerbsException.EINVAL, 0, () -> pair.a().postSend(wr));
        Await.noCompletion(pair.a().sendCq(), 50);
    }

    private QueuePair qpWithBigCqs(final QpCapabilities cap)
    {
        final CompletionQueue sendCq = loopback.cq(BIG_CQ);
        final CompletionQueue recvCq = loopback.cq(BIG_CQ);
        return loopback.qp(new QpInitAttr(QpType.RC, sendCq, recvCq, cap, false));
    }

    private static void assertPostFails(final int errno, final int badIndex, final Executable post)
    {
        final PostException ex = assertThrows(PostException.class, post);
        assertEquals(errno, ex.errno(), ex.getMessage());
        assertEquals(badIndex, ex.badIndex(), ex.getMessage());
    }
}
