package io.ibex.rdma.provider.disni;

import io.ibex.rdma.conformance.AllocationRounds;
import io.ibex.rdma.conformance.Loopback;
import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.QpType;
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

    private final AllocationRounds rounds = new AllocationRounds(WARM_UP, MEASURED, ROUNDS);
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

        rounds.assertRcAllocatesNothing(pair.a(), pair.b(), mr);
    }

    @Test
    void udSendReceiveAllocatesNothing()
    {
        final Loopback.QpPair pair = loopback.pair(QpType.UD);

        rounds.assertUdAllocatesNothing(pair.a(), pair.b(), loopback.ah(), Loopback.QKEY, mr);
    }
}
