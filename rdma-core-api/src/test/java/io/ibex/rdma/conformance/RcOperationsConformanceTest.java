package io.ibex.rdma.conformance;

import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.QpCapabilities;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static io.ibex.rdma.conformance.Await.assertSuccess;
import static io.ibex.rdma.conformance.Await.completion;
import static io.ibex.rdma.conformance.Await.completions;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every RC opcode: the completions on both sides (opcode, byte_len, immediate data and its flag, qp_num) and
 * the memory contents on both sides; multi-SGE, inline, signalling, chained lists, ordering, large and empty
 * messages.
 */
class RcOperationsConformanceTest extends LoopbackTest
{
    private static final int SIZE = 4096;
    private static final int IMM = 0x12345678;
    private static final int MIB = 1 << 20;
    private static final int REMOTE = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ;

    private QueuePair requester;
    private QueuePair responder;
    private RegisteredBuffer local;
    private RegisteredBuffer remote;

    @BeforeEach
    void open()
    {
        final Loopback.QpPair pair = loopback.pair(QpType.RC);
        requester = pair.a();
        responder = pair.b();
        local = loopback.register(SIZE, AccessFlags.LOCAL_WRITE);
        remote = loopback.register(SIZE, REMOTE | AccessFlags.REMOTE_ATOMIC);
    }

    @Test
    void sendDeliversThePayloadIntoTheReceive()
    {
        local.pattern(0, 100, 1);
        remote.fill(0xee);
        responder.postRecv(remote.recv(7, 200, 1000));

        requester.postSend(local.send(8, 0, 100));

        final WorkCompletion sent = completion(requester.sendCq());
        assertSuccess(sent, 8, WcOpcode.SEND);
        assertEquals(requester.qpNum(), sent.qpNum());
        final WorkCompletion received = completion(responder.recvCq());
        assertSuccess(received, 7, WcOpcode.RECV);
        assertEquals(100, received.byteLen());
        assertEquals(responder.qpNum(), received.qpNum());
        assertEquals(0, received.wcFlags() & WcFlags.WITH_IMM);
        assertArrayEquals(local.bytes(0, 100), remote.bytes(200, 100));
        assertEquals((byte)0xee, remote.buffer().get(199));
        assertEquals((byte)0xee, remote.buffer().get(300), "bytes after the message were written");
    }

    @Test
    void sendWithImmDeliversTheImmediate()
    {
        local.pattern(0, 32, 9);
        responder.postRecv(remote.recv(1, 0, 64));
        final SendWorkRequest wr = local.send(2, 0, 32).opcode(SendOpcode.SEND_WITH_IMM).immData(IMM);

        requester.postSend(wr);

        assertSuccess(completion(requester.sendCq()), 2, WcOpcode.SEND);
        final WorkCompletion received = completion(responder.recvCq());
        assertSuccess(received, 1, WcOpcode.RECV);
        assertEquals(32, received.byteLen());
        assertEquals(WcFlags.WITH_IMM, received.wcFlags() & WcFlags.WITH_IMM);
        assertEquals(IMM, received.immData());
        assertArrayEquals(local.bytes(0, 32), remote.bytes(0, 32));
    }

    @Test
    void rdmaWriteChangesOnlyTheTargetRangeAndConsumesNoReceive()
    {
        local.pattern(0, 256, 3);
        remote.fill(0x5a);
        responder.postRecv(remote.recv(1, 0, 16));

        requester.postSend(local.remote(SendOpcode.RDMA_WRITE, 4, 0, 256, remote, 1000));

        final WorkCompletion written = completion(requester.sendCq());
        assertSuccess(written, 4, WcOpcode.RDMA_WRITE);
        assertEquals(requester.qpNum(), written.qpNum());
        assertArrayEquals(local.bytes(0, 256), remote.bytes(1000, 256));
        assertEquals((byte)0x5a, remote.buffer().get(999));
        assertEquals((byte)0x5a, remote.buffer().get(1256));
        Await.noCompletion(responder.recvCq(), 50);
    }

