package io.ibex.rdma.provider.soft;

import io.ibex.rdma.provider.soft.wire.SoftFrameDescriptor;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.WcStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A peer that sends garbage on a link gets the link closed and the QP put in ERR; nothing is thrown into
 * the polling thread and no memory is touched.
 */
@Timeout(20)
class SoftWireGarbageTest
{
    private final SoftFixture fixture = new SoftFixture();

    @AfterEach
    void close()
    {
        fixture.close();
    }

    @Test
    void aFrameWithAnImpossibleLengthPutsTheQpInError() throws Exception
    {
        final QueuePair qp = fixture.qp(QpType.RC, 4);
        final MemoryRegion mr = fixture.register(64);
        SoftFixture.connect(qp, SoftWirePeer.address(), SoftWirePeer.QPN, 7);
        final ReceiveWorkRequest recv = new ReceiveWorkRequest().wrId(9);
        recv.sge(0).set(mr, 0, 64);
        qp.postRecv(recv);

        try (SoftWirePeer peer = new SoftWirePeer((SoftDevice)fixture.context.device(), qp.qpNum()))
        {
            peer.writeHeader(SoftFrameDescriptor.OP_SEND, 0, 0, SoftFrameDescriptor.PSN_MASK, 1_000_000_000,
                1_000_000_000);

            final var wc = SoftFixture.await(qp.recvCq());
            assertEquals(WcStatus.WR_FLUSH_ERR, wc.status());
            assertEquals(9, wc.wrId());
            assertEquals(QpState.ERR, qp.state());
            assertEquals(-1, peer.readUntilClosed(), "the soft device closed the link");
        }
    }
}
