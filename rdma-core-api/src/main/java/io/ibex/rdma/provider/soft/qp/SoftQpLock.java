package io.ibex.rdma.provider.soft.qp;

import java.util.concurrent.locks.ReentrantLock;

/**
 * The lock of a {@link SoftQueuePair}, which guards the QP and all its parts. Its holders never block while they hold
 * it, so a poster {@link #acquire acquires} it by spinning before it parks; a driver only tries it and moves on.
 */
final class SoftQpLock extends ReentrantLock
{
    private static final long serialVersionUID = 1L;
    private static final int ACQUIRE_SPINS = 100;
    private static final int ACQUIRE_YIELDS = 100;

    /**
     * Takes the lock. Spins on tryLock first (a contended lock() allocates); then yields, in case the holder was
     * preempted on a busy core; only then parks.
     */
    void acquire()
    {
        for (int attempt = 0; !tryLock(); attempt++)
        {
            if (attempt < ACQUIRE_SPINS)
            {
                Thread.onSpinWait();
            }
            else if (attempt < ACQUIRE_SPINS + ACQUIRE_YIELDS)
            {
                Thread.yield();
            }
            else
            {
                lock();
                return;
            }
        }
    }
}
