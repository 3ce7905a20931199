package io.ibex.rdma.verbs;

import java.nio.ByteBuffer;

/**
 * A registered memory region, as {@code struct ibv_mr}. The lkey names it in local scatter/gather entries,
 * the rkey lets a peer access it remotely (with the matching access flags). Close it to deregister.
 */
public interface MemoryRegion extends RdmaResource
{
    /**
     * @return the protection domain the region belongs to.
     */
    ProtectionDomain pd();

    /**
     * @return the start address.
     */
    long address();

    /**
     * @return the length in bytes.
     */
    long length();

    /**
     * @return the local key.
     */
    int lkey();

    /**
     * @return the remote key.
     */
    int rkey();

    /**
     * @return the {@link AccessFlags} the region was registered with.
     */
    int access();

    /**
     * @return the direct buffer that was registered, or null when an address range was registered.
     */
    ByteBuffer buffer();
}
