package io.ibex.transport.channel;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The lock of a send or receive path. The data thread takes it once per call, nearly always uncontended: one
 * compare-and-set to take it and a release store to give it back, cheaper than a {@code ReentrantLock}'s pair
 * ({@code ChannelPartsBenchmark} sets the two side by side). The connection manager's thread takes it now and
 * then; whoever finds it held backs off (spin, yield, park) until it is free. Not reentrant; the uncontended
 * path allocates nothing.
 */
final class PathLock
{
    private final AtomicBoolean held = new AtomicBoolean();

    /** Takes the lock, waiting with a back-off while another thread holds it. */
    void lock()
    {
        if (!held.compareAndSet(false, true))
        {
            lockContended();
        }
    }

    /** Gives the lock back. */
    void unlock()
    {
        held.setRelease(false);
    }

    private void lockContended()
    {
        final IdleStrategy idle = new BackoffIdleStrategy(); // only while the other thread works: no hot path
        while (!held.compareAndSet(false, true))
        {
            idle.idle();
        }
    }
}
