package io.ibex.rdma.conformance;

import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
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

    private final WorkCompletion[] wcs = {new WorkCompletion()};

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
     * RC: a SEND into a receive that is re-posted, then an RDMA WRITE, each awaited.
     *
     * @param a          the requester.
     * @param b          the responder, with {@code recv} posted once before the first iteration.
     * @param send       a signaled SEND.
     * @param write      a signaled RDMA WRITE.
     * @param recv       the responder's receive.
     * @param iterations how many.
     */
    public void rc(
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

    /**
     * UD: a datagram into a receive that is re-posted.
     *
     * @param a          the sender.
     * @param b          the receiver, with {@code recv} posted once before the first iteration.
     * @param send       a signaled UD SEND to {@code b}.
     * @param recv       the receiver's receive.
     * @param iterations how many.
     */
    public void ud(
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
