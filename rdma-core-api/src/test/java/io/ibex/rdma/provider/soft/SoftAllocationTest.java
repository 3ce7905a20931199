package io.ibex.rdma.provider.soft;

import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.WorkCompletion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.management.ManagementFactory;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

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
    private final WorkCompletion[] wcs = {new WorkCompletion(), new WorkCompletion()};

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
        iterate(a, b, send, write, recv, WARM_UP);
        assertSomeRoundAllocatesNothing("RC post/poll", () -> iterate(a, b, send, write, recv, MEASURED));
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
        udIterate(a, b, send, recv, WARM_UP);
        assertSomeRoundAllocatesNothing("UD post/poll", () -> udIterate(a, b, send, recv, MEASURED));
    }

    /**
     * Steady state means a whole round of {@link #MEASURED} iterations allocates nothing. A single round can
     * still see a few hundred bytes that are not the data path's: the JIT re-materialises scalar-replaced
     * objects when it deoptimises or swaps in OSR code, which depends on what ran earlier in the JVM. So a
     * round is retried a few times; a data path that allocates per operation fails every round.
     */
    private static void assertSomeRoundAllocatesNothing(final String what, final Runnable round)
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());
        final long[] allocated = new long[ROUNDS];
        for (int i = 0; i < ROUNDS; i++)
        {
            final long before = threads.getCurrentThreadAllocatedBytes();
            round.run();
            allocated[i] = threads.getCurrentThreadAllocatedBytes() - before;
            if (allocated[i] == 0)
            {
                return;
            }
        }
        fail("bytes allocated by each round of " + MEASURED + " iterations of " + what + ": " +
            Arrays.toString(allocated));
    }

    private void udIterate(
        final QueuePair a, final QueuePair b, final SendWorkRequest send, final ReceiveWorkRequest recv,
        final int iterations)
    {
        for (int i = 0; i < iterations; i++)
        {
            a.postSend(send);
            awaitOne(a.sendCq());
            awaitOne(b.recvCq());
            b.postRecv(recv);
        }
    }

    private void iterate(
        final QueuePair a,
        final QueuePair b,
        final SendWorkRequest send,
        final SendWorkRequest write,
        final ReceiveWorkRequest recv,
        final int iterations)
    {
        for (int i = 0; i < iterations; i++)
        {
            a.postSend(send);
            awaitOne(b.recvCq());
            b.postRecv(recv);
            awaitOne(a.sendCq());
            a.postSend(write);
            awaitOne(a.sendCq());
        }
    }

    private void awaitOne(final CompletionQueue cq)
    {
        final long deadline = System.nanoTime() + SoftFixture.WAIT_NANOS;
        while (cq.poll(wcs, 1) == 0)
        {
            if (System.nanoTime() - deadline > 0)
            {
                fail("no completion on " + cq);
            }
        }
        if (!wcs[0].isSuccess())
        {
            fail("completion failed: " + wcs[0]);
        }
    }
}
