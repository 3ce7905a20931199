package io.ibex.rdma.provider.soft;

import io.ibex.rdma.conformance.AllocationRounds;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Post send, post receive and poll allocate nothing in steady state (measured on the calling thread).
 */
@Timeout(60)
class SoftAllocationTest
{
    private static final int WARM_UP = 30_000;
    private static final int MEASURED = 10_000;
    private static final int ROUNDS = 5;

    private final SoftFixture fixture = new SoftFixture();
    private final AllocationRounds rounds = new AllocationRounds();

    @AfterEach
    void close()
    {
        fixture.close();
    }

    @Test
    void rcSendReceiveAndRdmaWriteAllocateNothing()
    {
        final QueuePair a = fixture.qp(QpType.RC, 16);
        final QueuePair b = fixture.qp(QpType.RC, 16);
        fixture.pair(a, b, 7);
        final MemoryRegion mr = fixture.register(4096);
        final SendWorkRequest send = new SendWorkRequest().wrId(1).sendFlags(SendFlags.SIGNALED);
        send.sge(0).set(mr, 0, 64);
        final SendWorkRequest write = new SendWorkRequest().wrId(2).opcode(SendOpcode.RDMA_WRITE)
            .sendFlags(SendFlags.SIGNALED).remote(mr.address() + 2048, mr.rkey());
        write.sge(0).set(mr, 128, 64);
        final ReceiveWorkRequest recv = new ReceiveWorkRequest().wrId(3);
        recv.sge(0).set(mr, 1024, 64);

        b.postRecv(recv);
        rounds.rc(a, b, send, write, recv, WARM_UP);
        AllocationRounds.assertSomeRoundAllocatesNothing(MEASURED + " RC post/poll iterations", ROUNDS,
            () -> rounds.rc(a, b, send, write, recv, MEASURED));
    }

    @Test
    void udSendReceiveAllocatesNothing()
    {
        final QueuePair a = fixture.qp(QpType.UD, 16);
        final QueuePair b = fixture.qp(QpType.UD, 16);
        SoftFixture.connect(a, null, 0, 0);
        SoftFixture.connect(b, null, 0, 0);
        final MemoryRegion mr = fixture.register(4096);
        final SendWorkRequest send = new SendWorkRequest().wrId(1).sendFlags(SendFlags.SIGNALED)
            .ud(fixture.pd.createAh(fixture.address()), b.qpNum(), SoftFixture.QKEY);
        send.sge(0).set(mr, 0, 64);
        final ReceiveWorkRequest recv = new ReceiveWorkRequest().wrId(3);
        recv.sge(0).set(mr, 1024, 64 + 40);
        b.postRecv(recv);
        rounds.ud(a, b, send, recv, WARM_UP);
        AllocationRounds.assertSomeRoundAllocatesNothing(MEASURED + " UD post/poll iterations", ROUNDS,
            () -> rounds.ud(a, b, send, recv, MEASURED));
    }
}
