package io.ibex.rdma.conformance;

import io.ibex.rdma.cm.CmEvent;
import io.ibex.rdma.cm.CmEventType;
import io.ibex.rdma.cm.EventChannel;
import io.ibex.rdma.verbs.AsyncEvent;
import io.ibex.rdma.verbs.AsyncEventType;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.WcOpcode;
import io.ibex.rdma.verbs.WcStatus;
import io.ibex.rdma.verbs.WorkCompletion;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Bounded waits: every wait ends after {@link Loopback#WAIT_MILLIS} with a failure saying what was awaited,
 * so no test can hang the build.
 */
public final class Await
{
    private static final long WAIT_NANOS = Loopback.WAIT_MILLIS * 1_000_000L;

    private Await()
    {
    }

    private static IdleStrategy idle()
    {
        return new BackoffIdleStrategy(100, 10, 1_000, 1_000_000);
    }

    /**
     * @param cq the CQ.
     * @return the next completion (a copy).
     */
    public static WorkCompletion completion(final CompletionQueue cq)
    {
        return completions(cq, 1)[0];
    }

    /**
     * Polls until exactly {@code count} completions arrived (polling at most that many).
     *
     * @param cq    the CQ.
     * @param count how many.
     * @return copies of the completions, in CQ order.
     */
    public static WorkCompletion[] completions(final CompletionQueue cq, final int count)
    {
        final WorkCompletion[] polled = new WorkCompletion[count];
        for (int i = 0; i < count; i++)
        {
            polled[i] = new WorkCompletion();
        }
        final WorkCompletion[] window = new WorkCompletion[1];
        final IdleStrategy idle = idle();
        final long deadline = System.nanoTime() + WAIT_NANOS;
        int received = 0;
        while (received < count)
        {
            window[0] = polled[received];
            final int n = cq.poll(window, 1);
            received += n;
            if (n == 0 && System.nanoTime() - deadline > 0)
            {
                fail("only " + received + " of " + count + " completions arrived within " + Loopback.WAIT_MILLIS +
                    " ms");
            }
            idle.idle(n);
        }
        return polled;
    }

    /**
     * Asserts the CQ stays empty for a while (used where the rule is that nothing may arrive).
     *
     * @param cq     the CQ.
     * @param millis how long to watch it.
     */
    public static void noCompletion(final CompletionQueue cq, final long millis)
    {
        final WorkCompletion[] wcs = {new WorkCompletion()};
        final IdleStrategy idle = idle();
        final long deadline = System.nanoTime() + millis * 1_000_000L;
        while (System.nanoTime() - deadline < 0)
        {
            if (cq.poll(wcs) != 0)
            {
                fail("expected no completion for " + millis + " ms, got " + wcs[0]);
            }
            idle.idle(0);
        }
    }

    /**
     * @param condition what must become true.
     * @param what      what is awaited, for the failure message.
     */
    public static void until(final BooleanSupplier condition, final String what)
    {
        final IdleStrategy idle = idle();
        final long deadline = System.nanoTime() + WAIT_NANOS;
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                fail("not within " + Loopback.WAIT_MILLIS + " ms: " + what);
            }
            idle.idle(0);
        }
    }

    /**
     * @param channel the event channel.
     * @param type    the event the next one must be.
     * @return the event.
     */
    public static CmEvent cmEvent(final EventChannel channel, final CmEventType type)
    {
        final CmEvent event = channel.getEvent(Loopback.WAIT_MILLIS);
        assertNotNull(event, "no rdma_cm event within " + Loopback.WAIT_MILLIS + " ms, expected " + type);
        assertEquals(type, event.type(), () -> "rdma_cm event " + event);
        return event;
    }

    /**
     * Waits for an asynchronous event of a type, skipping others (a device may report e.g. port events).
     *
     * @param context the context.
     * @param type    the type.
     * @return the event.
     */
    public static AsyncEvent asyncEvent(final Context context, final AsyncEventType type)
    {
        final long deadline = System.nanoTime() + WAIT_NANOS;
        while (System.nanoTime() - deadline < 0)
        {
            final AsyncEvent event = context.getAsyncEvent(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            if (event != null && event.type() == type)
            {
                return event;
            }
        }
        return fail("no " + type + " async event within " + Loopback.WAIT_MILLIS + " ms");
    }

    /**
     * @param wc     a completion.
     * @param wrId   the expected work request id.
     * @param opcode the expected opcode.
     */
    public static void assertSuccess(final WorkCompletion wc, final long wrId, final WcOpcode opcode)
    {
        assertEquals(WcStatus.SUCCESS, wc.status(), () -> "status of " + wc);
        assertEquals(wrId, wc.wrId(), () -> "wr_id of " + wc);
        assertEquals(opcode, wc.opcode(), () -> "opcode of " + wc);
    }

    /**
     * Asserts the completion of a send whose local SGE named a bad lkey (unknown, deregistered, or of another
     * PD). The IB spec and hardware report LOC_PROT_ERR; rxe's requester turns the EINVAL of its copy_data
     * into LOC_QP_OP_ERR (rxe_req.c), so either is accepted.
     *
     * @param wc   a completion.
     * @param wrId the expected work request id.
     */
    public static void assertBadLkey(final WorkCompletion wc, final long wrId)
    {
        assertEquals(wrId, wc.wrId(), () -> "wr_id of " + wc);
        assertTrue(wc.status() == WcStatus.LOC_PROT_ERR || wc.status() == WcStatus.LOC_QP_OP_ERR,
            () -> "expected LOC_PROT_ERR (or rxe's LOC_QP_OP_ERR) for a bad lkey, got " + wc);
    }

    /**
     * @param wc     a completion.
     * @param wrId   the expected work request id.
     * @param status the expected error status.
     */
    public static void assertStatus(final WorkCompletion wc, final long wrId, final WcStatus status)
    {
        assertEquals(status, wc.status(), () -> "status of " + wc);
        assertEquals(wrId, wc.wrId(), () -> "wr_id of " + wc);
    }
}
