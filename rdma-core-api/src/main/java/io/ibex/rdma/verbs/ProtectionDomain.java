package io.ibex.rdma.verbs;

import org.agrona.BufferUtil;

import java.nio.ByteBuffer;

/**
 * A protection domain, as {@code struct ibv_pd}: the parent of memory regions, queue pairs and address
 * handles. A work request may only use memory regions of its queue pair's protection domain.
 */
public interface ProtectionDomain extends RdmaResource
{
    /** The alignment of memory {@link #allocateMemory} allocates. */
    int PAGE_SIZE = 4096;

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
     * Allocates memory and registers it, for memory the caller need not place itself (ibex's sample pools): the
     * provider chooses where it lives. By default it is page-aligned direct memory; the soft provider places a region
     * peers may access in a shared-memory file when it links to processes of this host through shared memory, so
     * that their RDMA WRITEs and READs are copies into it rather than messages. Like a direct buffer's, the memory
     * lives as long as {@link MemoryRegion#buffer()} is referenced, also after the region is closed.
     *
     * @param length bytes, 1 to {@link Integer#MAX_VALUE} minus a page.
     * @param access a combination of {@link AccessFlags}.
     * @return the memory region; {@link MemoryRegion#buffer()} is its memory.
     */
    default MemoryRegion allocateMemory(final long length, final int access)
    {
        if (length <= 0 || length > Integer.MAX_VALUE - PAGE_SIZE)
        {
            throw new VerbsException(VerbsException.EINVAL, "cannot allocate a region of " + length +
                " bytes: 1 to " + (Integer.MAX_VALUE - PAGE_SIZE) + " bytes");
        }
        return registerMemory(BufferUtil.allocateDirectAligned((int)length, PAGE_SIZE), access);
    }

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
