package io.ibex.samples.cm;

import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.WcOpcode;
import io.ibex.rdma.verbs.WcStatus;
import io.ibex.rdma.verbs.WorkCompletion;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.TimeUnit;

/**
 * Awaits the completions of one connection's queue pair while watching its connection manager, so a peer that
 * disconnects or dies ends the wait at once with a message naming what was awaited, and a peer that goes
 * silent ends it after the time limit. Successful SEND completions that come while something else is awaited
 * are passed over, as the C examples' completion handlers do. A receive that completes while something else is
 * awaited (the peer's reply can complete before this side's SEND does: its ACK comes later) is kept for the
 * next wait for a RECV; a second one before that is an error, as is any other unexpected opcode.
 */
public final class CompletionWatch
{
    private static final long SPINS = 100;
    private static final long YIELDS = 10;
    private static final long MIN_PARK_NS = TimeUnit.MICROSECONDS.toNanos(1);
    private static final long MAX_PARK_NS = TimeUnit.MICROSECONDS.toNanos(500);
    /**
     * How long completions are still taken after the DISCONNECTED event: rxe completes work in a deferred task and
     * the event comes another way, so the completion of a SEND the peer acknowledged before it disconnected can come
     * after the event; and the QP, moved to ERR, flushes what is left meanwhile.
     */
    private static final long DISCONNECT_GRACE_NS = TimeUnit.MILLISECONDS.toNanos(200);

    private final QueuePair qp;
    private final CompletionQueue cq;
    private final CmSequence cm;
    private final WorkCompletion[] polled = { new WorkCompletion() };
    private final WorkCompletion earlyReceive = new WorkCompletion();
    private boolean hasEarlyReceive;
    private final IdleStrategy idle = new BackoffIdleStrategy(SPINS, YIELDS, MIN_PARK_NS, MAX_PARK_NS);

    /**
     * @param qp the queue pair, whose send and receive completions both go to {@code cq}.
     * @param cq the completion queue.
     * @param cm the connection manager of the queue pair's connection.
     */
    public CompletionWatch(final QueuePair qp, final CompletionQueue cq, final CmSequence cm)
    {
        this.qp = qp;
        this.cq = cq;
        this.cm = cm;
    }

    /**
     * Polls until a successful completion of the expected opcode arrives.
     *
     * @param expected the opcode.
     * @param awaited  what it means, for the error message, e.g. "the client's sink buffer (ping 3)".
     * @return the completion; valid until the next call.
     * @throws PeerDisconnectedException if the peer disconnected, or a flushed completion shows the connection
     *                                   is down.
     * @throws IllegalStateException     on an error completion, an unexpected opcode, or nothing in time.
     */
    public WorkCompletion await(final WcOpcode expected, final String awaited)
    {
        if (hasEarlyReceive && expected == WcOpcode.RECV)
        {
            hasEarlyReceive = false;
            return earlyReceive;
        }
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(cm.timeoutMillis());
        idle.reset();
        PeerDisconnectedException disconnected = null;
        long disconnectedAt = 0;
        while (true)
        {
            if (cq.poll(polled, 1) == 1)
            {
                final WorkCompletion wc = polled[0];
                check(wc, expected, awaited);
                if (wc.opcode() == expected)
                {
                    return wc;
                }
                if (wc.opcode() == WcOpcode.RECV)
                {
                    earlyReceive.copyFrom(wc);
                    hasEarlyReceive = true;
                }
                continue; // a SEND completion passing by, or a receive kept for later
            }
            if (disconnected != null)
            {
                if (System.nanoTime() - disconnectedAt > DISCONNECT_GRACE_NS)
                {
                    throw disconnected;
                }
                idle.idle();
                continue;
            }
            try
            {
                cm.pollStray(awaited);
            }
            catch (final PeerDisconnectedException ex)
            {
                // What the peer sent or acknowledged before it disconnected completes around its DISCONNECTED
                // event (a server replies, sees its SEND acknowledged, then disconnects): take it before giving up.
                disconnected = ex;
                disconnectedAt = System.nanoTime();
                continue;
            }
            if (System.nanoTime() - deadline > 0)
            {
                throw new IllegalStateException(String.format(
                    "nothing came within %d ms while awaiting %s: no completion on QP 0x%06x (%s)",
                    cm.timeoutMillis(), awaited, qp.qpNum(), qp.state()));
            }
            idle.idle();
        }
    }

    private void check(final WorkCompletion wc, final WcOpcode expected, final String awaited)
    {
        if (wc.status() == WcStatus.WR_FLUSH_ERR)
        {
            throw new PeerDisconnectedException(String.format(
                "the connection went down while awaiting %s: QP 0x%06x flushed work request %d", awaited,
                wc.qpNum(), wc.wrId()));
        }
        if (!wc.isSuccess())
        {
            throw new IllegalStateException(String.format(
                "work request %d on QP 0x%06x failed while awaiting %s: status %s, vendor_err 0x%x", wc.wrId(),
                wc.qpNum(), awaited, wc.status(), wc.vendorErr()));
        }
        final boolean keepable = wc.opcode() == WcOpcode.RECV && !hasEarlyReceive;
        if (wc.opcode() != expected && wc.opcode() != WcOpcode.SEND && !keepable)
        {
            throw new IllegalStateException("awaiting " + awaited + " (" + expected + "), got a " + wc.opcode() +
                " completion");
        }
    }
}