    @Test
    void rdmaWriteWithImmConsumesAReceiveAndReportsTheLength()
    {
        local.pattern(0, 300, 5);
        final ReceiveWorkRequest noBuffer = new ReceiveWorkRequest().wrId(11).numSge(0);
        responder.postRecv(noBuffer);
        final SendWorkRequest wr =
            local.remote(SendOpcode.RDMA_WRITE_WITH_IMM, 12, 0, 300, remote, 64).immData(IMM);

        requester.postSend(wr);

        assertSuccess(completion(requester.sendCq()), 12, WcOpcode.RDMA_WRITE);
        final WorkCompletion received = completion(responder.recvCq());
        assertSuccess(received, 11, WcOpcode.RECV_RDMA_WITH_IMM);
        assertEquals(300, received.byteLen());
        assertEquals(WcFlags.WITH_IMM, received.wcFlags() & WcFlags.WITH_IMM);
        assertEquals(IMM, received.immData());
        assertArrayEquals(local.bytes(0, 300), remote.bytes(64, 300));
    }

    @Test
    void rdmaReadFetchesRemoteMemory()
    {
        remote.pattern(500, 700, 17);
        local.fill(0);

        requester.postSend(local.remote(SendOpcode.RDMA_READ, 21, 100, 700, remote, 500));

        final WorkCompletion read = completion(requester.sendCq());
        assertSuccess(read, 21, WcOpcode.RDMA_READ);
        assertEquals(700, read.byteLen());
        assertArrayEquals(remote.bytes(500, 700), local.bytes(100, 700));
        assertEquals(0, local.buffer().get(99));
        assertEquals(0, local.buffer().get(800));
        Await.noCompletion(responder.recvCq(), 50);
    }

    @Test
    void compareAndSwapThatMatchesSwapsAndReturnsTheOriginal()
    {
        remote.putLong(64, 0x1111_2222_3333_4444L);
        local.putLong(0, -1L);
        final SendWorkRequest wr = local.remote(SendOpcode.ATOMIC_CMP_AND_SWP, 31, 0, 8, remote, 64)
            .atomic(0x1111_2222_3333_4444L, 0x5555_6666_7777_8888L);

        requester.postSend(wr);

        final WorkCompletion wc = completion(requester.sendCq());
        assertSuccess(wc, 31, WcOpcode.COMP_SWAP);
        assertEquals(0x5555_6666_7777_8888L, remote.getLong(64));
        assertEquals(0x1111_2222_3333_4444L, local.getLong(0));
    }

    @Test
    void compareAndSwapThatMissesLeavesRemoteMemoryAndReturnsTheOriginal()
    {
        remote.putLong(64, 42L);
        local.putLong(0, -1L);
        final SendWorkRequest wr =
            local.remote(SendOpcode.ATOMIC_CMP_AND_SWP, 32, 0, 8, remote, 64).atomic(41L, 99L);

        requester.postSend(wr);

        assertSuccess(completion(requester.sendCq()), 32, WcOpcode.COMP_SWAP);
        assertEquals(42L, remote.getLong(64));
        assertEquals(42L, local.getLong(0));
    }

    @Test
    void fetchAndAddAddsAndReturnsTheOriginal()
    {
        remote.putLong(128, 1000L);
        local.putLong(8, -1L);
        final SendWorkRequest wr =
            local.remote(SendOpcode.ATOMIC_FETCH_AND_ADD, 33, 8, 8, remote, 128).atomic(234L, 0L);

        requester.postSend(wr);
        assertSuccess(completion(requester.sendCq()), 33, WcOpcode.FETCH_ADD);
        requester.postSend(wr.wrId(34));
        assertSuccess(completion(requester.sendCq()), 34, WcOpcode.FETCH_ADD);

        assertEquals(1468L, remote.getLong(128));
        assertEquals(1234L, local.getLong(8));
    }

