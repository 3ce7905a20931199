package io.ibex.samples.runner.node;

import io.ibex.transport.config.internal.ConfigGroup;

/**
 * Builds the nodes of one type from their settings in a config.
 */
@FunctionalInterface
public interface NodeFactory
{
    /**
     * Binds a node's settings (every key, {@code type} and the hook lists included; unknown keys rejected) and
     * builds the node, not yet started.
     *
     * @param name     the node's name in the config.
     * @param settings its group, with locations.
     * @param context  what every node may need from the runner.
     * @return the node and its hook lists as written.
     * @throws io.ibex.transport.config.ConfigException naming the key, its location and what is wrong.
     */
    ConfiguredNode create(String name, ConfigGroup settings, NodeContext context);
}
