package io.ibex.samples.runner;

import io.ibex.samples.runner.node.FileNode;
import io.ibex.samples.runner.node.InfinibandNode;
import io.ibex.samples.runner.node.NodeFactory;
import io.ibex.samples.runner.node.SignalNode;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The node types a runner knows, by the name a config gives in a node's {@code type}.
 */
public final class NodeTypes
{
    private final Map<String, NodeFactory> factories;

    /**
     * @param factories the factory of each type, by type name.
     */
    public NodeTypes(final Map<String, NodeFactory> factories)
    {
        this.factories = new TreeMap<>(factories);
    }

    /** @return the types of ibex: file, infiniband and signal. */
    public static NodeTypes standard()
    {
        return new NodeTypes(Map.of("file", FileNode.FACTORY, "infiniband", InfinibandNode.FACTORY, "signal",
            SignalNode.FACTORY));
    }

    /**
     * @param linkedPorts the ports of the run's targets that its own sources connect to
     *                    ({@link InfinibandNode#linkedPorts}).
     * @return the types of ibex as the warm-up runs them, for one reading of a config: signal nodes without a
     *         limit, file outputs that discard what they format, and infiniband nodes on free ports
     *         ({@link InfinibandNode#warmUpFactory}).
     */
    public static NodeTypes warmUp(final Set<Integer> linkedPorts)
    {
        return new NodeTypes(Map.of("file", FileNode.DISCARDING_FACTORY, "infiniband",
            InfinibandNode.warmUpFactory(linkedPorts), "signal", SignalNode.WARM_UP_FACTORY));
    }

    /**
     * @param type a node's {@code type}.
     * @return its factory, or null if the type is not supported.
     */
    public NodeFactory factory(final String type)
    {
        return factories.get(type);
    }

    /** @return the supported type names, sorted. */
    public List<String> names()
    {
        return List.copyOf(factories.keySet());
    }
}