    @Test
    void gatherFromManySgesScattersIntoManySges()
    {
        final RegisteredBuffer other = loopback.register(SIZE, AccessFlags.LOCAL_WRITE).pattern(0, 100, 50);
        local.pattern(0, SIZE, 1);
        remote.fill(0);
        final SendWorkRequest wr = new SendWorkRequest(3).wrId(1).sendFlags(SendFlags.SIGNALED).numSge(3);
        wr.sge(0).set(local.mr(), 10, 20);
        wr.sge(1).set(other.mr(), 0, 100);
        wr.sge(2).set(local.mr(), 3000, 30);
        final ReceiveWorkRequest recv = new ReceiveWorkRequest(2).wrId(2).numSge(2);
        recv.sge(0).set(remote.mr(), 0, 50);
        recv.sge(1).set(remote.mr(), 2000, 1000);
        responder.postRecv(recv);

        requester.postSend(wr);

        assertSuccess(completion(requester.sendCq()), 1, WcOpcode.SEND);
        final WorkCompletion received = completion(responder.recvCq());
        assertSuccess(received, 2, WcOpcode.RECV);
        assertEquals(150, received.byteLen());
        final byte[] expected = concat(local.bytes(10, 20), other.bytes(0, 100), local.bytes(3000, 30));
        final byte[] actual = concat(remote.bytes(0, 50), remote.bytes(2000, 100));
        assertArrayEquals(expected, actual);
        assertEquals(0, remote.buffer().get(50));
        assertEquals(0, remote.buffer().get(2100));
    }

    @Test
    void inlineSendBufferMayBeReusedRightAfterThePost()
    {
        // Inline data is copied at post time: its buffer may be reused at once (it must still lie in a region).
        local.pattern(0, 48, 1);
        responder.postRecv(remote.recv(1, 0, 64));
        final SendWorkRequest wr = local.send(2, 0, 48).sendFlags(SendFlags.SIGNALED | SendFlags.INLINE);

        requester.postSend(wr);
        local.fill(0xff);

        assertSuccess(completion(requester.sendCq()), 2, WcOpcode.SEND);
        final WorkCompletion received = completion(responder.recvCq());
        assertEquals(48, received.byteLen());
        for (int i = 0; i < 48; i++)
        {
            assertEquals((byte)(i + 1), remote.buffer().get(i), "inline byte " + i);
        }
    }

    @Test
    void inlineRdmaWriteLandsInRemoteMemory()
    {
        local.pattern(0, 40, 70);
        final SendWorkRequest wr = local.remote(SendOpcode.RDMA_WRITE, 3, 0, 40, remote, 8)
            .sendFlags(SendFlags.SIGNALED | SendFlags.INLINE);

        requester.postSend(wr);
        local.fill(0);

        assertSuccess(completion(requester.sendCq()), 3, WcOpcode.RDMA_WRITE);
        for (int i = 0; i < 40; i++)
        {
            assertEquals((byte)(70 + i), remote.buffer().get(8 + i), "inline byte " + i);
        }
    }

    @Test
    void unsignaledSendsProduceNoCompletion()
    {
        for (int i = 0; i < 3; i++)
        {
            responder.postRecv(remote.recv(i, i * 64, 64));
        }
        requester.postSend(local.send(1, 0, 8).sendFlags(0));
        requester.postSend(local.send(2, 0, 8).sendFlags(0));
        requester.postSend(local.send(3, 0, 8));

        assertSuccess(completion(requester.sendCq()), 3, WcOpcode.SEND);
        assertEquals(3, completions(responder.recvCq(), 3).length);
        // Completions come in order: once the signaled one is out, an unsignaled one can no longer appear.
        assertEquals(0, requester.sendCq().poll(new WorkCompletion[]{new WorkCompletion()}));
    }

    @Test
    void sqSigAllSignalsEverySend()
    {
        final Loopback.QpPair pair = loopback.pair(QpType.RC, Loopback.CAPS, true);
        pair.b().postRecv(remote.recv(1, 0, 64));
        pair.b().postRecv(remote.recv(2, 64, 64));

        pair.a().postSend(local.send(5, 0, 8).sendFlags(0));
        pair.a().postSend(local.send(6, 0, 8).sendFlags(0));

        final WorkCompletion[] sent = completions(pair.a().sendCq(), 2);
        assertSuccess(sent[0], 5, WcOpcode.SEND);
        assertSuccess(sent[1], 6, WcOpcode.SEND);
    }

