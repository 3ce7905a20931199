package io.ibex.rdma.provider.soft.wire;

import java.nio.channels.Selector;

/**
 * The thread that drives the links no application thread drives: a {@link SoftWire} it watches registers its socket
 * with its selector, or wakes it when bytes arrive in memory.
 */
public interface SoftWireWatcher
{
    /**
     * @return the selector the thread blocks in. Called on that thread only.
     */
    Selector selector();

    /**
     * Wakes the thread from its idle park. Any thread.
     */
    void wakeUp();
}
