package io.ibex.transport.config.internal;

import io.ibex.transport.config.ConfigException;
import io.ibex.transport.config.ConfigLocation;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads typed settings out of a {@link ConfigGroup} and its sub-groups, remembering which keys it was asked about,
 * so that {@link #finish()} can reject every other key with its location and the nearest known key. Keys are named
 * by their path from the group the binder started at ({@code in.vectorize}, {@code signals[2].type}).
 *
 * <p>A getter returns null when the key is absent and throws a {@link ConfigException} naming the key, the value
 * and its location when the value has another type.
 */
public final class GroupBinder
{
    private final ConfigGroup group;
    private final String prefix;
    private final Keys keys;

    private GroupBinder(final ConfigGroup group, final String prefix, final Keys keys)
    {
        this.group = group;
        this.prefix = prefix;
        this.keys = keys;
        for (final ConfigGroup.Setting setting : group.settings())
        {
            keys.present.add(new Key(prefix + setting.name(), setting.location()));
        }
    }

    /**
     * @param group the group whose keys this binder is to account for.
     * @return a binder whose paths start at {@code group}.
     */
    public static GroupBinder of(final ConfigGroup group)
    {
        return new GroupBinder(group, "", new Keys());
    }

    /** @return the group this binder reads. */
    public ConfigGroup group()
    {
        return group;
    }

    /** @return where the group starts. */
    public ConfigLocation location()
    {
        return group.location();
    }

    /**
     * @param name a key of this group.
     * @return its path from where the binder started, e.g. {@code "in.vectorize"}.
     */
    public String path(final String name)
    {
        return prefix + name;
    }

    /**
     * @param name a key of this group, now known.
     * @return the setting, or null if absent.
     */
    public ConfigGroup.Setting setting(final String name)
    {
        keys.known.add(path(name));
        return group.setting(name);
    }

    /**
     * @param name  a key, now known.
     * @param alias another name for it, now known.
     * @return the one of the two that is present ({@code name} if neither is).
     * @throws ConfigException if both are present.
     */
    public String either(final String name, final String alias)
    {
        final ConfigGroup.Setting main = setting(name);
        final ConfigGroup.Setting other = setting(alias);
        if (main != null && other != null)
        {
            throw new ConfigException(other.location(), path(alias) + " is another name for " + path(name) +
                ", which is set already at " + main.location() + ": give only one");
        }
        return other != null ? alias : name;
    }

    /**
     * @param name a key, now known.
     * @return its value as it is, or null if absent.
     */
    public ConfigValue value(final String name)
    {
        final ConfigGroup.Setting setting = setting(name);
        return setting == null ? null : setting.value();
    }

    /**
     * @param name a key, now known.
     * @return where its value was written, or null if absent.
     */
    public ConfigLocation valueLocation(final String name)
    {
        final ConfigGroup.Setting setting = setting(name);
        return setting == null ? null : setting.value().location();
    }

    /**
     * @param name a key whose value must be a group, now known.
     * @return a binder for it; for an absent key, a binder for an empty group at this group's location (so the
     *         keys asked of it become known too).
     */
    public GroupBinder group(final String name)
    {
        final ConfigGroup.Setting setting = setting(name);
        if (setting == null)
        {
            return new GroupBinder(ConfigGroup.builder(group.location()).build(), path(name) + '.', keys);
        }
        return new GroupBinder(expect(setting, ConfigGroup.class, "a group { }"), path(name) + '.', keys);
    }

    /**
     * @param name a key whose value must be a list of groups, now known.
     * @return a binder for each group, with paths such as {@code signals[2].type}; empty if the key is absent.
     */
    public List<GroupBinder> groups(final String name)
    {
        final ConfigGroup.Setting setting = setting(name);
        final List<GroupBinder> binders = new ArrayList<>();
        if (setting != null)
        {
            final List<ConfigValue> elements = expect(setting, ConfigList.class, "a list of groups").elements();
            for (int i = 0; i < elements.size(); i++)
            {
                final String elementPath = path(name) + '[' + i + ']';
                if (!(elements.get(i) instanceof ConfigGroup element))
                {
                    throw mismatch(elementPath, elements.get(i), "a group { }");
                }
                binders.add(new GroupBinder(element, elementPath + '.', keys));
            }
        }
        return binders;
    }

    /**
     * @param name a key whose value must be a string, now known.
     * @return the string, or null if absent.
     */
    public String string(final String name)
    {
        final ConfigGroup.Setting setting = setting(name);
        return setting == null ? null : (String)scalar(setting, String.class, "a string");
    }

    /**
     * @param name  a key whose value must be a string, now known.
     * @param parse turns the string into a value, throwing IllegalArgumentException with what is wrong.
     * @param <T>   the value's type.
     * @return the value, or null if absent.
     * @throws ConfigException at the value, naming the key and what the parser said, if it throws.
     */
    public <T> T parsed(final String name, final Function<String, T> parse)
    {
        final String text = string(name);
        try
        {
            return text == null ? null : parse.apply(text);
        }
        catch (final IllegalArgumentException ex)
        {
            throw error(name, path(name) + ": " + ex.getMessage());
        }
    }

    /**
     * @param name a key whose value must be an integer, now known.
     * @return the integer, or null if absent.
     */
    public Long integer(final String name)
    {
        final ConfigGroup.Setting setting = setting(name);
        return setting == null ? null : (Long)scalar(setting, Long.class, "an integer");
    }

    /**
     * @param name a key whose value must be an integer that fits an int, now known.
     * @return the integer, or null if absent.
     */
    public Integer int32(final String name)
    {
        final Long value = integer(name);
        if (value != null && (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE))
        {
            throw error(name, path(name) + " = " + value + " does not fit in 32 bits");
        }
        return value == null ? null : value.intValue();
    }

    /**
     * @param name a key whose value must be a number (an integer is taken as a float), now known.
     * @return the number, or null if absent.
     */
    public Double number(final String name)
    {
        final ConfigGroup.Setting setting = setting(name);
        return setting == null ? null : ((Number)scalar(setting, Number.class, "a number")).doubleValue();
    }

    /**
     * @param name a key whose value must be a boolean, now known.
     * @return the boolean, or null if absent.
     */
    public Boolean bool(final String name)
    {
        final ConfigGroup.Setting setting = setting(name);
        return setting == null ? null : (Boolean)scalar(setting, Boolean.class, "a boolean");
    }

    /**
     * @param name    a key that is present.
     * @param problem what is wrong with it, naming the key and value.
     * @return an exception at the location of the key's value (of the group if the key is absent).
     */
    public ConfigException error(final String name, final String problem)
    {
        final ConfigGroup.Setting setting = group.setting(name);
        return new ConfigException(setting == null ? group.location() : setting.value().location(), problem);
    }

    /**
     * Rejects the first key, in this binder's group or any group reached from it, that no getter was asked about.
     *
     * @throws ConfigException naming the key, its location and the nearest known key if one is close.
     */
    public void finish()
    {
        for (final Key key : keys.present)
        {
            if (!keys.known.contains(key.path()))
            {
                final String nearest = KeySuggestion.nearest(key.path(), keys.known);
                throw new ConfigException(key.location(), "unknown key '" + key.path() + "'" +
                    (nearest == null ? "" : " (did you mean '" + nearest + "'?)"));
            }
        }
    }

    private Object scalar(final ConfigGroup.Setting setting, final Class<?> type, final String expected)
    {
        final ConfigScalar scalar = expect(setting, ConfigScalar.class, expected);
        if (!type.isInstance(scalar.value()))
        {
            throw mismatch(path(setting.name()), scalar, expected);
        }
        return scalar.value();
    }

    private <T extends ConfigValue> T expect(final ConfigGroup.Setting setting, final Class<T> type,
        final String expected)
    {
        if (!type.isInstance(setting.value()))
        {
            throw mismatch(path(setting.name()), setting.value(), expected);
        }
        return type.cast(setting.value());
    }

    private static ConfigException mismatch(final String path, final ConfigValue value, final String expected)
    {
        final String found = value instanceof ConfigScalar ? value.kind() + " " + value : "a " + value.kind();
        return new ConfigException(value.location(), path + " must be " + expected + ", not " + found);
    }

    private record Key(String path, ConfigLocation location)
    {
    }

    /**
     * What the binders of one tree share: the keys present and the keys asked about.
     */
    private static final class Keys
    {
        private final List<Key> present = new ArrayList<>();
        private final Set<String> known = new LinkedHashSet<>();
    }
}