    @Test
    void chainedListCompletesInPostedOrder()
    {
        local.pattern(0, 64, 1);
        remote.pattern(2048, 64, 100);
        responder.postRecv(remote.recv(1, 0, 64).next(remote.recv(2, 64, 64)));
        final SendWorkRequest first = local.send(10, 0, 16);
        final SendWorkRequest write = local.remote(SendOpcode.RDMA_WRITE, 11, 16, 16, remote, 1024);
        final SendWorkRequest read = local.remote(SendOpcode.RDMA_READ, 12, 512, 64, remote, 2048);
        final SendWorkRequest last = local.send(13, 32, 16);
        first.next(write.next(read.next(last)));

        requester.postSend(first);

        final WorkCompletion[] wcs = completions(requester.sendCq(), 4);
        assertSuccess(wcs[0], 10, WcOpcode.SEND);
        assertSuccess(wcs[1], 11, WcOpcode.RDMA_WRITE);
        assertSuccess(wcs[2], 12, WcOpcode.RDMA_READ);
        assertSuccess(wcs[3], 13, WcOpcode.SEND);
        final WorkCompletion[] received = completions(responder.recvCq(), 2);
        assertSuccess(received[0], 1, WcOpcode.RECV);
        assertSuccess(received[1], 2, WcOpcode.RECV);
        assertArrayEquals(local.bytes(0, 16), remote.bytes(0, 16));
        assertArrayEquals(local.bytes(16, 16), remote.bytes(1024, 16));
        assertArrayEquals(remote.bytes(2048, 64), local.bytes(512, 64));
        assertArrayEquals(local.bytes(32, 16), remote.bytes(64, 16));
    }

    @Test
    void manyMessagesArriveInOrder()
    {
        final int messages = 500;
        final int depth = Loopback.DEPTH;
        final WorkCompletion[] wcs = {new WorkCompletion()};
        final SendWorkRequest send = local.send(0, 0, 4);
        for (int i = 0; i < depth; i++)
        {
            responder.postRecv(remote.recv(i, i * 4, 4));
        }
        int sent = 0;
        int sendsDone = 0;
        int received = 0;
        final long deadline = System.nanoTime() + Loopback.WAIT_MILLIS * 1_000_000L;
        while (received < messages)
        {
            assertTrue(System.nanoTime() - deadline < 0, "only " + received + " of " + messages + " arrived");
            if (sent < messages && sent - sendsDone < depth && sent - received < depth)
            {
                // A slot is reused only after the send that used it last has completed.
                final int slot = sent % depth;
                local.buffer().putInt(slot * 4, sent);
                send.sge(0).addr(local.address(slot * 4));
                requester.postSend(send.wrId(sent));
                sent++;
            }
            if (requester.sendCq().poll(wcs) == 1)
            {
                assertSuccess(wcs[0], sendsDone, WcOpcode.SEND);
                sendsDone++;
            }
            if (responder.recvCq().poll(wcs) == 1)
            {
                final int slot = (int)wcs[0].wrId();
                assertEquals(WcStatus.SUCCESS, wcs[0].status());
                assertEquals(received, remote.buffer().getInt(slot * 4), "message out of order");
                received++;
                responder.postRecv(remote.recv(slot, slot * 4, 4));
            }
        }
        completions(requester.sendCq(), messages - sendsDone);
    }

    enum Transfer
    {
        SEND, RDMA_WRITE, RDMA_READ
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transfer.class)
    void oneMebibyteMessage(final Transfer transfer)
    {
        final RegisteredBuffer source = loopback.register(MIB, REMOTE).pattern(0, MIB, 11);
        final RegisteredBuffer target = loopback.register(MIB, REMOTE);
        switch (transfer)
        {
            case SEND ->
            {
                responder.postRecv(target.recv(1, 0, MIB));
                requester.postSend(source.send(2, 0, MIB));
                assertEquals(MIB, completion(responder.recvCq()).byteLen());
            }
            case RDMA_WRITE -> requester.postSend(source.remote(SendOpcode.RDMA_WRITE, 2, 0, MIB, target, 0));
            case RDMA_READ -> requester.postSend(target.remote(SendOpcode.RDMA_READ, 2, 0, MIB, source, 0));
        }
        final WorkCompletion wc = completion(requester.sendCq());
        assertEquals(WcStatus.SUCCESS, wc.status(), wc::toString);
        assertEquals(0, target.buffer().compareTo(source.buffer()), "1 MiB arrived changed");
    }

