package io.ibex.transport.channel;

import io.ibex.transport.sample.Sample;

/**
 * Samples handed between a channel and its user without copying: {@link SampleChannel#claim} fills a batch
 * with free samples of the send pool, {@link SampleChannel#write} takes them from its front, and
 * {@link SampleChannel#read} fills a batch with received samples. A sample stays the user's until it is
 * written, released, or (for received samples) the batch is read into again.
 * <p>
 * Reusable and allocation-free after construction; not thread safe (one batch per thread).
 */
public final class SampleBatch
{
    private final Sample[] samples;
    private final int[] slots;
    private SamplePool pool;
    private int size;

    /**
     * @param capacity how many samples the batch can hold, at least 1.
     */
    public SampleBatch(final int capacity)
    {
        if (capacity < 1)
        {
            throw new IllegalArgumentException("a sample batch needs a capacity of at least 1, not " + capacity);
        }
        samples = new Sample[capacity];
        slots = new int[capacity];
        for (int i = 0; i < capacity; i++)
        {
            samples[i] = new Sample();
        }
    }

    /** @return how many samples the batch holds. */
    public int size()
    {
        return size;
    }

    /** @return how many samples the batch can hold. */
    public int capacity()
    {
        return samples.length;
    }

    /** @return whether the batch holds no sample. */
    public boolean isEmpty()
    {
        return size == 0;
    }

    /**
     * @param index 0 to size() - 1.
     * @return the sample at that index, valid until the batch gives it up.
     */
    public Sample get(final int index)
    {
        if (index < 0 || index >= size)
        {
            throw new IndexOutOfBoundsException("sample " + index + " of a batch holding " + size);
        }
        return samples[index];
    }

    SamplePool pool()
    {
        return pool;
    }

    /** The samples, of which the first {@link #size()} are the batch's: for stats to take in a read's at once. */
    Sample[] samples()
    {
        return samples;
    }

    int slot(final int index)
    {
        return slots[index];
    }

    int room()
    {
        return samples.length - size;
    }

    /** Adds a slot of a pool; a batch holds samples of one pool at a time. */
    Sample add(final SamplePool from, final int slot)
    {
        if (size > 0 && from != pool)
        {
            throw new IllegalStateException("a batch holds samples of one pool at a time: release it first");
        }
        pool = from;
        slots[size] = slot;
        return from.sample(slot, samples[size++]);
    }

    /** Drops the first {@code count} samples (now the channel's), moving the rest to the front. */
    void removeFirst(final int count)
    {
        final int rest = size - count;
        for (int i = 0; i < rest; i++)
        {
            slots[i] = slots[count + i];
            pool.sample(slots[i], samples[i]);
        }
        size = rest;
    }

    /** Takes back the sample added last (it failed a check). */
    void removeLast()
    {
        size--;
    }

    /**
     * @param owner     the pool the caller works on.
     * @param operation what is being done, for the message.
     * @throws IllegalArgumentException unless the batch is empty or holds samples of {@code owner}.
     */
    void requireFrom(final SamplePool owner, final String operation)
    {
        if (size > 0 && pool != owner)
        {
            throw new IllegalArgumentException(operation + ": the batch holds samples of another pool (claimed" +
                " ones passed to read, received ones to write, another channel's, or from before a restart):" +
                " release them first");
        }
    }

    /**
     * Gives every sample back to its pool, which must be {@code owner}; a batch whose pool is closed (samples
     * of a stopped channel) is just emptied, its samples went with the pool.
     */
    void releaseInto(final SamplePool owner, final String operation)
    {
        if (size > 0 && pool != owner && pool.isClosed())
        {
            size = 0;
            return;
        }
        requireFrom(owner, operation);
        for (int i = 0; i < size; i++)
        {
            pool.release(slots[i]);
        }
        size = 0;
    }
}
