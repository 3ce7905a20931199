package io.ibex.samples.runner;

import io.ibex.samples.runner.hook.Hook;
import io.ibex.transport.config.ConfigLocation;
import io.ibex.transport.thread.ThreadPlacement;

import java.util.List;
import java.util.stream.Collectors;

/**
 * An enabled path of a config: one input node, the nodes it writes to, and its own hooks.
 *
 * @param name      "path 1" for the first path of the config; a reversed path adds " (reversed)".
 * @param location  where the path is configured.
 * @param input     the node it reads.
 * @param outputs   the nodes it writes every sample to, in the order given (none: it only runs its hooks).
 * @param hooks     its hooks, not yet started: they see every sample it moves.
 * @param placement where its thread runs ({@code affinity}, {@code priority}); unset parts: the config's.
 */
public record PathConfig(String name, ConfigLocation location, RunNode input, List<RunNode> outputs,
    List<Hook> hooks, ThreadPlacement placement)
{
    /** @return {@code "path 1 (siggen -> ib_node_source, generated)"}. */
    public String describe()
    {
        return name + " (" + input.name() + " -> " +
            (outputs.isEmpty() ? "nothing" : outputs.stream().map(RunNode::name).collect(Collectors.joining(", "))) +
            ")";
    }
}
