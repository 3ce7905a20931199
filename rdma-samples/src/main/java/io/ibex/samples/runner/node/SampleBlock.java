package io.ibex.samples.runner.node;

import io.ibex.transport.sample.Sample;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Samples in ordinary memory that a path moves from its input node to its output nodes: a fixed number of slots
 * of one value capacity, the first {@link #size()} of which hold samples. Nodes copy into and out of it; an
 * infiniband node copies between it and its channel's registered pools.
 */
public final class SampleBlock
{
    private final Sample[] samples;
    private final int valueCapacity;
    private int size;

    /**
     * @param slots         how many samples the block holds at most.
     * @param valueCapacity values each sample can carry.
     * @throws IllegalArgumentException if slots is below 1 or the capacity is outside 1..{@link Sample#MAX_CAPACITY}.
     */
    public SampleBlock(final int slots, final int valueCapacity)
    {
        if (slots < 1)
        {
            throw new IllegalArgumentException("a sample block needs at least one slot, not " + slots);
        }
        final int slotLength = Sample.slotLength(valueCapacity);
        final UnsafeBuffer memory = new UnsafeBuffer(new byte[slots * slotLength]);
        this.samples = new Sample[slots];
        for (int i = 0; i < slots; i++)
        {
            samples[i] = new Sample().wrap(memory, i * slotLength, valueCapacity);
        }
        this.valueCapacity = valueCapacity;
    }

    /** @return how many samples the block holds at most. */
    public int slots()
    {
        return samples.length;
    }

    /** @return values each sample can carry. */
    public int valueCapacity()
    {
        return valueCapacity;
    }

    /** @return how many samples the block holds, from slot 0. */
    public int size()
    {
        return size;
    }

    /**
     * @param size how many samples the block now holds, from slot 0.
     * @throws IllegalArgumentException if outside 0..{@link #slots()}.
     */
    public void size(final int size)
    {
        if (size < 0 || size > samples.length)
        {
            throw new IllegalArgumentException("sample block size " + size + " outside 0.." + samples.length);
        }
        this.size = size;
    }

    /**
     * @param index a slot, 0..{@link #slots()} - 1.
     * @return the sample in it.
     */
    public Sample get(final int index)
    {
        return samples[index];
    }
}
