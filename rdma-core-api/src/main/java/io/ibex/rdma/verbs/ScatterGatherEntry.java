package io.ibex.rdma.verbs;

/**
 * One scatter/gather entry, as {@code struct ibv_sge}: a piece of a registered memory region. Mutable so a
 * work request can be built once and re-posted with new addresses and lengths.
 */
public final class ScatterGatherEntry
{
    private long addr;
    private int length;
    private int lkey;

    /**
     * Points the entry at memory.
     *
     * @param addr   start address inside the region.
     * @param length bytes.
     * @param lkey   the region's local key.
     * @return this.
     */
    public ScatterGatherEntry set(final long addr, final int length, final int lkey)
    {
        this.addr = addr;
        this.length = length;
        this.lkey = lkey;
        return this;
    }

    /**
     * Points the entry at part of a region.
     *
     * @param mr     the region.
     * @param offset offset inside the region.
     * @param length bytes.
     * @return this.
     */
    public ScatterGatherEntry set(final MemoryRegion mr, final long offset, final int length)
    {
        return set(mr.address() + offset, length, mr.lkey());
    }

    /** @return the start address. */
    public long addr()
    {
        return addr;
    }

    /** @return the length in bytes. */
    public int length()
    {
        return length;
    }

    /** @return the local key. */
    public int lkey()
    {
        return lkey;
    }

    /**
     * @param addr start address.
     * @return this.
     */
    public ScatterGatherEntry addr(final long addr)
    {
        this.addr = addr;
        return this;
    }

    /**
     * @param length bytes.
     * @return this.
     */
    public ScatterGatherEntry length(final int length)
    {
        this.length = length;
        return this;
    }

    /**
     * @param lkey local key.
     * @return this.
     */
    public ScatterGatherEntry lkey(final int lkey)
    {
        this.lkey = lkey;
        return this;
    }

    @Override
    public String toString()
    {
        return "sge{addr=0x" + Long.toHexString(addr) + ", length=" + length + ", lkey=0x" +
            Integer.toHexString(lkey) + '}';
    }
}