    @Test
    void zeroLengthSendCompletesAnEmptyReceive()
    {
        remote.fill(0x33);
        responder.postRecv(remote.recv(1, 0, 64));
        final SendWorkRequest empty = new SendWorkRequest().wrId(2).sendFlags(SendFlags.SIGNALED).numSge(0);

        requester.postSend(empty);

        assertSuccess(completion(requester.sendCq()), 2, WcOpcode.SEND);
        final WorkCompletion received = completion(responder.recvCq());
        assertSuccess(received, 1, WcOpcode.RECV);
        assertEquals(0, received.byteLen());
        assertEquals((byte)0x33, remote.buffer().get(0));
    }

    @Test
    void bothDirectionsWorkAtOnce()
    {
        final CompletionQueue aRecv = requester.recvCq();
        local.pattern(0, 16, 1);
        remote.pattern(0, 16, 2);
        requester.postRecv(local.recv(1, 1024, 64));
        responder.postRecv(remote.recv(2, 1024, 64));

        requester.postSend(local.send(3, 0, 16));
        responder.postSend(remote.send(4, 0, 16));

        assertSuccess(completion(requester.sendCq()), 3, WcOpcode.SEND);
        assertSuccess(completion(responder.sendCq()), 4, WcOpcode.SEND);
        assertSuccess(completion(aRecv), 1, WcOpcode.RECV);
        assertSuccess(completion(responder.recvCq()), 2, WcOpcode.RECV);
        assertArrayEquals(remote.bytes(0, 16), local.bytes(1024, 16));
        assertArrayEquals(local.bytes(0, 16), remote.bytes(1024, 16));
    }

    @Test
    void largerQpCapabilitiesAreUsable()
    {
        final QpCapabilities cap = new QpCapabilities(64, 64, 1, 1, 0);
        final Loopback.QpPair pair = loopback.pair(QpType.RC, cap, false);
        final int depth = Math.min(pair.a().capabilities().maxSendWr(), pair.b().capabilities().maxRecvWr());
        assertTrue(depth >= 64, "depth " + depth);
        for (int i = 0; i < 64; i++)
        {
            pair.b().postRecv(remote.recv(i, 0, 64));
        }
        for (int i = 0; i < 64; i++)
        {
            pair.a().postSend(local.send(i, 0, 8));
        }
        assertEquals(64, completions(pair.a().sendCq(), 64).length);
        assertEquals(64, completions(pair.b().recvCq(), 64).length);
    }

    @Test
    void queuesOfSizesNotPowersOfTwoWrapAroundInOrder()
    {
        // Providers round queues up to a power of two (so does soft, to find a slot by masking): the sizes asked
        // here are not, and 15 full rounds wrap each queue and CQ several times.
        final Loopback.QpPair pair = loopback.pair(QpType.RC, new QpCapabilities(3, 5, 1, 1, 0), false);
        final int depth = Math.min(pair.a().capabilities().maxSendWr(), pair.b().capabilities().maxRecvWr());
        long message = 0;
        for (int round = 0; round < 15; round++)
        {
            for (int i = 0; i < depth; i++)
            {
                pair.b().postRecv(remote.recv(message + i, i * Long.BYTES, Long.BYTES));
                local.putLong(i * Long.BYTES, message + i);
            }
            for (int i = 0; i < depth; i++)
            {
                pair.a().postSend(local.send(message + i, i * Long.BYTES, Long.BYTES));
            }
            final WorkCompletion[] sent = completions(pair.a().sendCq(), depth);
            final WorkCompletion[] received = completions(pair.b().recvCq(), depth);
            for (int i = 0; i < depth; i++)
            {
                assertSuccess(sent[i], message + i, WcOpcode.SEND);
                assertSuccess(received[i], message + i, WcOpcode.RECV);
                assertEquals(message + i, remote.getLong(i * Long.BYTES), "payload of message " + (message + i));
            }
            message += depth;
        }
    }

    private static byte[] concat(final byte[]... parts)
    {
        int length = 0;
        for (final byte[] part : parts)
        {
            length += part.length;
        }
        final byte[] all = new byte[length];
        int offset = 0;
        for (final byte[] part : parts)
        {
            System.arraycopy(part, 0, all, offset, part.length);
            offset += part.length;
        }
        return all;
    }
}
