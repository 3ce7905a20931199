package io.ibex.rdma.provider.disni;

import io.ibex.rdma.spi.ProviderResource;
import io.ibex.rdma.verbs.CompletionChannel;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.VerbsException;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A completion channel (its fd non-blocking); events are read, and acknowledged at once, by
 * IbexNative, which says which CQ raised them.
 */
final class DisniCompletionChannel extends ProviderResource implements CompletionChannel
{
    /** The longest one poll(2) of a waiter lasts: a close waits for the waiter this long at most. */
    static final int WAIT_SLICE_MILLIS = 100;

    private final DisniContext context;
    private final long handle;
    private final Map<Long, DisniCompletionQueue> cqs = new ConcurrentHashMap<>();
    /** Held while waiting on the channel's fd, so that close never destroys the channel under a waiter. */
    private final Object waitLock = new Object();
    /** Set by close: a waiter gives up at its next slice, so close waits a slice at most. */
    private volatile boolean closing;
    private boolean destroyed;

    DisniCompletionChannel(final DisniContext context)
    {
        super(context);
        this.context = context;
        this.handle = IbexNative.createCompChannel(context.disniDevice().handle());
    }

    /**
     * @param deadline a System.nanoTime() deadline.
     * @return the milliseconds of the next poll(2) towards it: what is left, 0 when past, but at most
     *         {@link #WAIT_SLICE_MILLIS}, so that a waiter notices a close in time.
     */
    static int sliceMillis(final long deadline)
    {
        final long left = deadline - System.nanoTime();
        return left <= 0 ? 0 : (int)Math.min(WAIT_SLICE_MILLIS, (left + 999_999) / 1_000_000);
    }

    @Override
    public Context context()
    {
        return context;
    }

    /**
     * Waits until the deadline even when a signal or another thread's read ended one wait early. One thread
     * waits at a time; a close from another thread ends the wait within {@link #WAIT_SLICE_MILLIS} (null, as
     * for a timeout) and only then destroys the channel.
     */
    @Override
    public CompletionQueue getEvent(final long timeoutMillis)
    {
        ensureOpen();
        final long deadline = System.nanoTime() + Math.max(0, timeoutMillis) * 1_000_000L;
        synchronized (waitLock)
        {
            if (destroyed)
            {
                throw new IllegalStateException(this + " is closed");
            }
            do
            {
                if (closing)
                {
                    return null;
                }
                final long cq = IbexNative.getCqEvent(handle, sliceMillis(deadline));
                if (cq != 0)
                {
                    return cqs.get(cq);
                }
            }
            while (System.nanoTime() - deadline < 0);
        }
        return null;
    }

    long handle()
    {
        return handle;
    }

    void attach(final DisniCompletionQueue cq)
    {
        cqs.put(cq.handle(), cq);
    }

    void detach(final DisniCompletionQueue cq)
    {
        cqs.remove(cq.handle(), cq);
    }

    @Override
    protected String describe()
    {
        return "completion channel 0x" + Long.toHexString(handle) + " of " + context.disniDevice().name();
    }

    @Override
    protected int closeRank()
    {
        return 2;
    }

    @Override
    protected void release()
    {
        if (!cqs.isEmpty())
        {
            throw new VerbsException(VerbsException.EBUSY, "cannot close " + this + ": still used by " + cqs.values());
        }
        closing = true;
        synchronized (waitLock)
        {
            IbexNative.destroyCompChannel(handle);
            destroyed = true;
        }
    }
}
