package io.ibex.transport.config.internal;

import io.ibex.transport.config.ChannelConfig;

/**
 * What the runner needs of a {@link ChannelConfig} beyond its public API: binding a node of a config tree, and the
 * node's hooks as written. {@link ChannelConfig} hands its implementation over when its class is initialised.
 */
public final class ChannelConfigs
{
    private static volatile Access access;

    private ChannelConfigs()
    {
    }

    /** The operations {@link ChannelConfig} implements for this class. */
    public interface Access
    {
        /**
         * @param nodeName the node's name.
         * @param node     its settings.
         * @return the config, not yet checked.
         */
        ChannelConfig fromGroup(String nodeName, ConfigGroup node);

        /**
         * @param config a config.
         * @param key    {@code hooks}, {@code in.hooks} or {@code out.hooks}.
         * @return the hooks as written, or null.
         */
        ConfigValue hooks(ChannelConfig config, String key);
    }

    /**
     * Called once, by {@link ChannelConfig}'s static initialiser.
     *
     * @param implementation the operations.
     * @throws IllegalStateException if they were set already.
     */
    public static void install(final Access implementation)
    {
        if (access != null)
        {
            throw new IllegalStateException("ChannelConfigs: access is installed already");
        }
        access = implementation;
    }

    /**
     * Binds the settings of one node of a config tree (VILLAS names: {@code in.cq_size}, ...).
     *
     * @param nodeName the node's name, which becomes {@link ChannelConfig#name()}.
     * @param node     its settings.
     * @return the config, not yet {@link ChannelConfig#check() checked}.
     * @throws io.ibex.transport.config.ConfigException for an unknown key, a value of the wrong type, or a value
     *     out of range.
     */
    public static ChannelConfig fromGroup(final String nodeName, final ConfigGroup node)
    {
        return access().fromGroup(nodeName, node);
    }

    /**
     * @param config a config.
     * @return the node's {@code hooks} as written, or null.
     */
    public static ConfigValue hooks(final ChannelConfig config)
    {
        return access().hooks(config, "hooks");
    }

    /**
     * @param config a config.
     * @return the node's {@code in.hooks} as written, or null.
     */
    public static ConfigValue inHooks(final ChannelConfig config)
    {
        return access().hooks(config, "in.hooks");
    }

    /**
     * @param config a config.
     * @return the node's {@code out.hooks} as written, or null.
     */
    public static ConfigValue outHooks(final ChannelConfig config)
    {
        return access().hooks(config, "out.hooks");
    }

    private static Access access()
    {
        final Access installed = access;
        if (installed != null)
        {
            return installed;
        }
        try
        {
            Class.forName(ChannelConfig.class.getName(), true, ChannelConfigs.class.getClassLoader());
        }
        catch (final ClassNotFoundException ex)
        {
            throw new IllegalStateException(ex);
        }
        return access;
    }
}
