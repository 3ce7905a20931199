package io.ibex.rdma.conformance;

import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.WcFlags;
import io.ibex.rdma.verbs.WcOpcode;
import io.ibex.rdma.verbs.WorkCompletion;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static io.ibex.rdma.conformance.Await.assertSuccess;
import static io.ibex.rdma.conformance.Await.completion;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * UC: SEND and RDMA WRITE, with and without immediate data; errors at the responder are silent. (READ and
 * atomics are refused at post: see {@link PostingRulesConformanceTest}.)
 */
class UcConformanceTest extends LoopbackTest
{
    private static final int SIZE = 4096;
    private static final int IMM = 0xcafe0001;

    private QueuePair requester;
    private QueuePair responder;
    private RegisteredBuffer local;
    private RegisteredBuffer remote;

    @BeforeEach
    void open()
    {
        final Loopback.QpPair pair = loopback.pair(QpType.UC);
        requester = pair.a();
        responder = pair.b();
        local = loopback.register(SIZE, AccessFlags.LOCAL_WRITE).pattern(0, SIZE, 9);
        remote = loopback.register(SIZE, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
    }

    @Test
    void sendDeliversThePayload()
    {
        responder.postRecv(remote.recv(1, 0, 512));

        requester.postSend(local.send(2, 0, 300));

        assertSuccess(completion(requester.sendCq()), 2, WcOpcode.SEND);
        final WorkCompletion received = completion(responder.recvCq());
        assertSuccess(received, 1, WcOpcode.RECV);
        assertEquals(300, received.byteLen());
        assertEquals(responder.qpNum(), received.qpNum());
        assertEquals(0, received.wcFlags() & WcFlags.WITH_IMM);
        assertArrayEquals(local.bytes(0, 300), remote.bytes(0, 300));
    }

    @Test
    void sendWithImmDeliversTheImmediate()
    {
        responder.postRecv(remote.recv(1, 0, 512));

        requester.postSend(local.send(2, 0, 20).opcode(SendOpcode.SEND_WITH_IMM).immData(IMM));

        assertSuccess(completion(requester.sendCq()), 2, WcOpcode.SEND);
        final WorkCompletion received = completion(responder.recvCq());
        assertSuccess(received, 1, WcOpcode.RECV);
        assertEquals(20, received.byteLen());
        assertEquals(WcFlags.WITH_IMM, received.wcFlags() & WcFlags.WITH_IMM);
        assertEquals(IMM, received.immData());
    }

    @Test
    void rdmaWriteLandsWithoutConsumingAReceive()
    {
        responder.postRecv(remote.recv(1, 0, 16));

        requester.postSend(local.remote(SendOpcode.RDMA_WRITE, 2, 0, 1000, remote, 100));

        assertSuccess(completion(requester.sendCq()), 2, WcOpcode.RDMA_WRITE);
        final byte[] expected = local.bytes(0, 1000);
        Await.until(() -> Arrays.equals(expected, remote.bytes(100, 1000)), "UC RDMA WRITE visible");
        Await.noCompletion(responder.recvCq(), 50);
    }

    @Test
    void rdmaWriteWithImmConsumesAReceive()
    {
        responder.postRecv(remote.recv(1, 0, 16));

        requester.postSend(local.remote(SendOpcode.RDMA_WRITE_WITH_IMM, 2, 0, 200, remote, 1024).immData(IMM));

        assertSuccess(completion(requester.sendCq()), 2, WcOpcode.RDMA_WRITE);
        final WorkCompletion received = completion(responder.recvCq());
        assertSuccess(received, 1, WcOpcode.RECV_RDMA_WITH_IMM);
        assertEquals(200, received.byteLen());
        assertEquals(IMM, received.immData());
        assertArrayEquals(local.bytes(0, 200), remote.bytes(1024, 200));
    }

    @Test
    void writeWithABadRkeyIsDroppedSilently()
    {
        remote.fill(0);
        final SendWorkRequest bad = local.remote(SendOpcode.RDMA_WRITE, 1, 0, 64, remote, 0);
        bad.remote(bad.remoteAddr(), remote.mr().rkey() ^ 0x5a5a00);

        requester.postSend(bad);
        requester.postSend(local.remote(SendOpcode.RDMA_WRITE, 2, 64, 64, remote, 64));

        // UC has no acknowledgements: the sender sees success, the responder drops the bad message.
        assertSuccess(completion(requester.sendCq()), 1, WcOpcode.RDMA_WRITE);
        assertSuccess(completion(requester.sendCq()), 2, WcOpcode.RDMA_WRITE);
        final byte[] expected = local.bytes(64, 64);
        Await.until(() -> Arrays.equals(expected, remote.bytes(64, 64)), "the good write after the bad one");
        assertArrayEquals(new byte[64], remote.bytes(0, 64), "the write with the bad rkey landed");
    }
}
