package io.ibex.samples.runner;

import io.ibex.samples.runner.hook.Hook;
import io.ibex.samples.runner.node.Node;
import io.ibex.transport.config.ConfigLocation;

import java.util.List;

/**
 * A node of a config with its hooks: those of {@code in.hooks}, {@code out.hooks} and {@code hooks}, in that
 * order, each seeing the samples the node reads and those written to it.
 *
 * @param node     the node.
 * @param hooks    its hooks, not yet started.
 * @param location where the node is configured.
 */
public record RunNode(Node node, List<Hook> hooks, ConfigLocation location)
{
    /** @return the node's name. */
    public String name()
    {
        return node.name();
    }

    /** @return the node as messages name it: {@code "node 'siggen' (signal)"}. */
    public String describe()
    {
        return "node '" + node.name() + "' (" + node.type() + ")";
    }
}
