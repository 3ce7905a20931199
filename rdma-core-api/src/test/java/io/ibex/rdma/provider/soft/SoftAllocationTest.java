package io.ibex.rdma.provider.soft;

import io.ibex.rdma.conformance.AllocationRounds;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
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
    private final AllocationRounds rounds = new AllocationRounds(WARM_UP, MEASURED, ROUNDS);

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

        rounds.assertRcAllocatesNothing(a, b, fixture.register(4096));
    }

    @Test
    void udSendReceiveAllocatesNothing()
    {
        final QueuePair a = fixture.qp(QpType.UD, 16);
        final QueuePair b = fixture.qp(QpType.UD, 16);
        SoftFixture.connect(a, null, 0, 0);
        SoftFixture.connect(b, null, 0, 0);

        rounds.assertUdAllocatesNothing(a, b, fixture.pd.createAh(fixture.address()), SoftFixture.QKEY,
            fixture.register(4096));
    }
}
