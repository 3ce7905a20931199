package io.ibex.rdma.verbs;

/**
 * A verbs resource. Closing is idempotent; using a resource after close throws
 * {@link IllegalStateException} naming the resource.
 */
public interface RdmaResource extends AutoCloseable
{
    /**
     * @return true once {@link #close()} has completed.
     */
    boolean isClosed();

    /**
     * Releases the resource. Fails with {@link VerbsException} ({@code EBUSY}) while resources created
     * from it are still open, as the C verbs do.
     */
    @Override
    void close();
}
