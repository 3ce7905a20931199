package io.ibex.rdma.conformance;

import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.PostException;
import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.VerbsException;
import io.ibex.rdma.verbs.WcOpcode;
import io.ibex.rdma.verbs.WcStatus;
import io.ibex.rdma.verbs.WorkCompletion;
import org.agrona.BufferUtil;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.ByteBuffer;
import java.util.List;

import static io.ibex.rdma.conformance.Await.assertBadLkey;
import static io.ibex.rdma.conformance.Await.assertStatus;
import static io.ibex.rdma.conformance.Await.assertSuccess;
import static io.ibex.rdma.conformance.Await.completion;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RC errors: remote access violations, local protection errors, receive buffers too small, misaligned atomics,
 * receiver-not-ready retries, and the QP's error state afterwards.
 */
class RcErrorsConformanceTest extends LoopbackTest
{
    private static final int SIZE = 4096;
    private static final int FILL = 0x77;
    private static final int BAD_KEY_BITS = 0x5a5a00;

    private QueuePair requester;
    private QueuePair responder;
    private RegisteredBuffer local;

    @BeforeEach
    void open()
    {
        final Loopback.QpPair pair = loopback.pair(QpType.RC);
        requester = pair.a();
        responder = pair.b();
        local = loopback.register(SIZE, AccessFlags.LOCAL_WRITE).pattern(0, SIZE, 1);
    }

    @Test
    void badRkeyIsRemAccessErrAndPutsTheRequesterInErr()
    {
        final RegisteredBuffer remote = remote(AccessFlags.ALL);
        final SendWorkRequest wr = local.remote(SendOpcode.RDMA_WRITE, 1, 0, 64, remote, 0);
        wr.remote(wr.remoteAddr(), remote.mr().rkey() ^ BAD_KEY_BITS);

        requester.postSend(wr);

        assertStatus(completion(requester.sendCq()), 1, WcStatus.REM_ACCESS_ERR);
        Await.until(() -> requester.state() == QpState.ERR, "requester in ERR after REM_ACCESS_ERR");
        assertUntouched(remote.buffer(), 0, SIZE);
    }

    @Test
    void unsignaledRequestThatFailsStillCompletes()
    {
        final RegisteredBuffer remote = remote(AccessFlags.ALL);
        final SendWorkRequest wr = local.remote(SendOpcode.RDMA_WRITE, 9, 0, 64, remote, 0).sendFlags(0);
        wr.remote(wr.remoteAddr(), remote.mr().rkey() ^ BAD_KEY_BITS);

        requester.postSend(wr);

        // Only successful requests may go without a completion.
        assertStatus(completion(requester.sendCq()), 9, WcStatus.REM_ACCESS_ERR);
    }

    @ParameterizedTest(name = "offset {0}, length {1}")
    @CsvSource({"2048,4096", "-8,64", "4095,2"})
    void writeOutsideTheRegionIsRemAccessErrAndMemoryOutsideStaysUntouched(final int offset, final int length)
    {
        // An 8 KiB buffer of which only the middle 4 KiB are registered.
        final ByteBuffer memory = ByteBuffer.allocateDirect(2 * SIZE);
        RegisteredBuffer.fill(memory, FILL);
        final int regionStart = SIZE / 2;
        final MemoryRegion region = loopback.track(loopback.pd().registerMemory(
            BufferUtil.address(memory) + regionStart, SIZE, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE));
        final RegisteredBuffer source = loopback.register(2 * SIZE, AccessFlags.LOCAL_WRITE).pattern(0, 2 * SIZE, 3);
        final SendWorkRequest wr = source.send(2, 0, length).opcode(SendOpcode.RDMA_WRITE)
            .remote(region.address() + offset, region.rkey());

        requester.postSend(wr);

        assertStatus(completion(requester.sendCq()), 2, WcStatus.REM_ACCESS_ERR);
        assertUntouched(memory, 0, regionStart);
        assertUntouched(memory, regionStart + SIZE, SIZE / 2);
    }

