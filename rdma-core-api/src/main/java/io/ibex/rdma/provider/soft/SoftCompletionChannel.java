package io.ibex.rdma.provider.soft;

import io.ibex.rdma.spi.ProviderResource;
import io.ibex.rdma.verbs.CompletionChannel;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.VerbsException;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A soft completion channel: armed CQs put themselves here once per arming. A thread waiting on it hands
 * the CQs' QPs to the progress thread at once, so event mode needs nobody polling.
 */
final class SoftCompletionChannel extends ProviderResource implements CompletionChannel
{
    private static final AtomicInteger IDS = new AtomicInteger();

    private final SoftContext context;
    private final int id = IDS.incrementAndGet();
    private final CopyOnWriteArrayList<SoftCompletionQueue> cqs = new CopyOnWriteArrayList<>();
    private final BlockingQueue<SoftCompletionQueue> events = new ArrayBlockingQueue<>(SoftDevice.MAX_CQE);

    SoftCompletionChannel(final SoftContext context)
    {
        super(context);
        this.context = context;
    }

    @Override
    public Context context()
    {
        return context;
    }

    @Override
    public CompletionQueue getEvent(final long timeoutMillis)
    {
        ensureOpen();
        SoftCompletionQueue cq = events.poll();
        if (cq == null && timeoutMillis > 0)
        {
            for (final SoftCompletionQueue waitedOn : cqs)
            {
                waitedOn.handOverToProgress();
            }
            context.softDevice().progress().wakeUp();
            try
            {
                cq = events.poll(timeoutMillis, TimeUnit.MILLISECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
        return cq;
    }

    void attach(final SoftCompletionQueue cq)
    {
        cqs.add(cq);
    }

    void detach(final SoftCompletionQueue cq)
    {
        cqs.remove(cq);
        events.remove(cq);
    }

    void raise(final SoftCompletionQueue cq)
    {
        events.offer(cq);
    }

    @Override
    protected String describe()
    {
        return "completion channel #" + id;
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
            throw new VerbsException(VerbsException.EBUSY, "cannot close " + describe() + ": still used by " + cqs);
        }
    }
}
