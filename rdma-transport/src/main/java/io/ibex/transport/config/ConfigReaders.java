package io.ibex.transport.config;

import java.nio.file.Path;
import java.util.Locale;

/**
 * Reads a config file in the syntax its name says: {@code .conf} is libconfig, {@code .json} is JSON.
 */
public final class ConfigReaders
{
    /**
     * The deepest nesting of groups, lists and arrays either reader takes: far more than any VILLAS config needs,
     * and few enough that reading (which recurses) cannot overflow a thread's stack.
     */
    public static final int MAX_DEPTH = 100;

    private ConfigReaders()
    {
    }

    /**
     * @param file a {@code .conf} or {@code .json} file.
     * @return its top-level group.
     * @throws ConfigException if the extension is neither, or the file cannot be read or parsed.
     */
    public static ConfigGroup read(final Path file)
    {
        final String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".conf"))
        {
            return LibconfigReader.read(file);
        }
        if (name.endsWith(".json"))
        {
            return JsonConfigReader.read(file);
        }
        throw new ConfigException(ConfigLocation.of(file.toString()),
            "cannot tell the config syntax: the file name must end in .conf (libconfig) or .json (JSON)");
    }

    /**
     * @param location where the value that goes one level too deep opens.
     * @return the error of a reader that met it.
     */
    static ConfigException tooDeep(final ConfigLocation location)
    {
        return new ConfigException(location, "groups, lists and arrays nest more than " + MAX_DEPTH + " deep here");
    }
}
