package io.ibex.rdma.provider.disni;

import io.ibex.rdma.conformance.AllocationRounds;
import io.ibex.rdma.conformance.Loopback;
import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * On rxe0: post send, post receive and poll allocate nothing in steady state (measured on the calling
 * thread), as SoftAllocationTest checks for soft. Fewer iterations than there, sized for the emulated guest.
 */
@Tag("verbs")
@Timeout(300)
class DisniAllocationTest
{
    private static final int WARM_UP = 3_000;
    private static final int MEASURED = 1_000;
    private static final int ROUNDS = 5;
    private static final int GRH = 40;

    private final AllocationRounds rounds = new AllocationRounds();
    private Loopback loopback;
    private MemoryRegion mr;

    @BeforeEach
    void open()
    {
        loopback = Loopback.open();
        assertEquals(DisniProvider.NAME, loopback.provider().name());
        mr = loopback.track(loopback.pd().registerMemory(ByteBuffer.allocateDirect(4096),
            AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE));
    }

    @AfterEach
    void close()
    {
        loopback.close();
    }

    @Test
    void rcSendReceiveAndRdmaWriteAllocateNothing()
    {
        final Loopback.QpPair pair = loopback.pair(QpType.RC);
        final SendWorkRequest send = new SendWorkRequest().wrId(1).sendFlags(SendFlags.SIGNALED);
        send.sge(0).set(mr, 0, 64);
        final SendWorkRequest write = new SendWorkRequest().wrId(2).opcode(SendOpcode.RDMA_WRITE)
            .sendFlags(SendFlags.SIGNALED).remote(mr.address() + 2048, mr.rkey());
        write.sge(0).set(mr, 128, 64);
        final ReceiveWorkRequest recv = new ReceiveWorkRequest().wrId(3);
        recv.sge(0).set(mr, 1024, 64);

        pair.b().postRecv(recv);
        rounds.rc(pair.a(), pair.b(), send, write, recv, WARM_UP);
        AllocationRounds.assertSomeRoundAllocatesNothing(MEASURED + " RC post/poll iterations", ROUNDS,
            () -> rounds.rc(pair.a(), pair.b(), send, write, recv, MEASURED));
    }

    @Test
    void udSendReceiveAllocatesNothing()
    {
        final Loopback.QpPair pair = loopback.pair(QpType.UD);
        final SendWorkRequest send = new SendWorkRequest().wrId(1).sendFlags(SendFlags.SIGNALED)
            .ud(loopback.ah(), pair.b().qpNum(), Loopback.QKEY);
        send.sge(0).set(mr, 0, 64);
        final ReceiveWorkRequest recv = new ReceiveWorkRequest().wrId(3);
        recv.sge(0).set(mr, 1024, 64 + GRH);

        pair.b().postRecv(recv);
        rounds.ud(pair.a(), pair.b(), send, recv, WARM_UP);
        AllocationRounds.assertSomeRoundAllocatesNothing(MEASURED + " UD post/poll iterations", ROUNDS,
            () -> rounds.ud(pair.a(), pair.b(), send, recv, MEASURED));
    }
}
