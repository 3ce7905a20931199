package io.ibex.rdma.provider.disni;

import com.ibm.disni.verbs.IbvCompChannel;
import com.ibm.disni.verbs.impl.NatIbvCompChannel;
import io.ibex.rdma.spi.ProviderResource;
import io.ibex.rdma.verbs.CompletionChannel;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.VerbsException;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A completion channel DiSNI created (its fd non-blocking); events are read, and acknowledged at once, by
 * IbexNative, which says which CQ raised them.
 */
final class DisniCompletionChannel extends ProviderResource implements CompletionChannel
{
    private final DisniContext context;
    private final IbvCompChannel channel;
    private final long handle;
    private final Map<Long, DisniCompletionQueue> cqs = new ConcurrentHashMap<>();

    DisniCompletionChannel(final DisniContext context)
    {
        super(context);
        this.context = context;
        try
        {
            this.channel = context.verbs().createCompChannel();
        }
        catch (final IOException ex)
        {
            throw DisniErrors.verbs("ibv_create_comp_channel on " + context, ex);
        }
        this.handle = ((NatIbvCompChannel)channel).getObjId();
    }

    /**
     * @param deadline a System.nanoTime() deadline.
     * @return the milliseconds left until it, for a poll(2) timeout: 0 when past, at most Integer.MAX_VALUE.
     */
    static int remainingMillis(final long deadline)
    {
        final long left = deadline - System.nanoTime();
        return left <= 0 ? 0 : (int)Math.min(Integer.MAX_VALUE, (left + 999_999) / 1_000_000);
    }

    @Override
    public Context context()
    {
        return context;
    }

    /**
     * Waits until the deadline even when a signal or another thread's read ended one wait early.
     */
    @Override
    public CompletionQueue getEvent(final long timeoutMillis)
    {
        ensureOpen();
        final long deadline = System.nanoTime() + Math.max(0, timeoutMillis) * 1_000_000L;
        do
        {
            final long cq = IbexNative.getCqEvent(handle, remainingMillis(deadline));
            if (cq != 0)
            {
                return cqs.get(cq);
            }
        }
        while (System.nanoTime() - deadline < 0);
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
        try
        {
            channel.destroyCompChannel();
        }
        catch (final IOException ex)
        {
            throw DisniErrors.verbs("ibv_destroy_comp_channel of " + this, ex);
        }
    }
}