    @ParameterizedTest(name = "{0} without its remote access flag")
    @CsvSource({
        "RDMA_WRITE, 5",             // LOCAL_WRITE | REMOTE_READ
        "RDMA_READ, 3",              // LOCAL_WRITE | REMOTE_WRITE
        "ATOMIC_FETCH_AND_ADD, 7",   // LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ
        "ATOMIC_CMP_AND_SWP, 7"})
    void operationTheRegionDoesNotAllowIsRemAccessErr(final SendOpcode opcode, final int access)
    {
        final RegisteredBuffer remote = remote(access);
        local.fill(0x11);
        final SendWorkRequest wr = local.remote(opcode, 3, 0, opcode.isAtomic() ? 8 : 64, remote, 0)
            .atomic(FILL * 0x0101010101010101L, 5);

        requester.postSend(wr);

        assertStatus(completion(requester.sendCq()), 3, WcStatus.REM_ACCESS_ERR);
        assertUntouched(remote.buffer(), 0, SIZE);
        for (int i = 0; i < 64; i++)
        {
            assertEquals(0x11, local.buffer().get(i), "local byte " + i + " changed by a failed " + opcode);
        }
    }

    /**
     * A QP's own access flags are checked before the rkey: rxe answers an operation they do not allow with "invalid
     * request" (its check_op_valid), not with a remote access error, whatever the region allows.
     */
    @ParameterizedTest(name = "{0} to a QP whose access flags are {1}")
    @CsvSource({
        "RDMA_WRITE, 12",            // REMOTE_READ | REMOTE_ATOMIC
        "RDMA_READ, 10",             // REMOTE_WRITE | REMOTE_ATOMIC
        "ATOMIC_FETCH_AND_ADD, 6"})  // REMOTE_WRITE | REMOTE_READ
    void operationTheQpDoesNotAllowIsRemInvReqErr(final SendOpcode opcode, final int qpAccess)
    {
        responder.modify(QpAttr.to(QpState.RTS).accessFlags(qpAccess));
        final RegisteredBuffer remote = remote(AccessFlags.ALL);
        local.fill(0x11);
        final SendWorkRequest wr = local.remote(opcode, 4, 0, opcode.isAtomic() ? 8 : 64, remote, 0).atomic(1, 0);

        requester.postSend(wr);

        assertStatus(completion(requester.sendCq()), 4, WcStatus.REM_INV_REQ_ERR);
        assertUntouched(remote.buffer(), 0, SIZE);
        for (int i = 0; i < 64; i++)
        {
            assertEquals(0x11, local.buffer().get(i), "local byte " + i + " changed by a refused " + opcode);
        }
    }

    @Test
    void badLkeyFailsTheSendAndPutsTheRequesterInErr()
    {
        final RegisteredBuffer target = remote(AccessFlags.LOCAL_WRITE);
        responder.postRecv(target.recv(1, 0, SIZE));
        final SendWorkRequest wr = local.send(2, 0, 64);
        wr.sge(0).lkey(local.mr().lkey() ^ BAD_KEY_BITS);

        requester.postSend(wr);

        assertBadLkey(completion(requester.sendCq()), 2);
        Await.until(() -> requester.state() == QpState.ERR, "requester in ERR after a bad lkey");
    }

    @Test
    void readIntoARegionWithoutLocalWriteIsLocProtErr()
    {
        final RegisteredBuffer remote = remote(AccessFlags.ALL);
        final RegisteredBuffer readOnly = loopback.register(SIZE, AccessFlags.REMOTE_READ);

        requester.postSend(readOnly.remote(SendOpcode.RDMA_READ, 4, 0, 64, remote, 0));

        assertStatus(completion(requester.sendCq()), 4, WcStatus.LOC_PROT_ERR);
    }

    /**
     * The IB spec has the responder NAK "invalid request" (REM_INV_REQ_ERR at the sender) and complete the
     * receive with LOC_LEN_ERR, as hardware does. rxe (kernel 6.1) fails to copy the message into the receive
     * (copy_data in send_data_in: RESPST_ERR_MALFORMED_WQE), completes it with LOC_QP_OP_ERR and NAKs "remote
     * operational error": REM_OP_ERR at the sender. Either pair is accepted; soft does what rxe does.
     */
    @Test
    void receiveBufferTooSmallFailsBothSides()
    {
        final RegisteredBuffer target = remote(AccessFlags.LOCAL_WRITE);
        responder.postRecv(target.recv(1, 0, 16));
        responder.postRecv(target.recv(2, 1024, 1024));

        requester.postSend(local.send(3, 0, 64));

        final WorkCompletion sent = completion(requester.sendCq());
        final WorkCompletion received = completion(responder.recvCq());
        assertEquals(3, sent.wrId());
        assertEquals(1, received.wrId());
        final List<WcStatus> pair = List.of(sent.status(), received.status());
        assertTrue(pair.equals(List.of(WcStatus.REM_INV_REQ_ERR, WcStatus.LOC_LEN_ERR)) ||
            pair.equals(List.of(WcStatus.REM_OP_ERR, WcStatus.LOC_QP_OP_ERR)), () -> "sender " + sent +
            ", receiver " + received + ": expected REM_INV_REQ_ERR and LOC_LEN_ERR (IB spec) or REM_OP_ERR and " +
            "LOC_QP_OP_ERR (rxe)");
        // The responder's QP moved to ERR: the next receive is flushed, never filled.
        assertStatus(completion(responder.recvCq()), 2, WcStatus.WR_FLUSH_ERR);
        assertUntouched(target.buffer(), 16, SIZE - 16);
    }

