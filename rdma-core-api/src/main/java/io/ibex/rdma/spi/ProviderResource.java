package io.ibex.rdma.spi;

import io.ibex.rdma.verbs.RdmaResource;
import io.ibex.rdma.verbs.VerbsException;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Provider support: the life cycle every verbs object of a provider shares, so that all providers keep the
 * same resource rules. Close is idempotent and first runs {@link #release()}, which may refuse (EBUSY, see
 * {@link #refuseWhileChildrenOpen()}); a parent knows its open children and closes them in
 * {@link #closeRank()} order when it must ({@code Context.close}); use after close throws an
 * {@link IllegalStateException} naming the object ({@link #ensureOpen()}); and each provider counts its open
 * objects for leak tests.
 * <p>
 * A root (a context) is counted with {@link #opened(ProviderResource)}; a child is counted and recorded by
 * its parent's {@link #adopt(ProviderResource)} once it is fully created, so a constructor that throws leaves
 * nothing behind, and it leaves its parent when its close succeeds.
 */
public abstract class ProviderResource implements RdmaResource
{
    private static final Comparator<ProviderResource> BY_CLOSE_RANK =
        Comparator.comparingInt(ProviderResource::closeRank);

    private final AtomicInteger live;
    private final ProviderResource parent;
    private final List<ProviderResource> children = new ArrayList<>();
    private volatile boolean closed;

    /**
     * A root object (a context), counted in its provider's live count.
     *
     * @param live the provider's count of open objects.
     */
    protected ProviderResource(final AtomicInteger live)
    {
        this.live = live;
        this.parent = null;
    }

    /**
     * A child object, counted in its parent's provider's live count once adopted.
     *
     * @param parent the object it is created from (its PD or context).
     */
    protected ProviderResource(final ProviderResource parent)
    {
        this.live = parent.live;
        this.parent = parent;
    }

    /**
     * Counts a fully created root object as open.
     *
     * @param root the new root object.
     * @param <T>  its type.
     * @return the object.
     */
    public static <T extends ProviderResource> T opened(final T root)
    {
        ((ProviderResource)root).live.incrementAndGet();
        return root;
    }

    /**
     * @return the object's name for messages, for example {@code QP 0x11}.
     */
    protected abstract String describe();

    /**
     * @return the order in which a parent closes its children: lower first.
     */
    protected abstract int closeRank();

    /**
     * Releases what the object holds; runs once, before it is marked closed. May throw to refuse, and then
     * the object stays open.
     */
    protected abstract void release();

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
        if (parent != null)
        {
            parent.forget(this);
        }
        live.decrementAndGet();
    }

    /**
     * @throws IllegalStateException naming the object when it is closed.
     */
    public final void ensureOpen()
    {
        if (closed)
        {
            throw new IllegalStateException(describe() + " is closed");
        }
    }

    @Override
    public String toString()
    {
        return describe();
    }

    /**
     * Records a fully created child of this object and counts it as open.
     *
     * @param child the new child.
     * @param <T>   its type.
     * @return the child.
     */
    protected final <T extends ProviderResource> T adopt(final T child)
    {
        synchronized (children)
        {
            children.add(child);
        }
        live.incrementAndGet();
        return child;
    }

    /**
     * For {@link #release()} of an object whose verb refuses while children live (ibv_dealloc_pd).
     *
     * @throws VerbsException EBUSY naming the children still open.
     */
    protected final void refuseWhileChildrenOpen()
    {
        synchronized (children)
        {
            if (children.isEmpty())
            {
                return;
            }
            final StringBuilder sb = new StringBuilder();
            for (final ProviderResource child : children)
            {
                sb.append(sb.length() > 0 ? ", " : "").append(child.describe());
            }
            throw new VerbsException(VerbsException.EBUSY, "cannot close " + describe() + ": still open: " + sb);
        }
    }

    /**
     * Closes the children (each with its own children first), in close-rank order: for {@link #release()}
     * of an object that closes what was created from it (a context).
     */
    protected final void closeChildren()
    {
        final List<ProviderResource> snapshot;
        synchronized (children)
        {
            snapshot = new ArrayList<>(children);
        }
        snapshot.sort(BY_CLOSE_RANK);
        for (final ProviderResource child : snapshot)
        {
            child.closeChildren();
            child.close();
        }
    }

    private void forget(final ProviderResource child)
    {
        synchronized (children)
        {
            children.remove(child);
        }
    }
}
