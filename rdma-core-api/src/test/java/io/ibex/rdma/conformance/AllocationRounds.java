package io.ibex.rdma.conformance;

import io.ibex.rdma.verbs.AddressHandle;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.WorkCompletion;

import java.lang.management.ManagementFactory;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The allocation tests of every provider: rounds of post/poll iterations on the calling thread, measured with
 * the thread's allocation counter.
 */
public final class AllocationRounds
{
    private static final long WAIT_NANOS = Loopback.WAIT_MILLIS * 1_000_000L;

    private static final int GRH = 40;
    private static final int MESSAGE = 64;

    private final WorkCompletion[] wcs = {new WorkCompletion()};
    private final int warmUp;
    private final int measured;
    private final int rounds;

    /**
     * @param warmUp   iterations before measuring.
     * @param measured iterations per measured round.
     * @param rounds   rounds to try (see {@link #assertSomeRoundAllocatesNothing}).
     */
    public AllocationRounds(final int warmUp, final int measured, final int rounds)
    {
        this.warmUp = warmUp;
        this.measured = measured;
        this.rounds = rounds;
    }

    /**
     * Steady state means a whole round allocates nothing. A single round can still see a few hundred bytes
     * that are not the data path's: the JIT re-materialises scalar-replaced objects when it deoptimises or
     * swaps in OSR code, which depends on what ran earlier in the JVM. So a round is retried a few times; a
     * data path that allocates per operation fails every round.
     *
     * @param what   what is measured, for the failure message.
     * @param rounds how many rounds to try.
     * @param round  one round.
     */
    public static void assertSomeRoundAllocatesNothing(final String what, final int rounds, final Runnable round)
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());
        final long[] allocated = new long[rounds];
        for (int i = 0; i < rounds; i++)
        {
            final long before = threads.getCurrentThreadAllocatedBytes();
            round.run();
            allocated[i] = threads.getCurrentThreadAllocatedBytes() - before;
            if (allocated[i] == 0)
            {
                return;
            }
        }
        fail("bytes allocated by each round of " + what + ": " + Arrays.toString(allocated));
    }

    /**
     * RC: a SEND into a receive that is re-posted, then an RDMA WRITE, each awaited; no round may allocate.
     *
     * @param a  the requester, connected to b.
     * @param b  the responder.
     * @param mr 4 KiB registered with LOCAL_WRITE and REMOTE_WRITE, in the QPs' PD.
     */
    public void assertRcAllocatesNothing(final QueuePair a, final QueuePair b, final MemoryRegion mr)
    {
        final SendWorkRequest send = new SendWorkRequest().wrId(1).sendFlags(SendFlags.SIGNALED);
        send.sge(0).set(mr, 0, MESSAGE);
        final SendWorkRequest write = new SendWorkRequest().wrId(2).opcode(SendOpcode.RDMA_WRITE)
            .sendFlags(SendFlags.SIGNALED).remote(mr.address() + 2048, mr.rkey());
        write.sge(0).set(mr, 128, MESSAGE);
        final ReceiveWorkRequest recv = new ReceiveWorkRequest().wrId(3);
        recv.sge(0).set(mr, 1024, MESSAGE);
        b.postRecv(recv);
        rc(a, b, send, write, recv, warmUp);
        assertSomeRoundAllocatesNothing(measured + " RC post/poll iterations", rounds,
            () -> rc(a, b, send, write, recv, measured));
    }

    /**
     * UD: a datagram into a receive that is re-posted; no round may allocate.
     *
     * @param a    the sender, in RTS.
     * @param b    the receiver, in RTS.
     * @param ah   an address handle of b's port.
     * @param qkey b's Q_Key.
     * @param mr   4 KiB registered with LOCAL_WRITE, in the QPs' PD.
     */
    public void assertUdAllocatesNothing(
        final QueuePair a, final QueuePair b, final AddressHandle ah, final int qkey, final MemoryRegion mr)
    {
        final SendWorkRequest send = new SendWorkRequest().wrId(1).sendFlags(SendFlags.SIGNALED)
            .ud(ah, b.qpNum(), qkey);
        send.sge(0).set(mr, 0, MESSAGE);
        final ReceiveWorkRequest recv = new ReceiveWorkRequest().wrId(3);
        recv.sge(0).set(mr, 1024, MESSAGE + GRH);
        b.postRecv(recv);
        ud(a, b, send, recv, warmUp);
        assertSomeRoundAllocatesNothing(measured + " UD post/poll iterations", rounds,
            () -> ud(a, b, send, recv, measured));
    }

    private void rc(
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

    private void ud(
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

    private void awaitOne(final CompletionQueue cq)
    {
        final long deadline = System.nanoTime() + WAIT_NANOS;
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