    /**
     * A misaligned atomic never executes. rxe refuses it at post (EINVAL, in its user-space validate_send_wr);
     * hardware completes it with an error. Both leave remote memory alone.
     */
    @Test
    void misalignedAtomicNeverExecutes()
    {
        final RegisteredBuffer remote = remote(AccessFlags.ALL);
        final SendWorkRequest wr =
            local.remote(SendOpcode.ATOMIC_FETCH_AND_ADD, 5, 0, 8, remote, 4).atomic(1, 0);

        try
        {
            requester.postSend(wr);
            final WorkCompletion wc = completion(requester.sendCq());
            assertEquals(5, wc.wrId());
            assertNotEquals(WcStatus.SUCCESS, wc.status(), "a misaligned atomic succeeded");
        }
        catch (final PostException ex)
        {
            assertEquals(VerbsException.EINVAL, ex.errno(), ex.getMessage());
            assertEquals(0, ex.badIndex());
        }
        assertUntouched(remote.buffer(), 0, SIZE);
    }

    @Test
    void noReceiveWithRnrRetryZeroIsRnrRetryExcErr()
    {
        final QueuePair sender = loopback.qp(QpType.RC);
        final QueuePair receiver = loopback.qp(QpType.RC);
        sender.modify(Loopback.init(QpType.RC));
        sender.modify(loopback.rtr(QpType.RC, receiver));
        sender.modify(Loopback.rts(QpType.RC, sender).rnrRetry(0));
        loopback.connect(receiver, sender);

        sender.postSend(local.send(6, 0, 64));

        assertStatus(completion(sender.sendCq()), 6, WcStatus.RNR_RETRY_EXC_ERR);
        Await.until(() -> sender.state() == QpState.ERR, "sender in ERR after RNR_RETRY_EXC_ERR");
    }

    @Test
    void withRnrRetrySevenASendWaitsForALateReceive()
    {
        final RegisteredBuffer target = remote(AccessFlags.LOCAL_WRITE);

        requester.postSend(local.send(7, 0, 64));
        Await.noCompletion(requester.sendCq(), 100);
        responder.postRecv(target.recv(8, 0, 64));

        assertSuccess(completion(requester.sendCq()), 7, WcOpcode.SEND);
        assertSuccess(completion(responder.recvCq()), 8, WcOpcode.RECV);
        assertEquals(local.buffer().slice(0, 64), target.buffer().slice(0, 64));
    }

    @Test
    void afterAnErrorLaterRequestsAreFlushed()
    {
        final RegisteredBuffer remote = remote(AccessFlags.ALL);
        responder.postRecv(remote.recv(100, 0, 64));
        final SendWorkRequest bad = local.remote(SendOpcode.RDMA_WRITE, 1, 0, 64, remote, 0);
        bad.remote(bad.remoteAddr(), remote.mr().rkey() ^ BAD_KEY_BITS);

        requester.postSend(bad);
        requester.postSend(local.send(2, 0, 8));

        assertStatus(completion(requester.sendCq()), 1, WcStatus.REM_ACCESS_ERR);
        assertStatus(completion(requester.sendCq()), 2, WcStatus.WR_FLUSH_ERR);
        Await.until(() -> requester.state() == QpState.ERR, "requester in ERR");

        requester.postSend(local.send(3, 0, 8));
        final WorkCompletion flushed = completion(requester.sendCq());
        assertStatus(flushed, 3, WcStatus.WR_FLUSH_ERR);
        assertEquals(requester.qpNum(), flushed.qpNum());
    }

    private RegisteredBuffer remote(final int access)
    {
        return loopback.register(SIZE, access).fill(FILL);
    }

    private static void assertUntouched(final ByteBuffer buffer, final int offset, final int length)
    {
        for (int i = offset; i < offset + length; i++)
        {
            assertEquals(FILL, buffer.get(i), "byte " + i + " was written");
        }
    }
}
