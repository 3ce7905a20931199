package io.ibex.transport.channel;

import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.transport.sample.Sample;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A fixed number of sample slots in one buffer registered with a protection domain, as the C node-type's
 * {@code ib} memory type: work requests point into the slots with the region's lkey, so nothing is copied.
 * Slots are handed out by index ({@link #acquire()}) and given back ({@link #release(int)}) once the hardware
 * is done with them.
 * <p>
 * Not thread safe: one thread acquires and releases (a channel has one pool per direction). Allocates nothing
 * after construction.
 */
final class SamplePool implements AutoCloseable
{
    private final int capacity;
    private final int slotLength;
    private final UnsafeBuffer memory;
    private final MemoryRegion mr;
    private final int[] free;
    private final boolean[] taken;
    private int freeCount;

    /**
     * Has the provider allocate page-aligned memory for the slots and register it
     * ({@link ProtectionDomain#allocateMemory}): on the soft provider, a pool peers may access lives in shared memory,
     * where a peer process of this host copies into it directly.
     *
     * @param pd       the protection domain.
     * @param slots    how many samples, at least 1.
     * @param capacity values each sample can carry.
     * @param access   the region's access flags ({@link io.ibex.rdma.verbs.AccessFlags}): LOCAL_WRITE for receive
     *                 pools; remote access only where a feature needs it.
     */
    SamplePool(final ProtectionDomain pd, final int slots, final int capacity, final int access)
    {
        if (slots < 1)
        {
            throw new IllegalArgumentException("a sample pool needs at least 1 slot, not " + slots);
        }
        this.capacity = capacity;
        this.slotLength = Sample.slotLength(capacity);
        if ((long)slots * slotLength > Integer.MAX_VALUE - ProtectionDomain.PAGE_SIZE)
        {
            throw new IllegalArgumentException(slots + " slots of " + slotLength + " bytes exceed 2 GiB");
        }
        this.mr = pd.allocateMemory((long)slots * slotLength, access);
        this.memory = new UnsafeBuffer(mr.buffer());
        this.free = new int[slots];
        this.taken = new boolean[slots];
        for (int i = 0; i < slots; i++)
        {
            free[i] = slots - 1 - i; // slot 0 is handed out first
        }
        this.freeCount = slots;
    }

    /**
     * @return the index of a free slot, now taken, or -1 if every slot is taken.
     */
    int acquire()
    {
        if (freeCount == 0)
        {
            return -1;
        }
        final int slot = free[--freeCount];
        taken[slot] = true;
        return slot;
    }

    /**
     * Gives a slot back.
     *
     * @param slot a slot {@link #acquire()} handed out.
     * @throws IllegalStateException if the slot is not taken (released twice, or never acquired).
     */
    void release(final int slot)
    {
        if (slot < 0 || slot >= taken.length || !taken[slot])
        {
            throw new IllegalStateException("sample slot " + slot + " is not taken: released twice or never acquired" +
                " (pool of " + taken.length + ")");
        }
        taken[slot] = false;
        free[freeCount++] = slot;
    }

    /**
     * Points a flyweight at a slot.
     *
     * @param slot   the slot.
     * @param sample the flyweight.
     * @return the flyweight.
     */
    Sample sample(final int slot, final Sample sample)
    {
        return sample.wrap(memory, slotOffset(slot), capacity);
    }

    /** @return the virtual address of a slot's wire image: where a SEND or a receive without GRH points. */
    long wireAddress(final int slot)
    {
        return mr.address() + slotOffset(slot) + Sample.WIRE_OFFSET;
    }

    /** @return the virtual address of a slot's GRH room: where a UD receive points. */
    long grhAddress(final int slot)
    {
        return mr.address() + slotOffset(slot) + Sample.GRH_OFFSET;
    }

    /** @return the registered region holding every slot. */
    MemoryRegion mr()
    {
        return mr;
    }

    /** @return how many slots. */
    int slots()
    {
        return taken.length;
    }

    /** @return how many slots are free. */
    int freeSlots()
    {
        return freeCount;
    }

    /** @return values each sample can carry. */
    int capacity()
    {
        return capacity;
    }

    /** @return whether the pool is closed: its slots no longer hold anything. */
    boolean isClosed()
    {
        return mr.isClosed();
    }

    /**
     * Deregisters the memory. Slots still taken are the caller's to account for: their contents are gone.
     */
    @Override
    public void close()
    {
        mr.close();
    }

    private int slotOffset(final int slot)
    {
        if (slot < 0 || slot >= taken.length)
        {
            throw new IndexOutOfBoundsException("sample slot " + slot + " outside 0.." + (taken.length - 1));
        }
        return slot * slotLength;
    }
}
