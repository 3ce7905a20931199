package io.ibex.samples.runner.node;

import io.ibex.transport.sample.SignalList;

/**
 * One node of a config, as in VILLASnode: something samples come from (a path's input), go to (a path's output),
 * or both. The runner calls {@link #start()}, then one path thread calls {@link #read} and another
 * {@link #write}, then {@link #stop()} and {@link #close()}.
 * <p>
 * Neither read nor write waits for long: a node that has nothing now returns 0 and the path's idle strategy
 * decides how to wait (a paced node such as the signal generator returns 0 until its next step is due).
 */
public interface Node extends AutoCloseable
{
    /** What {@link #read} returns when the node will produce no more samples. */
    int END = -1;

    /** @return the node's name in the config. */
    String name();

    /** @return its type in the config: {@code signal}, {@code file}, {@code infiniband}. */
    String type();

    /** @return the signals of the samples it reads, or writes when it only writes. */
    SignalList signals();

    /** @return whether it can be a path's input. */
    boolean readable();

    /** @return whether it can be a path's output. */
    boolean writable();

    /**
     * Tells a node, before {@link #start()}, that it is a path's output and the signals of the samples that path
     * will write to it: those of the path's input node. The runner calls it once on every node that is some path's
     * output. VILLASnode's formats take these signals from the path too: a file names them in its header and
     * writes each value as its signal's type. A node that writes samples whatever their signals ignores it.
     *
     * @param signals the signals of the samples the node will be asked to write.
     */
    default void outputSignals(final SignalList signals)
    {
    }

    /**
     * Opens what the node needs (files, channels, timers).
     *
     * @throws NodeException naming the node and what failed (an address in use, a file that cannot be written).
     */
    void start();

    /**
     * Reads samples into the block, from slot 0, setting its size.
     *
     * @param block where the samples go; its value capacity fits {@link #signals()}.
     * @return how many samples the block now holds (0: none now), or {@link #END}.
     */
    int read(SampleBlock block);

    /**
     * For a paced input: how soon its next sample is due, so the path waiting for it can spin through the last
     * microseconds rather than yield or park past it.
     *
     * @return nanoseconds until the next sample is due (0 or less: due now), or {@link Long#MAX_VALUE} when the node
     *         does not know (it is not paced, or it ended).
     */
    default long nanosUntilDue()
    {
        return Long.MAX_VALUE;
    }

    /**
     * Writes samples of a block, from slot {@code from} on.
     *
     * @param block the samples.
     * @param from  the first slot to write.
     * @param count how many.
     * @return how many it took, from the front; fewer than count when it pushes back (the path offers the rest
     *         again).
     */
    int write(SampleBlock block, int from, int count);

    /** Stops producing and taking samples; flushes what it wrote. May be called more than once. */
    void stop();

    /**
     * @return for after the run: what the config asked of the node that it did not do at all (a generator that made
     *         no sample), which fails the run after the summary; null when nothing is lacking.
     */
    default String shortfall()
    {
        return null;
    }

    /** @return one line for the runner's summary at the end: what went through and where it went. */
    String summary();

    /** Frees everything; calls {@link #stop()} first if needed. */
    @Override
    void close();
}
