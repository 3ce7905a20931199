package io.ibex.transport.config;

import io.ibex.transport.config.internal.SocketAddresses;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Where each setting of one config being built got its value (a file position or a builder method), and the
 * checks of single values that name it in their errors. Owned by one {@link ChannelConfig.Builder} and the part
 * builders it hands out; not thread-safe.
 */
final class ConfigOrigins
{
    private final ConfigLocation defaultLocation;
    private final Map<String, Origin> origins = new HashMap<>();

    /**
     * @param defaultLocation the location of a setting nothing set: the node, or {@code ChannelConfig.builder()}.
     */
    ConfigOrigins(final ConfigLocation defaultLocation)
    {
        this.defaultLocation = defaultLocation;
    }

    /** @return the location of a setting nothing set. */
    ConfigLocation defaultLocation()
    {
        return defaultLocation;
    }

    /** @return the origins recorded so far, by key, as an immutable map. */
    Map<String, Origin> snapshot()
    {
        return Map.copyOf(origins);
    }

    /** @param recorded origins to take over, as {@link #snapshot()} returned them. */
    void putAll(final Map<String, Origin> recorded)
    {
        origins.putAll(recorded);
    }

    /**
     * Records that a builder method set a key.
     *
     * @param key    the key's canonical path, such as {@code "in.max_wrs"}.
     * @param method the builder method, such as {@code "in(...).maxWrs"}.
     */
    void set(final String key, final String method)
    {
        origins.put(key, new Origin(key, builderLocation(method), false));
    }

    /**
     * Records where a binder found a setting.
     *
     * @param key      the key's canonical path.
     * @param written  the key as written (an alias, maybe).
     * @param location where its value was written.
     */
    void record(final String key, final String written, final ConfigLocation location)
    {
        origins.put(key, new Origin(written, location, false));
    }

    /**
     * @param key a key's canonical path.
     * @return how it was set, or a defaulted origin at {@link #defaultLocation()}.
     */
    Origin origin(final String key)
    {
        return origin(origins, defaultLocation, key);
    }

    static Origin origin(final Map<String, Origin> origins, final ConfigLocation defaultLocation, final String key)
    {
        final Origin origin = origins.get(key);
        return origin != null ? origin : new Origin(key, defaultLocation, true);
    }

    /**
     * @param text   an address as a config writes it ("ip:port", "[ipv6]:port"), or null.
     * @param key    the key it is for.
     * @param method the builder method that was given it.
     * @return the address, or null for null.
     * @throws ConfigException if it is not such an address.
     */
    static InetSocketAddress parseAddress(final String text, final String key, final String method)
    {
        if (text == null)
        {
            return null;
        }
        try
        {
            return SocketAddresses.parse(text);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ConfigException(builderLocation(method), key + ": " + ex.getMessage());
        }
    }

    void require(final String key, final boolean valid, final String problem)
    {
        if (!valid)
        {
            throw new ConfigException(origin(key).location(), problem);
        }
    }

    void requireSet(final String key, final Object value)
    {
        require(key, value != null, key + (origin(key).defaulted() ? " is required" : " must not be null"));
    }

    void requireRange(final String key, final int value, final int min, final int max)
    {
        require(key, value >= min && value <= max, origin(key).describe(value) + " is outside " + min + ".." + max);
    }

    void requirePositive(final String key, final Duration delay)
    {
        requireSet(key, delay);
        require(key, !delay.isNegative() && !delay.isZero(),
            origin(key).describe(delay.toMillis() + " ms") + " must be positive");
    }

    private static ConfigLocation builderLocation(final String method)
    {
        return ConfigLocation.of("ChannelConfig.builder()." + method);
    }

    /**
     * How a setting got its value.
     *
     * @param key       the key as written (an alias if the config used one).
     * @param location  where; for a builder, the method.
     * @param defaulted whether nothing set it.
     */
    record Origin(String key, ConfigLocation location, boolean defaulted)
    {
        /**
         * @param value the setting's value.
         * @return {@code "key = value"}, marked "(default)" if defaulted.
         */
        String describe(final Object value)
        {
            return key + " = " + value + (defaulted ? " (default)" : "");
        }
    }
}
