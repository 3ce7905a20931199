package io.ibex.rdma.provider.soft;

import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.WcStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;

import static io.ibex.rdma.provider.soft.SoftFrameDescriptor.OPCODE_OFFSET;
import static io.ibex.rdma.provider.soft.SoftFrameDescriptor.OP_GOODBYE;
import static io.ibex.rdma.provider.soft.SoftFrameDescriptor.OP_SEND;
import static io.ibex.rdma.provider.soft.SoftFrameDescriptor.PSN_MASK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * A QP destroyed or reset says goodbye on its link, so its peer's QP can tell it from a process that died (both
 * close the connection): the peer's QP ends the link and enters ERR either way, but warns only when it loses work.
 */
@Timeout(30)
class SoftGoodbyeTest
{
    private final SoftFixture fixture = new SoftFixture();

    @AfterEach
    void close()
    {
        fixture.close();
    }

    @Test
    void aPeerDestroyedCleanlyIsNoWarning()
    {
        final QueuePair leaving = fixture.qp(QpType.RC, 4);
        final QueuePair staying = fixture.qp(QpType.RC, 4);
        fixture.pair(leaving, staying, 7);
        final MemoryRegion mr = fixture.register(128);
        for (int i = 0; i < 2; i++)
        {
            final ReceiveWorkRequest recv = new ReceiveWorkRequest().wrId(i);
            recv.sge(0).set(mr, 64 * i, 64);
            staying.postRecv(recv);
        }
        // a message first: the link is up (a QP destroyed while its link is still being set up, shared memory
        // negotiated, goes unnoticed, as on an HCA, where a peer that is gone shows only when a request times out)
        final SendWorkRequest send = new SendWorkRequest().opcode(SendOpcode.SEND).sendFlags(SendFlags.SIGNALED);
        send.sge(0).set(mr, 0, 64);
        leaving.postSend(send);
        assertEquals(WcStatus.SUCCESS, SoftFixture.await(leaving.sendCq()).status());
        assertEquals(WcStatus.SUCCESS, SoftFixture.await(staying.recvCq()).status());
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

    @Test
    void aPeerThatLeavesBeforeAnsweringFailsTheRequestWithAWarning() throws IOException
    {
        final QueuePair qp = fixture.qp(QpType.RC, 4);
        SoftFixture.connect(qp, SoftWirePeer.address(), SoftWirePeer.QPN, 7);
        final MemoryRegion mr = fixture.register(64);
        try (SoftWirePeer peer = new SoftWirePeer((SoftDevice)fixture.context.device(), qp.qpNum());
            LogCapture log = new LogCapture())
        {
            final SendWorkRequest send = new SendWorkRequest().wrId(5).opcode(SendOpcode.SEND)
                .sendFlags(SendFlags.SIGNALED);
            send.sge(0).set(mr, 0, 64);
            qp.postSend(send);
            assertEquals(OP_SEND, peer.readFrame().get(OPCODE_OFFSET));
            peer.writeHeader(OP_GOODBYE, 0, 0, PSN_MASK, 0, 0); // acknowledges nothing
            assertEquals(WcStatus.RETRY_EXC_ERR, SoftFixture.await(qp.sendCq()).status(),
                "the unanswered SEND");
            log.await("left (destroyed or reset) before answering");
        }
    }
}
