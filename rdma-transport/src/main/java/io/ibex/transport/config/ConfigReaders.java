package io.ibex.transport.config;

import java.nio.file.Path;
import java.util.Locale;

/**
 * Reads a config file in the syntax its name says: {@code .conf} is libconfig, {@code .json} is JSON.
 */
public final class ConfigReaders
{
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
}
