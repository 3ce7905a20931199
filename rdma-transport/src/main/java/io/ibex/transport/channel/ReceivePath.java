package io.ibex.transport.channel;

import io.ibex.rdma.verbs.CompletionChannel;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.PostException;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.VerbsException;
import io.ibex.rdma.verbs.WcStatus;
import io.ibex.rdma.verbs.WorkCompletion;
import io.ibex.transport.sample.Sample;
import io.ibex.transport.stats.ChannelStats;
import io.ibex.transport.stats.Counter;
import org.agrona.concurrent.EpochNanoClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reader's side of a channel: keeps receives posted (in.max_wrs - in.buffer_subtraction of them, the
 * headroom the C node-type leaves, but no more than in.cq_size: a disconnect flushes every one into the CQ),
 * polls up to in.vectorize completions per read, checks each byte count, stamps ts.received and hands the
 * samples up without copying; a batch's samples go back to the pool (and so to the receive queue) when the batch
 * is read into again.
 * <p>
 * A receive's work request id is the connection's generation (high 32 bits) and the slot: completions of a
 * connection already torn down are recognised and never mistaken for the current one's. Samples that arrived
 * before a disconnect are still handed up.
 * <p>
 * The reader thread calls read and release; the connection manager's thread attaches and detaches
 * connections. A lock (uncontended on the hot path) keeps the two apart.
 */
final class ReceivePath extends DataPath
{
    private static final Logger LOG = LoggerFactory.getLogger(ReceivePath.class);
    /** Receives are re-posted in lists of up to this many: one post per list, and the headroom allows it. */
    private static final int REPOST_BATCH = 16;

    private final SamplePool pool;
    private final CompletionQueue cq;
    private final ChannelStats stats;
    private final EpochNanoClock clock;
    private final boolean withGrh;
    private final int vectorize;
    private final int target;
    private final int repostBatch;
    private final int receiveLength;
    private final ReceiveWorkRequest[] wrs;
    private final WorkCompletion[] wcs;
    private final boolean[] postedSlots;
    private final int[] pendingSlots;
    private final int[] pendingLengths;
    private int pendingHead;
    private int pendingCount;
    private long receivedNanos; // the epoch time of the read under way, its samples' ts.received
    private volatile boolean peerSent;
    private int posted;
    private long generation;

    ReceivePath(final SamplePool pool, final CompletionQueue cq, final ChannelStats stats, final EpochNanoClock clock,
        final boolean withGrh, final int vectorize, final int target)
    {
        this.pool = pool;
        this.cq = cq;
        this.stats = stats;
        this.clock = clock;
        this.withGrh = withGrh;
        this.vectorize = vectorize;
        this.target = target;
        this.repostBatch = Math.max(1, Math.min(REPOST_BATCH, target / 4));
        this.receiveLength = (withGrh ? Sample.GRH_LENGTH : 0) + Sample.wireLength(pool.capacity());
        this.wrs = new ReceiveWorkRequest[target];
        for (int i = 0; i < target; i++)
        {
            wrs[i] = new ReceiveWorkRequest(1).numSge(1);
            if (i > 0)
            {
                wrs[i - 1].next(wrs[i]);
            }
        }
        this.wcs = new WorkCompletion[vectorize];
        for (int i = 0; i < vectorize; i++)
        {
            wcs[i] = new WorkCompletion();
        }
        this.postedSlots = new boolean[pool.slots()];
        this.pendingSlots = new int[pool.slots()];
        this.pendingLengths = new int[pool.slots()];
    }

    SamplePool pool()
    {
        return pool;
    }

    /**
     * Gives the batch's previous samples back, then fills it with up to in.vectorize received samples.
     *
     * @return how many samples the batch now holds.
     */
    int read(final SampleBatch batch)
    {
        lock.lock();
        try
        {
            batch.releaseInto(pool, "read");
            if (shutDown)
            {
                return 0;
            }
            final int wanted = Math.min(batch.capacity(), vectorize);
            if (pendingCount > 0)
            {
                receivedNanos = clock.nanoTime();
            }
            while (pendingCount > 0 && batch.size() < wanted)
            {
                final int slot = pendingSlots[pendingHead];
                final int byteLen = pendingLengths[pendingHead];
                pendingHead = (pendingHead + 1) % pendingSlots.length;
                pendingCount--;
                deliver(batch, slot, byteLen);
            }
            if (batch.size() < wanted)
            {
                final int polled = cq.poll(wcs, wanted - batch.size());
                if (polled > 0)
                {
                    receivedNanos = clock.nanoTime(); // once a read, as VILLAS's ib_read: all arrived by then
                }
                for (int i = 0; i < polled; i++)
                {
                    take(wcs[i], batch);
                }
            }
            if (!batch.isEmpty())
            {
                stats.onReceived(batch.samples(), 0, batch.size()); // before replenish, which may throw
            }
            if (connection != null && target - posted >= repostBatch)
            {
                replenish();
            }
            return batch.size();
        }
        finally
        {
            lock.unlock();
        }
    }

