package io.ibex.rdma.provider.disni;

import io.ibex.rdma.spi.ProviderChecks;
import io.ibex.rdma.spi.ProviderResource;
import io.ibex.rdma.verbs.CompletionChannel;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.VerbsException;
import io.ibex.rdma.verbs.WorkCompletion;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A completion queue made by IbexNative (DiSNI cannot make one without a completion channel). A poll is one
 * ibv_poll_cq into the CQ's own direct buffer of struct ibv_wc, read back into the caller's completions:
 * one JNI call, no allocation. One thread polls a CQ at a time, as the API requires.
 */
final class DisniCompletionQueue extends ProviderResource implements CompletionQueue
{
    /** Completions one poll reads at most: a poll may return fewer than are queued, as ibv_poll_cq may. */
    private static final int MAX_POLL = 64;

    private final DisniContext context;
    private final DisniCompletionChannel channel;
    private final long handle;
    private final int cqe;
    private final CompletionImages images;
    private final Set<DisniQueuePair> queuePairs = ConcurrentHashMap.newKeySet();

    DisniCompletionQueue(final DisniContext context, final int cqe, final DisniCompletionChannel channel,
        final int compVector)
    {
        super(context);
        this.context = context;
        this.channel = channel;
        this.handle = IbexNative.createCq(context.disniDevice().handle(), channel == null ? 0 : channel.handle(),
            cqe, compVector);
        this.cqe = IbexNative.cqEntries(handle);
        this.images = new CompletionImages(Math.max(1, Math.min(this.cqe, MAX_POLL)));
        if (channel != null)
        {
            channel.attach(this);
        }
        context.disniDevice().register(this);
    }

    @Override
    public Context context()
    {
        return context;
    }

    @Override
    public int cqe()
    {
        return cqe;
    }

    @Override
    public CompletionChannel channel()
    {
        return channel;
    }

    @Override
    public int poll(final WorkCompletion[] wcs)
    {
        return poll(wcs, wcs.length);
    }

    @Override
    public int poll(final WorkCompletion[] wcs, final int max)
    {
        ensureOpen();
        ProviderChecks.requirePollRange(wcs, max);
        if (max == 0)
        {
            return 0;
        }
        final int polled = IbexNative.pollCq(handle, Math.min(max, images.capacity()), images.address());
        for (int i = 0; i < polled; i++)
        {
            images.read(i, wcs[i]);
        }
        return polled;
    }

    @Override
    public void requestNotify(final boolean solicitedOnly)
    {
        ensureOpen();
        IbexNative.reqNotifyCq(handle, solicitedOnly);
    }

    long handle()
    {
        return handle;
    }

    DisniContext disniContext()
    {
        return context;
    }

    void attach(final DisniQueuePair qp)
    {
        queuePairs.add(qp);
    }

    void detach(final DisniQueuePair qp)
    {
        queuePairs.remove(qp);
    }

    @Override
    protected String describe()
    {
        return "CQ 0x" + Long.toHexString(handle) + " of " + context.disniDevice().name();
    }

    @Override
    protected int closeRank()
    {
        return 1;
    }

    @Override
    protected void release()
    {
        if (!queuePairs.isEmpty())
        {
            throw new VerbsException(VerbsException.EBUSY, "cannot close " + this + ": still used by " + queuePairs);
        }
        IbexNative.destroyCq(handle);
        if (channel != null)
        {
            channel.detach(this);
        }
        context.disniDevice().unregister(this);
    }
}
