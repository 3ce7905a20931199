package io.ibex.samples.runner.hook;

import io.ibex.transport.sample.Sample;

/**
 * A hook of a config, as in VILLASnode: it sees every sample that passes where it is. On a node (in
 * {@code in.hooks}, {@code out.hooks} or the node-level {@code hooks}) it sees the samples the node reads and the
 * samples written to it; on a path ({@code hooks}) the samples the path moves. The runner starts the hooks before
 * the paths and stops them after.
 * <p>
 * {@link #onRead} and {@link #onWrite} run on the threads of the paths that read and write the node, one thread
 * each; they must be cheap and allocate nothing.
 */
public interface Hook
{
    /** @return its type in the config, e.g. {@code "stats"}. */
    String type();

    /**
     * Opens what the hook writes to.
     *
     * @throws HookException naming the hook, where it is configured and what failed.
     */
    void start();

    /**
     * A sample its node read (a node's hook), or its path moved (a path's hook).
     *
     * @param sample the sample, after the hooks before this one.
     */
    void onRead(Sample sample);

    /**
     * A sample about to be written to its node (a node's hook only).
     *
     * @param sample the sample.
     */
    void onWrite(Sample sample);

    /**
     * Writes what the hook reports at the end (to its output, if it has one). May be called more than once.
     *
     * @throws HookException if its output cannot be written.
     */
    void stop();

    /** @return what it reported for the runner's summary: its report, or where it wrote it; null if none. */
    String report();
}
