package io.ibex.rdma.provider.soft;

import io.ibex.rdma.verbs.RdmaResource;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What every soft verbs object shares: an idempotent close that first releases what the object holds
 * (and may refuse with EBUSY), the children created from it, a live count for leak tests, and a check
 * that turns use after close into an {@link IllegalStateException} naming the object.
 */
abstract class SoftResource implements RdmaResource
{
    private static final AtomicInteger LIVE = new AtomicInteger();
    private static final Comparator<SoftResource> BY_CLOSE_RANK = Comparator.comparingInt(SoftResource::closeRank);

    private final List<SoftResource> children = new ArrayList<>();
    private volatile boolean closed;

    /**
     * Counts a resource as open once it is fully created (a constructor that throws leaves nothing counted).
     *
     * @param resource the new resource.
     * @param <T>      its type.
     * @return the resource.
     */
    static <T extends SoftResource> T opened(final T resource)
    {
        LIVE.incrementAndGet();
        return resource;
    }

    /**
     * @return how many soft resources are open in this JVM.
     */
    static int liveCount()
    {
        return LIVE.get();
    }

    /**
     * @return the object's name for messages, for example {@code QP 0x11}.
     */
    abstract String describe();

    /**
     * @return the order in which a parent closes its children: lower first.
     */
    abstract int closeRank();

    /**
     * Releases what the object holds; runs once, before it is marked closed. May throw to refuse.
     */
    abstract void release();

    @Override
    public final boolean isClosed()
    {
        return closed;
    }

    @Override
    public final void close()
    {
        synchronized (this)
        {
            if (closed)
            {
                return;
            }
            release();
            closed = true;
        }
        LIVE.decrementAndGet();
    }

    final void ensureOpen()
    {
        if (closed)
        {
            throw new IllegalStateException(describe() + " is closed");
        }
    }

    /**
     * Records a fully created child, which also counts it as open.
     */
    final void addChild(final SoftResource child)
    {
        synchronized (children)
        {
            children.add(opened(child));
        }
    }

    final void removeChild(final SoftResource child)
    {
        synchronized (children)
        {
            children.remove(child);
        }
    }

    /**
     * @return the names of the children still open, or an empty string.
     */
    final String openChildren()
    {
        synchronized (children)
        {
            final StringBuilder sb = new StringBuilder();
            for (final SoftResource child : children)
            {
                sb.append(sb.length() > 0 ? ", " : "").append(child.describe());
            }
            return sb.toString();
        }
    }

    /**
     * Closes the children (each with its own children first), in close-rank order.
     */
    final void closeChildren()
    {
        final List<SoftResource> snapshot;
        synchronized (children)
        {
            snapshot = new ArrayList<>(children);
        }
        snapshot.sort(BY_CLOSE_RANK);
        for (final SoftResource child : snapshot)
        {
            child.closeChildren();
            child.close();
        }
    }
}
