package io.ibex.samples.runner.hook;

import io.ibex.samples.runner.node.NodeContext;
import io.ibex.transport.config.ConfigException;
import io.ibex.transport.config.internal.ConfigGroup;
import io.ibex.transport.config.internal.ConfigList;
import io.ibex.transport.config.internal.ConfigScalar;
import io.ibex.transport.config.internal.ConfigValue;
import io.ibex.transport.config.internal.GroupBinder;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds the hooks of a hook list as VILLASnode writes one: {@code ( { type = "stats", verbose = true }, "stats" )},
 * each a group with a {@code type} (and the keys of that type, {@code enabled} and {@code priority}) or only a
 * type's name. Hooks run in the order of their priority (default 0), then in the order written.
 */
public final class Hooks
{
    private static final Map<String, Factory> TYPES = new TreeMap<>(Map.of(StatsHook.TYPE, StatsHook::create));

    private Hooks()
    {
    }

    /**
     * @param hooks   the list as written, or null for none.
     * @param owner   what the hooks belong to, for messages: {@code "node 'ib_node_target'"} or {@code "path 2"}.
     * @param context where relative output names are resolved.
     * @return the enabled hooks, in the order they run; not yet started.
     * @throws ConfigException at the entry that is wrong: not a list, an unsupported type, an unknown key.
     */
    public static List<Hook> create(final ConfigValue hooks, final String owner, final NodeContext context)
    {
        if (hooks == null)
        {
            return List.of();
        }
        if (!(hooks instanceof ConfigList list))
        {
            throw new ConfigException(hooks.location(), owner + ": hooks must be a list such as " +
                "( { type = \"stats\" } ), not a " + hooks.kind());
        }
        final List<Ordered> created = new ArrayList<>();
        for (final ConfigValue entry : list.elements())
        {
            final GroupBinder settings = GroupBinder.of(asGroup(entry, owner));
            final String type = settings.string("type");
            if (type == null)
            {
                throw new ConfigException(entry.location(), owner + ": a hook needs a type (supported: " +
                    String.join(", ", TYPES.keySet()) + ")");
            }
            final Factory factory = TYPES.get(type);
            if (factory == null)
            {
                throw settings.error("type", owner + ": hook type " + ConfigScalar.quote(type) +
                    " is not supported; supported: " + String.join(", ", TYPES.keySet()));
            }
            final Boolean enabled = settings.bool("enabled");
            final Integer priority = settings.int32("priority");
            final Hook hook = factory.create(settings, owner, context);
            settings.finish();
            if (enabled == null || enabled)
            {
                created.add(new Ordered(priority == null ? 0 : priority, hook));
            }
        }
        created.sort(Comparator.comparingInt(Ordered::priority)); // stable: equal priorities keep their order
        return created.stream().map(Ordered::hook).toList();
    }

    private static ConfigGroup asGroup(final ConfigValue entry, final String owner)
    {
        if (entry instanceof ConfigGroup group)
        {
            return group;
        }
        if (entry instanceof ConfigScalar scalar && scalar.value() instanceof String)
        {
            return ConfigGroup.builder(entry.location()).add("type", entry.location(), entry).build();
        }
        throw new ConfigException(entry.location(), owner + ": a hook is a group such as { type = \"stats\" } " +
            "or a type's name, not " + entry.kind() + " " + entry);
    }

    private record Ordered(int priority, Hook hook)
    {
    }

    /** Builds a hook of one type from its settings. */
    @FunctionalInterface
    interface Factory
    {
        /**
         * @param settings the hook's group; the factory asks for every key of its type.
         * @param owner    what the hook belongs to, for messages.
         * @param context  where relative output names are resolved.
         * @return the hook, not yet started.
         */
        Hook create(GroupBinder settings, String owner, NodeContext context);
    }
}
