package io.ibex.transport.config.internal;

import io.ibex.transport.config.ConfigException;
import io.ibex.transport.config.ConfigLocation;

import java.nio.file.Path;
import java.util.List;
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

    /** What either reader says at a value that goes one level too deep. */
    static final String TOO_DEEP = "groups, lists and arrays nest more than " + MAX_DEPTH + " deep here";

    /**
     * The most bytes a config file and all its includes may hold together: VILLAS configs are kilobytes, and
     * a bound on the text bounds the memory reading takes (the text, and the values it can hold).
     */
    public static final int MAX_BYTES = 4 << 20;

    /**
     * The most values (settings and list or array elements) a config and its includes may hold: VILLAS configs
     * have hundreds, and a value costs 50 to 250 bytes of heap, so the tree stays under 25 MB.
     */
    public static final int MAX_VALUES = 100_000;

    /** What either reader says at the first value too many. */
    static final String TOO_MANY_VALUES = "more than " + MAX_VALUES +
        " values (settings and list elements) in the config and its includes";

    /**
     * The deepest chain of {@code @include}s (the file read is depth 0): libconfig's own MAX_INCLUDE_DEPTH,
     * which VILLASnode reads with, so that every config VILLASnode takes is taken here too.
     */
    public static final int MAX_INCLUDE_DEPTH = 10;

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
     * @param path    the setting names and list indexes ({@code "[2]"}) down to a value, from the top level.
     * @param problem what is wrong there.
     * @return the problem, after the value's key ({@code "in.cq_size: ..."}) unless the path is empty.
     */
    static String naming(final List<String> path, final String problem)
    {
        final StringBuilder key = new StringBuilder();
        for (final String step : path)
        {
            if (key.length() > 0 && !step.startsWith("["))
            {
                key.append('.');
            }
            key.append(step);
        }
        return key.length() == 0 ? problem : key + ": " + problem;
    }

    /**
     * @param bytes the size of a file that is too large.
     * @return what either reader says of a file that alone holds more than {@link #MAX_BYTES}.
     */
    static String tooLarge(final long bytes)
    {
        return "the file is " + bytes + " bytes, more than the " + MAX_BYTES + " bytes (" + (MAX_BYTES >> 20) +
            " MiB) a config and its includes may hold";
    }

    /**
     * @param text a float as written.
     * @return what either reader says of a float beyond a double's range, which no syntax could write back.
     */
    static String beyondDouble(final String text)
    {
        return "float " + text + " is beyond the range of a 64-bit float";
    }
}
