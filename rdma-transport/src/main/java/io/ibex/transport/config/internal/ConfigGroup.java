package io.ibex.transport.config.internal;

import io.ibex.transport.config.ConfigException;
import io.ibex.transport.config.ConfigLocation;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Named settings in the order they were written: a libconfig group {@code { }} (or a whole file), or a JSON
 * object. Names are unique.
 */
public final class ConfigGroup implements ConfigValue
{
    /** libconfig's setting names, required of JSON keys too so that every tree can be written as libconfig. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z*][-A-Za-z0-9_*]*");

    private final Map<String, Setting> settings;
    private final ConfigLocation location;

    private ConfigGroup(final Map<String, Setting> settings, final ConfigLocation location)
    {
        this.settings = Collections.unmodifiableMap(settings);
        this.location = location;
    }

    /**
     * @param location where the group opens (for a whole file: its start).
     * @return a builder that adds settings in order.
     */
    public static Builder builder(final ConfigLocation location)
    {
        return new Builder(Objects.requireNonNull(location, "location"));
    }

    /** @return the names in the order they were written (unmodifiable). */
    public Set<String> names()
    {
        return settings.keySet();
    }

    /** @return the settings in the order they were written. */
    public List<Setting> settings()
    {
        return List.copyOf(settings.values());
    }

    /** @return how many settings. */
    public int size()
    {
        return settings.size();
    }

    /**
     * @param name a setting's name.
     * @return whether a setting of that name is there.
     */
    public boolean has(final String name)
    {
        return settings.containsKey(name);
    }

    /**
     * @param name a setting's name.
     * @return the setting (its name's location and its value), or null if there is none.
     */
    public Setting setting(final String name)
    {
        return settings.get(name);
    }

    /**
     * @param name a setting's name.
     * @return its value, or null if there is none.
     */
    public ConfigValue get(final String name)
    {
        final Setting setting = settings.get(name);
        return setting == null ? null : setting.value();
    }

    /**
     * @param path names joined by dots, such as {@code "nodes.ib_node_source.in"}.
     * @return the value there, or null if a step is missing or is not a group.
     */
    public ConfigValue find(final String path)
    {
        ConfigValue value = this;
        for (final String name : path.split("\\.", -1))
        {
            if (!(value instanceof ConfigGroup group))
            {
                return null;
            }
            value = group.get(name);
        }
        return value;
    }

    @Override
    public ConfigLocation location()
    {
        return location;
    }

    @Override
    public String kind()
    {
        return "group";
    }

    /** @return the group in libconfig syntax. */
    @Override
    public String toString()
    {
        final StringBuilder text = new StringBuilder("{ ");
        for (final Setting setting : settings.values())
        {
            text.append(setting.name()).append(" = ").append(setting.value()).append("; ");
        }
        return text.append('}').toString();
    }

    /** @return whether {@code other} is a group with the same names and equal values, in any order. */
    @Override
    public boolean equals(final Object other)
    {
        return other instanceof ConfigGroup group && values().equals(group.values());
    }

    @Override
    public int hashCode()
    {
        return values().hashCode();
    }

    private Map<String, ConfigValue> values()
    {
        final Map<String, ConfigValue> values = new LinkedHashMap<>();
        settings.forEach((name, setting) -> values.put(name, setting.value()));
        return values;
    }

    /**
     * One named value of a group.
     *
     * @param name     the name.
     * @param location where the name was written (the start of the setting).
     * @param value    the value.
     */
    public record Setting(String name, ConfigLocation location, ConfigValue value)
    {
        /**
         * Checks the fields.
         *
         * @param name     the setting's name.
         * @param location where the name was written (the start of the setting).
         * @param value    the value.
         */
        public Setting
        {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(location, "location");
            Objects.requireNonNull(value, "value");
        }
    }

    /**
     * Adds settings in order and refuses a name given twice, for both readers.
     */
    public static final class Builder
    {
        private final Map<String, Setting> settings = new LinkedHashMap<>();
        private final ConfigLocation location;

        private Builder(final ConfigLocation location)
        {
            this.location = location;
        }

        /**
         * @param name         the setting's name.
         * @param nameLocation where the name was written.
         * @param value        its value.
         * @return this builder.
         * @throws ConfigException at {@code nameLocation} if the name is not a setting name, or the group has a
         *                         setting of that name already.
         */
        public Builder add(final String name, final ConfigLocation nameLocation, final ConfigValue value)
        {
            if (!NAME.matcher(name).matches())
            {
                throw new ConfigException(nameLocation, ConfigScalar.quote(name) + " is not a setting name (a " +
                    "letter or '*', then letters, digits, '-', '_' or '*')");
            }
            final Setting first = settings.get(name);
            if (first != null)
            {
                throw new ConfigException(nameLocation,
                    "duplicate setting '" + name + "' (first set at " + first.location() + ")");
            }
            settings.put(name, new Setting(name, nameLocation, value));
            return this;
        }

        /** @return the group (later additions to this builder do not change it). */
        public ConfigGroup build()
        {
            return new ConfigGroup(new LinkedHashMap<>(settings), location);
        }
    }
}
