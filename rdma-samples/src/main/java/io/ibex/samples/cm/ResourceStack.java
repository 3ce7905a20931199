package io.ibex.samples.cm;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The resources a program created, closed in the reverse order of creation: memory regions and address
 * handles before their queue pair, the queue pair before its completion queue, both before the protection
 * domain, the connection id after every device resource, the event channel last, as the librdmacm examples
 * tear down. Closing goes on past a failure, so one bad close leaks nothing else.
 */
public final class ResourceStack implements AutoCloseable
{
    private final Deque<AutoCloseable> resources = new ArrayDeque<>();

    /**
     * @param resource a resource just created.
     * @param <T>      its type.
     * @return the resource.
     */
    public <T extends AutoCloseable> T push(final T resource)
    {
        resources.push(resource);
        return resource;
    }

    /**
     * Closes every resource, the newest first.
     *
     * @throws IllegalStateException carrying the first failure (later ones suppressed) if any close failed.
     */
    @Override
    public void close()
    {
        RuntimeException failure = null;
        while (!resources.isEmpty())
        {
            final AutoCloseable resource = resources.pop();
            try
            {
                resource.close();
            }
            catch (final Exception ex)
            {
                if (failure == null)
                {
                    failure = new IllegalStateException("cannot release " + resource + ": " + ex.getMessage(), ex);
                }
                else
                {
                    failure.addSuppressed(ex);
                }
            }
        }
        if (failure != null)
        {
            throw failure;
        }
    }
}