    /** Arms the CQ's completion event (event poll mode); a read after this sees anything that came before. */
    void armEvent()
    {
        lock.lock();
        try
        {
            if (!shutDown)
            {
                cq.requestNotify(false);
            }
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Waits for the armed completion event, outside the lock so the connection manager is never held up; a
     * channel closed by a concurrent stop ends the wait.
     */
    void awaitEvent(final CompletionChannel channel, final long timeoutMillis)
    {
        try
        {
            channel.getEvent(Math.max(1, timeoutMillis));
        }
        catch (final VerbsException ex)
        {
            if (!channel.isClosed())
            {
                throw ex;
            }
        }
    }

    /** Gives a batch's samples back to the pool (and so to the receive queue). */
    void release(final SampleBatch batch)
    {
        lock.lock();
        try
        {
            batch.releaseInto(pool, "read");
        }
        finally
        {
            lock.unlock();
        }
    }

    /** Takes a new connection: posts its receives at once, before the peer may send. */
    void attach(final Connection connection)
    {
        lock.lock();
        try
        {
            this.connection = connection;
            this.generation++;
            this.failure = null;
            this.peerSent = false;
            replenish();
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * @return whether a receive of the attached connection completed successfully: its peer's queue pair sent on
     *         this connection (read by the connection manager's thread).
     */
    boolean peerSent()
    {
        return peerSent;
    }

    /**
     * After the connection's QP is gone: keeps every sample that arrived for the reader, and gives back the
     * slots of receives that will never complete.
     */
    void drainAfterClose()
    {
        lock.lock();
        try
        {
            int polled;
            do
            {
                polled = cq.poll(wcs);
                for (int i = 0; i < polled; i++)
                {
                    take(wcs[i], null);
                }
            }
            while (polled == wcs.length);
            for (int slot = 0; slot < postedSlots.length; slot++)
            {
                if (postedSlots[slot])
                {
                    postedSlots[slot] = false;
                    pool.release(slot);
                }
            }
            posted = 0;
        }
        finally
        {
            lock.unlock();
        }
    }

    /** Handles one completion: into the batch, or (with no batch, while draining) into the pending queue. */
    private void take(final WorkCompletion wc, final SampleBatch batch)
    {
        final int slot = (int)wc.wrId();
        if ((wc.wrId() >>> 32) != generation || slot < 0 || slot >= postedSlots.length || !postedSlots[slot])
        {
            return; // a receive of a connection already torn down: its slot went back then
        }
        postedSlots[slot] = false;
        posted--;
        if (!wc.isSuccess())
        {
            if (wc.status() != WcStatus.WR_FLUSH_ERR)
            {
                stats.add(Counter.INVALID, 1);
                if (failure == null)
                {
                    failure = "a receive completed with " + wc.status() + " (vendor error " + wc.vendorErr() +
                        "): the peer sent more than " + receiveLength + " bytes or broke the connection";
                    LOG.warn("{}", failure);
                }
            }
            pool.release(slot);
            return;
        }
        if (!peerSent)
        {
            peerSent = true;
        }
        if (batch != null)
        {
            deliver(batch, slot, wc.byteLen());
        }
        else
        {
            final int tail = (pendingHead + pendingCount) % pendingSlots.length;
            pendingSlots[tail] = slot;
            pendingLengths[tail] = wc.byteLen();
            pendingCount++;
        }
    }

    private void deliver(final SampleBatch batch, final int slot, final int byteLen)
    {
        final Sample sample = batch.add(pool, slot);
        if (SampleWire.accept(sample, byteLen, withGrh, receivedNanos / 1_000_000_000L,
            receivedNanos % 1_000_000_000L))
        {
            return;
        }
        batch.removeLast();
        pool.release(slot);
        stats.add(Counter.INVALID, 1);
        if (LOG.isDebugEnabled())
        {
            LOG.debug("dropped a receive: {}", SampleWire.whyInvalid(byteLen, withGrh, pool.capacity()));
        }
    }

    /** Posts receives until the target is outstanding or the pool is empty, in one list. */
    private void replenish()
    {
        int count = 0;
        while (posted + count < target)
        {
            final int slot = pool.acquire();
            if (slot < 0)
            {
                break;
            }
            final ReceiveWorkRequest wr = wrs[count++];
            wr.wrId(generation << 32 | slot);
            wr.sge(0).set(withGrh ? pool.grhAddress(slot) : pool.wireAddress(slot), receiveLength, pool.mr().lkey());
            postedSlots[slot] = true;
        }
        if (count == 0)
        {
            return;
        }
        final ReceiveWorkRequest last = wrs[count - 1];
        final ReceiveWorkRequest after = last.next();
        last.next(null);
        try
        {
            connection.qp().postRecv(wrs[0]);
            posted += count;
            stats.add(Counter.POSTED_RECEIVES, count);
        }
        catch (final PostException ex)
        {
            final int accepted = Math.max(0, ex.badIndex());
            for (int i = accepted; i < count; i++)
            {
                final int slot = (int)wrs[i].wrId();
                postedSlots[slot] = false;
                pool.release(slot);
            }
            posted += accepted;
            stats.add(Counter.POSTED_RECEIVES, accepted);
            throw new ChannelException("posting " + count + " receives on " + connection + " failed at receive " +
                accepted + ": " + ex.getMessage(), ex);
        }
        finally
        {
            last.next(after);
        }
    }
}
