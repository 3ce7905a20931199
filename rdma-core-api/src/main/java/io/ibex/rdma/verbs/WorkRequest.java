package io.ibex.rdma.verbs;

/**
 * What send and receive work requests share: an id and a scatter/gather list. The list's entries are
 * allocated once, with the request; {@link #numSge(int)} says how many of them the next post uses.
 */
public abstract class WorkRequest
{
    private final ScatterGatherEntry[] sgList;
    private long wrId;
    private int numSge;

    /**
     * @param maxSge capacity of the scatter/gather list.
     */
    protected WorkRequest(final int maxSge)
    {
        if (maxSge < 0)
        {
            throw new IllegalArgumentException("maxSge=" + maxSge + " must be >= 0");
        }
        sgList = new ScatterGatherEntry[maxSge];
        for (int i = 0; i < maxSge; i++)
        {
            sgList[i] = new ScatterGatherEntry();
        }
        numSge = Math.min(1, maxSge);
    }

    /** @return the id returned in the completion. */
    public long wrId()
    {
        return wrId;
    }

    /**
     * @param wrId the id returned in the completion.
     * @return this.
     */
    public WorkRequest wrId(final long wrId)
    {
        this.wrId = wrId;
        return this;
    }

    /** @return how many scatter/gather entries the next post uses. */
    public int numSge()
    {
        return numSge;
    }

    /**
     * @param numSge how many scatter/gather entries the next post uses, at most {@link #maxSge()}.
     * @return this.
     */
    public WorkRequest numSge(final int numSge)
    {
        if (numSge < 0 || numSge > sgList.length)
        {
            throw new IllegalArgumentException("numSge=" + numSge + " outside 0.." + sgList.length);
        }
        this.numSge = numSge;
        return this;
    }

    /** @return the capacity of the scatter/gather list. */
    public int maxSge()
    {
        return sgList.length;
    }

    /**
     * @param index entry index, below {@link #maxSge()}.
     * @return the entry, to read or modify.
     */
    public ScatterGatherEntry sge(final int index)
    {
        return sgList[index];
    }

    /**
     * @return the sum of the lengths of the used entries.
     */
    public long totalLength()
    {
        long total = 0;
        for (int i = 0; i < numSge; i++)
        {
            total += sgList[i].length();
        }
        return total;
    }
}
