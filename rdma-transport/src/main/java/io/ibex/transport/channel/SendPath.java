package io.ibex.transport.channel;

import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.PostException;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.WcStatus;
import io.ibex.rdma.verbs.WorkCompletion;
import io.ibex.transport.sample.Sample;
import io.ibex.transport.sample.SignalList;
import io.ibex.transport.stats.ChannelStats;
import io.ibex.transport.stats.Counter;
import org.agrona.BitUtil;

import java.util.ArrayList;
import java.util.List;

/**
 * The writer's side of a channel: claims samples from the send pool, posts them as one list of SENDs per
 * call (up to out.vectorize), inline where they fit, every n-th one signaled, and gives a sample back to the
 * pool only once the hardware is done with it (at its own or a later send's completion; inline ones at once).
 * <p>
 * Sends complete in order on a queue pair, so one signaled completion retires every send posted before it:
 * the in-flight ring holds each posted send's slot (-1 when inline) by its work request id, a running count.
 * At most {@code depth} sends are in flight (out.max_wrs, but no more than out.cq_size: a disconnect flushes every
 * one into the CQ, signaled or not), and one in at most depth / 2 is signaled, so a completion always comes.
 * <p>
 * The writer thread calls claim, write and release; the connection manager's thread attaches and detaches
 * connections, and takes the completions of its {@link Admission} probes, which share the CQ. A lock (uncontended
 * on the hot path) keeps the two apart.
 */
final class SendPath extends DataPath
{
    private static final int POLL_BATCH = 32;
    private static final long NO_MARKER = -1;

    private final SamplePool pool;
    private final CompletionQueue cq;
    private final ChannelStats stats;
    private final SignalList signals;
    private final int vectorize;
    private final int depth;
    private final int signalEvery;
    private final boolean sendInline;
    private final SendWorkRequest[] wrs;
    private final WorkCompletion[] wcs = new WorkCompletion[POLL_BATCH];
    private final SendWorkRequest marker = new SendWorkRequest(1).opcode(SendOpcode.SEND).numSge(0)
        .sendFlags(SendFlags.SIGNALED);
    private final int[] inFlight;
    /** Probe completions polled and not yet taken by the connection manager. */
    private final List<ProbeCompletion> probes = new ArrayList<>();
    private final int mask;
    private int maxInline;
    private int sinceSignaled;
    private int acceptedBeforeError;
    private boolean flushing;
    private long posted;
    private long retired;
    private long markerId = NO_MARKER;

    SendPath(final SamplePool pool, final CompletionQueue cq, final ChannelStats stats, final SignalList signals,
        final int vectorize, final int depth, final int signalEvery, final boolean sendInline)
    {
        this.pool = pool;
        this.cq = cq;
        this.stats = stats;
        this.signals = signals;
        this.vectorize = vectorize;
        this.depth = depth;
        this.signalEvery = signalEvery;
        this.sendInline = sendInline;
        this.wrs = new SendWorkRequest[vectorize];
        for (int i = 0; i < vectorize; i++)
        {
            wrs[i] = new SendWorkRequest(1).opcode(SendOpcode.SEND).numSge(1);
        }
        for (int i = 0; i < POLL_BATCH; i++)
        {
            wcs[i] = new WorkCompletion();
        }
        this.inFlight = new int[BitUtil.findNextPositivePowerOfTwo(depth)];
        this.mask = inFlight.length - 1;
    }

    SamplePool pool()
    {
        return pool;
    }

    /** @return the queue pair samples are posted on now, or null. */
    QueuePair queuePair()
    {
        lock.lock();
        try
        {
            return connection != null ? connection.qp() : null;
        }
        finally
        {
            lock.unlock();
        }
    }

