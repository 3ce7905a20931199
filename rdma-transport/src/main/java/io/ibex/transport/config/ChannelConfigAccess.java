package io.ibex.transport.config;

import io.ibex.transport.config.internal.ChannelConfigs;
import io.ibex.transport.config.internal.ConfigGroup;
import io.ibex.transport.config.internal.ConfigValue;

/**
 * What {@link ChannelConfig} lends the runner through {@link ChannelConfigs}: binding a node of a config tree, and
 * the hooks as written. Stateless; installed once, by {@link ChannelConfig}'s static initialiser.
 */
final class ChannelConfigAccess implements ChannelConfigs.Access
{
    @Override
    public ChannelConfig fromGroup(final String nodeName, final ConfigGroup node)
    {
        return ChannelConfigBinder.bind(nodeName, node);
    }

    @Override
    public ConfigValue hooks(final ChannelConfig config, final String key)
    {
        return switch (key)
        {
            case "hooks" -> config.hooks();
            case "in.hooks" -> config.in().hooks();
            case "out.hooks" -> config.out().hooks();
            default -> throw new IllegalArgumentException("no hooks at " + key);
        };
    }
}
