package io.ibex.rdma.verbs;

import java.nio.ByteBuffer;

/**
 * A protection domain, as {@code struct ibv_pd}: the parent of memory regions, queue pairs and address
 * handles. A work request may only use memory regions of its queue pair's protection domain.
 */
public interface ProtectionDomain extends RdmaResource
{
    /**
     * @return the context this PD was allocated from.
     */
    Context context();

    /**
     * Registers the whole of a direct buffer, as {@code ibv_reg_mr}.
     *
     * @param buffer a direct byte buffer (position and limit are ignored: the whole capacity is registered).
     * @param access a combination of {@link AccessFlags}.
     * @return the memory region.
     */
    MemoryRegion registerMemory(ByteBuffer buffer, int access);

    /**
     * Registers an address range of native memory the caller owns and keeps alive while registered.
     *
     * @param address start address.
     * @param length  length in bytes.
     * @param access  a combination of {@link AccessFlags}.
     * @return the memory region.
     */
    MemoryRegion registerMemory(long address, long length, int access);

    /**
     * Creates a queue pair, as {@code ibv_create_qp}; it starts in {@link QpState#RESET}.
     *
     * @param initAttr type, completion queues and capabilities.
     * @return the queue pair; {@link QueuePair#capabilities()} tells what it actually got.
     */
    QueuePair createQp(QpInitAttr initAttr);

    /**
     * Creates an address handle for UD sends, as {@code ibv_create_ah}.
     *
     * @param attr destination.
     * @return the address handle.
     */
    AddressHandle createAh(AhAttr attr);
}
