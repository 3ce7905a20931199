package io.ibex.samples.runner;

import io.ibex.samples.runner.hook.Hook;
import io.ibex.samples.runner.hook.Hooks;
import io.ibex.samples.runner.node.ConfiguredNode;
import io.ibex.samples.runner.node.NodeContext;
import io.ibex.samples.runner.node.NodeFactory;
import io.ibex.transport.config.ConfigException;
import io.ibex.transport.config.ConfigLocation;
import io.ibex.transport.config.internal.ConfigGroup;
import io.ibex.transport.config.internal.ConfigList;
import io.ibex.transport.config.internal.ConfigReaders;
import io.ibex.transport.config.internal.ConfigScalar;
import io.ibex.transport.config.internal.ConfigValue;
import io.ibex.transport.config.internal.GroupBinder;
import io.ibex.transport.thread.ThreadPlacement;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A VILLAS config as the runner reads it: its {@code nodes}, built by the factories of their types with their
 * hooks, and its enabled {@code paths}, checked against each other. Every error names the file, line and column
 * of what is wrong. The nodes are built but not started; {@link #close()} frees them if the config is not run.
 * <p>
 * Top-level keys: {@code nodes}, {@code paths}, {@code stats} (how many status lines a second; 0 for none),
 * {@code idle_stop} (whether the run ends by itself once its inputs ended), and {@code affinity} (a CPU mask) and
 * {@code priority} (SCHED_FIFO, 1-99) for every path thread; a path takes its own {@code affinity} and
 * {@code priority}, which win over the top level's. {@code hugepages} is read and has no
 * effect, so that one file serves VILLASnode and ibex. VILLAS's other top-level keys are refused by name; any
 * other key is an error naming the nearest known one.
 */
public final class RunConfig implements AutoCloseable
{
    private static final List<String> VILLAS_TOP_LEVEL = List.of("http", "logging", "uuid");
    private static final List<String> VILLAS_PATH = List.of("mode", "queuelen", "rate", "mask", "poll", "builtin",
        "original_sequence_no", "uuid");

    private final ConfigLocation location;
    private final List<RunNode> nodes;
    private final List<PathConfig> paths;
    private final Duration statusInterval;
    private final boolean idleStop;
    private final ThreadPlacement placement;

    private RunConfig(final ConfigLocation location, final List<RunNode> nodes, final List<PathConfig> paths,
        final Duration statusInterval, final boolean idleStop, final ThreadPlacement placement)
    {
        this.placement = placement;
        this.location = location;
        this.nodes = List.copyOf(nodes);
        this.paths = List.copyOf(paths);
        this.statusInterval = statusInterval;
        this.idleStop = idleStop;
    }

    /**
     * Reads a config file: libconfig ({@code .conf}) or JSON ({@code .json}).
     *
     * @param file    the file.
     * @param context what the nodes need from the runner.
     * @param types   the node types known.
     * @return the config, its nodes built, not started.
     * @throws ConfigException at what is wrong.
     */
    public static RunConfig read(final Path file, final NodeContext context, final NodeTypes types)
    {
        return bind(ConfigReaders.read(file), context, types);
    }

    /**
     * @param root    a whole config.
     * @param context what the nodes need from the runner.
     * @param types   the node types known.
     * @return the config, its nodes built, not started.
     * @throws ConfigException at what is wrong.
     */
    public static RunConfig bind(final ConfigGroup root, final NodeContext context, final NodeTypes types)
    {
        final GroupBinder top = GroupBinder.of(root);
        refuseVillasKeys(top, VILLAS_TOP_LEVEL, "top-level key");
        final Double stats = top.number("stats");
        final Boolean idleStop = top.bool("idle_stop");
        final ThreadPlacement placement = placement(top);
        final Integer hugepages = top.int32("hugepages"); // VILLAS reserves that many; ibex's pools need none
        if (hugepages != null && hugepages < 0)
        {
            throw top.error("hugepages", "hugepages = " + hugepages + " must be 0 or more");
        }
        final GroupBinder nodesGroup = top.group("nodes");
        final Map<String, ConfigGroup> nodeSettings = new LinkedHashMap<>();
        for (final String name : nodesGroup.group().names())
        {
            final ConfigValue value = nodesGroup.setting(name).value();
            if (!(value instanceof ConfigGroup group))
            {
                throw new ConfigException(value.location(), "node '" + name + "' must be a group { type = ... }, " +
                    "not a " + value.kind());
            }
            nodeSettings.put(name, group);
        }
        final List<PathSpec> pathSpecs = new ArrayList<>();
        for (final GroupBinder path : top.groups("paths"))
        {
            pathSpecs.add(PathSpec.bind(path, "path " + (pathSpecs.size() + 1)));
        }
        top.finish();

        final Map<String, RunNode> nodes = new LinkedHashMap<>();
        try
        {
            nodeSettings.forEach((name, settings) -> nodes.put(name, createNode(name, settings, context, types)));
            final List<PathConfig> paths = new Wiring(nodes, context).wire(pathSpecs);
            return new RunConfig(root.location(), List.copyOf(nodes.values()), paths,
                stats == null ? null : stats > 0 ? Duration.ofNanos(Math.round(1e9 / stats)) : Duration.ZERO,
                idleStop == null || idleStop, placement);
        }
        catch (final RuntimeException ex)
        {
            nodes.values().forEach((node) -> node.node().close());
            throw ex;
        }
    }

    /** @return where the config starts (its file). */
    public ConfigLocation location()
    {
        return location;
    }

    /** @return every node, in the order of the config. */
    public List<RunNode> nodes()
    {
        return nodes;
    }

    /** @return the enabled paths, in the order of the config, each reversed one after its original. */
    public List<PathConfig> paths()
    {
        return paths;
    }

    /** @return the interval of status lines from the {@code stats} key, {@link Duration#ZERO} for none, or null. */
    public Duration statusInterval()
    {
        return statusInterval;
    }

    /** @return whether the run ends by itself once its inputs ended ({@code idle_stop}, default true). */
    public boolean idleStop()
    {
        return idleStop;
    }

    /** @return where the path threads run ({@code affinity}, {@code priority}), unless a path says otherwise. */
    public ThreadPlacement placement()
    {
        return placement;
    }

    /** Frees every node; a started run stops its nodes itself. */
    @Override
    public void close()
    {
        nodes.forEach((node) -> node.node().close());
    }

    private static RunNode createNode(final String name, final ConfigGroup settings, final NodeContext context,
        final NodeTypes types)
    {
        final ConfigGroup.Setting typeSetting = settings.setting("type");
        final String supported = "supported: " + String.join(", ", types.names());
        if (typeSetting == null)
        {
            throw new ConfigException(settings.location(), "node '" + name + "' has no type (" + supported + ")");
        }
        final ConfigValue type = typeSetting.value();
        final NodeFactory factory = type instanceof ConfigScalar scalar && scalar.value() instanceof String text ?
            types.factory(text) : null;
        if (factory == null)
        {
            throw new ConfigException(type.location(), "node '" + name + "': type " + type + " is not supported (" +
                supported + ")");
        }
        final ConfiguredNode configured = factory.create(name, settings, context);
        try
        {
            final String owner = "node '" + name + "'";
            final List<Hook> hooks = new ArrayList<>(Hooks.create(configured.inHooks(), owner, context));
            hooks.addAll(Hooks.create(configured.outHooks(), owner, context));
            return new RunNode(configured.node(), hooks, settings.location());
        }
        catch (final RuntimeException ex)
        {
            configured.node().close();
            throw ex;
        }
    }

    /**
     * @return a group's {@code affinity} (VILLAS's CPU mask, bit n for CPU n) and {@code priority} (SCHED_FIFO,
     *         1-99; 0 or unset for the normal scheduler).
     */
    private static ThreadPlacement placement(final GroupBinder group)
    {
        final Long affinity = group.integer("affinity");
        final Integer priority = group.int32("priority");
        try
        {
            return ThreadPlacement.ofMask(affinity == null ? 0 : affinity, priority == null ? 0 : priority);
        }
        catch (final IllegalArgumentException ex)
        {
            throw group.error(ex.getMessage().startsWith("priority") ? "priority" : "affinity", ex.getMessage());
        }
    }

    private static void refuseVillasKeys(final GroupBinder group, final List<String> keys, final String what)
    {
        for (final String key : keys)
        {
            if (group.setting(key) != null)
            {
                throw group.error(key, "'" + group.path(key) + "' is a VILLASnode " + what + " that ibex node does " +
                    "not support: remove it");
            }
        }
    }

    /** A node's name where a path gives it. */
    private record NodeName(String name, ConfigLocation location)
    {
    }

    /** A path as written, before its node names are looked up. */
    private record PathSpec(String name, ConfigLocation location, NodeName in, List<NodeName> out,
        ConfigValue hooks, boolean enabled, boolean reverse, ThreadPlacement placement)
    {
        static PathSpec bind(final GroupBinder path, final String name)
        {
            refuseVillasKeys(path, VILLAS_PATH, "path key");
            final ConfigValue in = path.value("in");
            if (in == null)
            {
                throw new ConfigException(path.location(), name + " has no 'in': the node it reads");
            }
            final List<NodeName> inputs = names(in, name, "in");
            if (inputs.size() != 1)
            {
                throw new ConfigException(in.location(), name + ": in names " + inputs.size() + " nodes; a path " +
                    "reads one node here (VILLAS's paths with several inputs, mode any or all, are not supported)");
            }
            final ConfigValue out = path.value("out");
            final Boolean enabled = path.bool("enabled");
            final Boolean reverse = path.bool("reverse");
            final PathSpec spec = new PathSpec(name, path.location(), inputs.get(0),
                out == null ? List.of() : names(out, name, "out"), path.value("hooks"), enabled == null || enabled,
                reverse != null && reverse, RunConfig.placement(path));
            if (spec.reverse && (spec.out.size() != 1 || spec.out.get(0).name.equals(spec.in.name)))
            {
                throw path.error("reverse", name + ": reverse = true needs one output node other than the input " +
                    "(VILLAS reverses simple paths only)");
            }
            return spec;
        }

        /** A node name, or a list of them: VILLAS's mappings such as "siggen.data[0-2]" are refused. */
        private static List<NodeName> names(final ConfigValue value, final String path, final String key)
        {
            final List<ConfigValue> elements = value instanceof ConfigList list ? list.elements() : List.of(value);
            final List<NodeName> names = new ArrayList<>();
            for (final ConfigValue element : elements)
            {
                if (!(element instanceof ConfigScalar scalar && scalar.value() instanceof String name))
                {
                    throw new ConfigException(element.location(), path + ": " + key + " must name nodes: a string " +
                        "or a list of strings, not " + element.kind() + " " + element);
                }
                if (name.indexOf('.') >= 0 || name.indexOf('[') >= 0)
                {
                    throw new ConfigException(element.location(), path + ": " + key + " = " +
                        ConfigScalar.quote(name) + " is a VILLAS mapping; ibex paths move whole samples: name the " +
                        "node only");
                }
                names.add(new NodeName(name, element.location()));
            }
            return names;
        }
    }

    /**
     * Looks up the nodes of the paths, checks what each node may be, tells each output the signals of the samples
     * it will be written (a file names them in its header) and builds the enabled paths.
     */
    private static final class Wiring
    {
        private final Map<String, RunNode> nodes;
        private final NodeContext context;
        private final Map<String, PathConfig> inputOf = new HashMap<>();
        private final Map<String, PathConfig> outputOf = new HashMap<>();

        Wiring(final Map<String, RunNode> nodes, final NodeContext context)
        {
            this.nodes = nodes;
            this.context = context;
        }

        List<PathConfig> wire(final List<PathSpec> specs)
        {
            final List<PathConfig> paths = new ArrayList<>();
            for (final PathSpec spec : specs)
            {
                lookUp(spec, spec.in);
                spec.out.forEach((name) -> lookUp(spec, name));
                if (spec.enabled)
                {
                    paths.add(path(spec, spec.name, spec.in, spec.out));
                }
                if (spec.enabled && spec.reverse)
                {
                    paths.add(path(spec, spec.name + " (reversed)", spec.out.get(0), List.of(spec.in)));
                }
            }
            return paths;
        }

        private PathConfig path(final PathSpec spec, final String name, final NodeName in, final List<NodeName> out)
        {
            final RunNode input = lookUp(spec, in);
            final List<RunNode> outputs = new ArrayList<>();
            for (final NodeName outName : out)
            {
                outputs.add(lookUp(spec, outName));
            }
            final PathConfig path = new PathConfig(name, spec.location, input, outputs,
                Hooks.create(spec.hooks, name, context), spec.placement);
            use(inputOf, input, in, path, "input", input.node().readable());
            for (int i = 0; i < outputs.size(); i++)
            {
                final RunNode output = outputs.get(i);
                use(outputOf, output, out.get(i), path, "output", output.node().writable());
                output.node().outputSignals(input.node().signals());
                final int values = input.node().signals().size();
                final int room = output.node().signals().size();
                if (room < values)
                {
                    throw new ConfigException(out.get(i).location, name + ": " + input.describe() + " reads samples " +
                        "of up to " + values + " values, but " + output.describe() + " takes at most " + room +
                        " (its signals)");
                }
            }
            return path;
        }

        private RunNode lookUp(final PathSpec spec, final NodeName name)
        {
            final RunNode node = nodes.get(name.name);
            if (node == null)
            {
                throw new ConfigException(name.location, spec.name + " (at " + spec.location + ") names node '" +
                    name.name + "', which is not in nodes (" + (nodes.isEmpty() ? "there are none" : "known: " +
                    String.join(", ", nodes.keySet())) + ")");
            }
            return node;
        }

        private static void use(final Map<String, PathConfig> uses, final RunNode node, final NodeName where,
            final PathConfig path, final String role, final boolean able)
        {
            if (!able)
            {
                throw new ConfigException(where.location, path.name() + ": " + node.describe() + " cannot be a " +
                    "path's " + role);
            }
            final PathConfig previous = uses.putIfAbsent(node.name(), path);
            if (previous != null)
            {
                throw new ConfigException(where.location, path.name() + ": " + node.describe() + " is the " + role +
                    " of " + previous.name() + " (at " + previous.location() + ") already: a node may be the " +
                    role + " of one path");
            }
        }
    }
}
