package io.ibex.samples.runner;

import io.ibex.samples.runner.hook.Hook;
import io.ibex.samples.runner.node.Node;
import io.ibex.samples.runner.node.SampleBlock;
import org.agrona.concurrent.Agent;
import io.ibex.transport.thread.ThreadPlacement;
import io.ibex.transport.thread.ThreadPlacementException;
import org.agrona.concurrent.AgentTerminationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The duty cycle of one path, run by its own thread: read a block of samples from the input node, run the input's
 * hooks and the path's on each, then write the block to every output, running each output's hooks once per sample
 * before it is first offered. An output that takes fewer samples than offered is offered the rest again at the
 * next cycle, and nothing new is read until every output took the whole block: nothing is dropped, a slow
 * output slows the path down.
 * <p>
 * Its thread is placed (CPUs, SCHED_FIFO) as the path's {@code affinity} and {@code priority} say, else the config's.
 * A failure of a node ends the agent ({@link AgentTerminationException} carrying it) and the run. Allocates
 * nothing per cycle.
 */
final class PathAgent implements Agent
{
    private static final Logger LOG = LoggerFactory.getLogger(PathAgent.class);
    /** Samples a path's block holds: the most one read hands over. */
    static final int BLOCK_SLOTS = 64;

    private final PathConfig config;
    private final ThreadPlacement placement;
    private final Node input;
    private final Hook[] readHooks;
    private final Node[] outputs;
    private final Hook[][] writeHooks;
    private final SampleBlock block;
    private final int[] hooked;
    private final int[] written;
    private final long[] writtenTotals;
    private final AtomicLong readCount = new AtomicLong();
    private final AtomicLong writeCount = new AtomicLong();
    private volatile boolean ended;
    private volatile boolean drained;

    /**
     * @param config    the path.
     * @param placement where its thread runs, applied as the thread starts.
     */
    PathAgent(final PathConfig config, final ThreadPlacement placement)
    {
        this.config = config;
        this.placement = placement;
        this.input = config.input().node();
        final int readHookCount = config.input().hooks().size() + config.hooks().size();
        this.readHooks = new Hook[readHookCount];
        int next = 0;
        for (final Hook hook : config.input().hooks())
        {
            readHooks[next++] = hook;
        }
        for (final Hook hook : config.hooks())
        {
            readHooks[next++] = hook;
        }
        this.outputs = new Node[config.outputs().size()];
        this.writeHooks = new Hook[outputs.length][];
        for (int i = 0; i < outputs.length; i++)
        {
            outputs[i] = config.outputs().get(i).node();
            writeHooks[i] = config.outputs().get(i).hooks().toArray(new Hook[0]);
        }
        this.block = new SampleBlock(BLOCK_SLOTS, input.signals().size());
        this.hooked = new int[outputs.length];
        this.written = new int[outputs.length];
        this.writtenTotals = new long[outputs.length];
    }

    /** Places the thread, or says at WARN why it could not: the path runs all the same. */
    @Override
    public void onStart()
    {
        if (!placement.isNone())
        {
            try
            {
                placement.applyToCurrentThread();
                LOG.info("{}: {}", config.name(), placement);
            }
            catch (final ThreadPlacementException ex)
            {
                LOG.warn("{}: {}", config.name(), ex.getMessage());
            }
        }
    }

    @Override
    public int doWork()
    {
        try
        {
            if (block.size() > 0)
            {
                final int work = writeBlock();
                if (block.size() > 0)
                {
                    return work;
                }
            }
            if (ended)
            {
                drained = true;
                return 0;
            }
            final int count = input.read(block);
            if (count == Node.END)
            {
                ended = true;
                return 1;
            }
            if (count == 0)
            {
                return 0;
            }
            for (int i = 0; i < count; i++)
            {
                for (final Hook hook : readHooks)
                {
                    hook.onRead(block.get(i));
                }
            }
            readCount.setRelease(readCount.getPlain() + count);
            for (int o = 0; o < outputs.length; o++)
            {
                hooked[o] = 0;
                written[o] = 0;
            }
            return count + writeBlock();
        }
        catch (final RuntimeException ex)
        {
            throw new AgentTerminationException(ex);
        }
    }

    /** @return samples taken by the outputs in this call; empties the block once every output took all of it. */
    private int writeBlock()
    {
        final int size = block.size();
        int taken = 0;
        boolean complete = true;
        for (int o = 0; o < outputs.length; o++)
        {
            for (; hooked[o] < size; hooked[o]++)
            {
                for (final Hook hook : writeHooks[o])
                {
                    hook.onWrite(block.get(hooked[o]));
                }
            }
            if (written[o] < size)
            {
                final int took = outputs[o].write(block, written[o], size - written[o]);
                written[o] += took;
                writtenTotals[o] += took;
                taken += took;
                complete &= written[o] == size;
            }
        }
        if (taken > 0)
        {
            writeCount.setRelease(writeCount.getPlain() + taken);
        }
        if (complete)
        {
            block.size(0);
        }
        return taken;
    }

    @Override
    public String roleName()
    {
        return config.name();
    }

    /** @return where its thread runs. */
    ThreadPlacement placement()
    {
        return placement;
    }

    /** @return the path's config. */
    PathConfig config()
    {
        return config;
    }

    /** @return samples read from the input so far (any thread). */
    long read()
    {
        return readCount.get();
    }

    /** @return samples the outputs took so far, all outputs together (any thread). */
    long written()
    {
        return writeCount.get();
    }

    /** @return whether the input said it will produce no more samples (any thread). */
    boolean inputEnded()
    {
        return ended;
    }

    /** @return whether the input ended and every output took every sample (any thread). */
    boolean drained()
    {
        return drained;
    }

    /**
     * @param output an output's index.
     * @return samples it took; exact once the path's thread stopped.
     */
    long writtenTo(final int output)
    {
        return writtenTotals[output];
    }

    /** @return samples read but not yet taken by every output: left behind if the run stops now. */
    int pending()
    {
        return block.size();
    }
}