    /** Fills the batch with up to {@code count} free samples, initialised from the signal list. */
    int claim(final SampleBatch batch, final int count)
    {
        lock.lock();
        try
        {
            batch.requireFrom(pool, "claim");
            if (shutDown)
            {
                return 0;
            }
            final int wanted = Math.min(count, batch.room());
            if (pool.freeSlots() < wanted)
            {
                reap();
            }
            int claimed = 0;
            while (claimed < wanted)
            {
                final int slot = pool.acquire();
                if (slot < 0)
                {
                    break;
                }
                batch.add(pool, slot).initialise(signals);
                claimed++;
            }
            return claimed;
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Posts samples from the front of the batch: as many as fit out.vectorize, the sends in flight and a connection.
     *
     * @return how many were taken (0 with no connection, or one a failed completion broke and the connection
     *     manager is about to drop: the samples stay in the batch).
     */
    int write(final SampleBatch batch)
    {
        lock.lock();
        try
        {
            if (batch.isEmpty())
            {
                return 0;
            }
            batch.requireFrom(pool, "write");
            if (connection == null || shutDown || failure != null || flushing)
            {
                // a failed connection, or one whose QP is in ERR (where a send only flushes, dropped), is the
                // connection manager's to drop: as if it were gone already
                return 0;
            }
            final int offered = Math.min(batch.size(), vectorize);
            if (depth - (int)(posted - retired) < offered)
            {
                reap(); // only when short of room: on the soft provider every poll also reads the socket
            }
            final int count = Math.min(offered, depth - (int)(posted - retired));
            if (count < offered)
            {
                stats.add(Counter.BACK_PRESSURED, offered - count);
            }
            if (count == 0)
            {
                return 0;
            }
            final int signaledBefore = sinceSignaled;
            for (int i = 0; i < count; i++)
            {
                prepare(i, batch.slot(i), batch.get(i));
            }
            wrs[count - 1].next(null);
            final String postError = post(count);
            final int accepted = postError == null ? count : acceptedBeforeError;
            for (int i = 0; i < accepted; i++)
            {
                final int slot = inFlight[(int)(posted + i) & mask];
                stats.onSent(batch.get(i));
                if (slot < 0)
                {
                    pool.release(batch.slot(i));
                }
            }
            posted += accepted;
            batch.removeFirst(accepted);
            if (postError != null)
            {
                sinceSignaled = (signaledBefore + accepted) % signalEvery;
                throw new ChannelException(postError);
            }
            return accepted;
        }
        finally
        {
            lock.unlock();
        }
    }

    /** Polls the CQ (the writer may not), then hands the probe completions found to the admission. */
    void reapProbes(final Admission admission)
    {
        lock.lock();
        try
        {
            reap();
            for (final ProbeCompletion probe : probes)
            {
                admission.completed(probe.wrId(), probe.status());
            }
            probes.clear();
        }
        finally
        {
            lock.unlock();
        }
    }

    /** Gives the batch's samples back to the pool unsent. */
    void release(final SampleBatch batch)
    {
        lock.lock();
        try
        {
            batch.releaseInto(pool, "release");
        }
        finally
        {
            lock.unlock();
        }
    }

    /** Starts sending on a connection whose QP can take this many inline bytes. */
    void attach(final Connection connection, final int maxInline)
    {
        lock.lock();
        try
        {
            this.connection = connection;
            this.maxInline = maxInline;
            this.sinceSignaled = 0;
            this.failure = null;
            this.flushing = false;
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * While the connection's QP is in ERR, before it is destroyed: waits (a bounded time) until every send in
     * flight is accounted for. In ERR each unfinished send completes with a flush error, signaled or not, but one
     * that went out unsignaled completes with nothing; so, as the kernel's ib_drain_sq does, a signaled marker
     * goes in behind them, and once its flush arrives every send before it was either flushed or went out.
     *
     * @param torn         the connection, detached already.
     * @param timeoutNanos how long to wait at most (all of it if the marker could not be posted).
     */
    void awaitFlushed(final Connection torn, final long timeoutNanos)
    {
        lock.lock();
        try
        {
            postMarker(torn);
            final long deadline = System.nanoTime() + timeoutNanos;
            long lastBefore = -1;
            while (retired < posted && System.nanoTime() - deadline < 0)
            {
                reap();
                if (retired < posted && retired == lastBefore)
                {
                    Thread.yield();
                }
                lastBefore = retired;
            }
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * After the connection's QP is gone: takes the completions left in the CQ, then retires the sends that
     * never completed as delivered: unsignaled sends that went out get no completion, and every send that did
     * not go out completed with a flush error, counted as dropped, while the QP was in ERR.
     */
    void drainAfterClose()
    {
        lock.lock();
        try
        {
            reap();
            retire(posted - 1, true);
            markerId = NO_MARKER;
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Posts the drain marker of {@link #awaitFlushed} if the QP is in ERR (else it would go out) and the CQ has
     * room for one more completion beyond the sends in flight (at most depth of them).
     */
    private void postMarker(final Connection torn)
    {
        final QueuePair qp = torn.qp();
        if (retired == posted || posted - retired >= depth || qp.state() != QpState.ERR)
        {
            return;
        }
        torn.address(marker.wrId(posted));
        try
        {
            qp.postSend(marker);
        }
        catch (final PostException ex)
        {
            return; // the bounded wait alone, then drainAfterClose, account for the rest
        }
        inFlight[(int)posted & mask] = -1;
        markerId = posted++;
    }

    private void prepare(final int index, final int slot, final Sample sample)
    {
        final int length = Sample.wireLength(sample.length());
        final boolean signaled = ++sinceSignaled >= signalEvery;
        if (signaled)
        {
            sinceSignaled = 0;
        }
        final boolean inline = sendInline && !signaled && length <= maxInline;
        final SendWorkRequest wr = wrs[index];
        wr.wrId(posted + index).sendFlags((signaled ? SendFlags.SIGNALED : 0) | (inline ? SendFlags.INLINE : 0));
        wr.sge(0).set(pool.wireAddress(slot), length, pool.mr().lkey());
        connection.address(wr);
        if (index + 1 < vectorize)
        {
            wr.next(wrs[index + 1]);
        }
        inFlight[(int)(posted + index) & mask] = inline ? -1 : slot;
    }

    /**
     * Posts the prepared list.
     *
     * @return null, or why the post failed; then {@link #acceptedBeforeError} sends were posted.
     */
    private String post(final int count)
    {
        try
        {
            connection.qp().postSend(wrs[0]);
            countFlags(count);
            return null;
        }
        catch (final PostException ex)
        {
            acceptedBeforeError = Math.max(0, ex.badIndex());
            countFlags(acceptedBeforeError);
            return "posting " + count + " sends on " + connection + " failed at send " + acceptedBeforeError +
                ": " + ex.getMessage();
        }
        finally
        {
            if (count < vectorize)
            {
                wrs[count - 1].next(wrs[count]);
            }
        }
    }

    private void countFlags(final int count)
    {
        int inline = 0;
        int signaled = 0;
        for (int i = 0; i < count; i++)
        {
            final int flags = wrs[i].sendFlags();
            inline += (flags & SendFlags.INLINE) != 0 ? 1 : 0;
            signaled += (flags & SendFlags.SIGNALED) != 0 ? 1 : 0;
        }
        stats.add(Counter.INLINE_SENDS, inline);
        stats.add(Counter.SIGNALED_SENDS, signaled);
    }

    /** Polls send completions; each retires every send up to its own. */
    private void reap()
    {
        int polled;
        do
        {
            polled = cq.poll(wcs);
            for (int i = 0; i < polled; i++)
            {
                final WorkCompletion wc = wcs[i];
                if ((wc.wrId() & Admission.PROBE) != 0)
                {
                    probes.add(new ProbeCompletion(wc.wrId(), wc.status()));
                    continue;
                }
                if (wc.wrId() == markerId)
                {
                    // flushed after every send before it: those without a flush went out; the marker (slot -1) is
                    // no sample, so nothing counts as dropped
                    retire(markerId, true);
                    markerId = NO_MARKER;
                    continue;
                }
                if (!wc.isSuccess() && wc.status() != WcStatus.WR_FLUSH_ERR && failure == null)
                {
                    failure = "send " + wc.wrId() + " completed with " + wc.status() + " (vendor error " +
                        wc.vendorErr() + ")";
                }
                if (!wc.isSuccess())
                {
                    flushing = true;
                    retire(wc.wrId() - 1, true); // sends complete in order: the unsignaled ones before it went out
                }
                retire(wc.wrId(), wc.isSuccess());
            }
        }
        while (polled == POLL_BATCH);
    }

    private void retire(final long upTo, final boolean delivered)
    {
        if (upTo < retired)
        {
            return; // a flush of a send already retired by a later completion
        }
        final long count = upTo + 1 - retired;
        for (long id = retired; id <= upTo; id++)
        {
            final int slot = inFlight[(int)id & mask];
            if (slot >= 0)
            {
                pool.release(slot);
            }
        }
        if (!delivered)
        {
            stats.add(Counter.DROPPED, count);
        }
        retired = upTo + 1;
    }

    private record ProbeCompletion(long wrId, WcStatus status)
    {
    }
}
