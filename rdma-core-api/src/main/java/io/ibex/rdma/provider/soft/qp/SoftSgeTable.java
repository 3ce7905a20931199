package io.ibex.rdma.provider.soft.qp;

import io.ibex.rdma.provider.soft.SoftDevice;
import io.ibex.rdma.provider.soft.SoftMemoryRegion;
import io.ibex.rdma.provider.soft.SoftProtectionDomain;
import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.ScatterGatherEntry;
import io.ibex.rdma.verbs.WcStatus;
import io.ibex.rdma.verbs.WorkRequest;

import static io.ibex.rdma.provider.soft.wire.SoftUnsafe.UNSAFE;

/**
 * The scatter/gather lists of a work queue's slots, copied at post time into primitive arrays, and the
 * copies between them and contiguous memory. Memory is only touched after {@link #check} found every entry
 * inside a region of the QP's protection domain.
 */
final class SoftSgeTable
{
    private final int maxSge;
    private final long[] addrs;
    private final int[] lengths;
    private final int[] lkeys;
    private final int[] counts;

    SoftSgeTable(final int slots, final int maxSge)
    {
        this.maxSge = maxSge;
        addrs = new long[slots * maxSge];
        lengths = new int[slots * maxSge];
        lkeys = new int[slots * maxSge];
        counts = new int[slots];
    }

    void set(final int slot, final WorkRequest wr)
    {
        final int count = wr.numSge();
        final int base = slot * maxSge;
        for (int i = 0; i < count; i++)
        {
            final ScatterGatherEntry sge = wr.sge(i);
            addrs[base + i] = sge.addr();
            lengths[base + i] = sge.length();
            lkeys[base + i] = sge.lkey();
        }
        counts[slot] = count;
    }

    void clear(final int slot)
    {
        counts[slot] = 0;
    }

    long total(final int slot)
    {
        long total = 0;
        final int base = slot * maxSge;
        for (int i = 0, count = counts[slot]; i < count; i++)
        {
            total += lengths[base + i] & 0xffffffffL;
        }
        return total;
    }

    /**
     * @param localWrite whether the memory will be written (receive buffers, READ and atomic results).
     * @return SUCCESS, or LOC_PROT_ERR if an entry's lkey is unknown, of another PD, out of bounds or
     *         lacks LOCAL_WRITE when needed.
     */
    WcStatus check(
        final int slot, final SoftDevice device, final SoftProtectionDomain pd, final boolean localWrite)
    {
        final int base = slot * maxSge;
        for (int i = 0, count = counts[slot]; i < count; i++)
        {
            final long length = lengths[base + i] & 0xffffffffL;
            if (length == 0)
            {
                continue;
            }
            final SoftMemoryRegion region = device.region(lkeys[base + i]);
            if (region == null || region.softPd() != pd || !region.contains(addrs[base + i], length) ||
                (localWrite && (region.access() & AccessFlags.LOCAL_WRITE) == 0))
            {
                return WcStatus.LOC_PROT_ERR;
            }
        }
        return WcStatus.SUCCESS;
    }

    /**
     * Copies {@code length} bytes of the message starting at {@code offset} out of the slot's entries.
     */
    void gather(final int slot, final long offset, final long dstAddress, final int length)
    {
        copy(slot, offset, dstAddress, length, true);
    }

    /**
     * Copies {@code length} bytes into the slot's entries at message offset {@code offset}.
     */
    void scatter(final int slot, final long offset, final long srcAddress, final int length)
    {
        copy(slot, offset, srcAddress, length, false);
    }

    private void copy(final int slot, final long offset, final long address, final int length, final boolean out)
    {
        final int base = slot * maxSge;
        long skip = offset;
        int done = 0;
        for (int i = 0, count = counts[slot]; i < count && done < length; i++)
        {
            final long entryLength = lengths[base + i] & 0xffffffffL;
            if (skip >= entryLength)
            {
                skip -= entryLength;
                continue;
            }
            final int chunk = (int)Math.min(entryLength - skip, length - done);
            final long entryAddress = addrs[base + i] + skip;
            if (out)
            {
                UNSAFE.copyMemory(entryAddress, address + done, chunk);
            }
            else
            {
                UNSAFE.copyMemory(address + done, entryAddress, chunk);
            }
            done += chunk;
            skip = 0;
        }
    }
}
