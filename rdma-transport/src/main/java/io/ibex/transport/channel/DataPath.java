package io.ibex.transport.channel;

/**
 * What the send and receive paths share: a lock that keeps the data thread (writer or reader) and the connection
 * manager's thread apart ({@link PathLock}: uncontended and allocation-free on the hot path), the connection in
 * use, the first fatal completion seen on it, and the shut-down flag that lets a busy data thread finish before
 * the queues are freed.
 */
abstract class DataPath
{
    protected final PathLock lock = new PathLock();
    protected Connection connection;
    /**
     * Written under the lock, read without it: the connection manager looks every 20 ms, and taking the lock a
     * busy-polling data thread nearly always holds would have it back off and wake hundreds of times a second, each
     * wake preempting a polling thread when cores are few.
     */
    protected volatile String failure;
    protected boolean shutDown;

    /** Stops using the connection: nothing is posted from now on. */
    final void detach()
    {
        lock.lock();
        try
        {
            connection = null;
        }
        finally
        {
            lock.unlock();
        }
    }

    /** Ends the path before its queues are freed: a data thread inside a call finishes first. */
    final void shutDown()
    {
        lock.lock();
        try
        {
            shutDown = true;
        }
        finally
        {
            lock.unlock();
        }
    }

    /** @return why a completion failed (not a flush) since the connection was attached, or null. */
    final String failure()
    {
        return failure;
    }
}
