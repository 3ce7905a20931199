package io.ibex.transport.config.internal;

import io.ibex.transport.config.ConfigException;
import io.ibex.transport.config.ConfigLocation;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.StringJoiner;

/**
 * Reads the libconfig syntax that VILLASnode's {@code .conf} files use: settings {@code name = value} or
 * {@code name : value} with optional {@code ;} or {@code ,} after them, groups {@code { }}, arrays {@code [ ]}
 * (scalars of one type), lists {@code ( )}, strings with escapes (adjacent literals are joined), integers
 * (decimal or {@code 0x} hex, optional {@code L}/{@code LL}), floats, booleans (any case), comments
 * ({@code #}, {@code //}, {@code /* *}{@code /}) and {@code @include "file"}, relative to the including file.
 * Every error names the file, line and column and what was expected there. A file and its includes hold at most
 * {@link ConfigReaders#MAX_BYTES} bytes and {@link ConfigReaders#MAX_VALUES} values, and includes nest at most
 * {@link ConfigReaders#MAX_INCLUDE_DEPTH} deep.
 */
public final class LibconfigReader
{
    private final Deque<Path> including = new ArrayDeque<>();
    private long bytesLeft = ConfigReaders.MAX_BYTES;
    private int valuesLeft = ConfigReaders.MAX_VALUES;

    private LibconfigReader()
    {
    }

    /**
     * @param file a libconfig file.
     * @return its settings, the group located at the file's first line.
     * @throws ConfigException if it cannot be read or is not valid libconfig.
     */
    public static ConfigGroup read(final Path file)
    {
        final ConfigGroup.Builder root = ConfigGroup.builder(new ConfigLocation(file.toString(), 1, 1));
        new LibconfigReader().parseFileInto(file, root, null, null);
        return root.build();
    }

    /**
     * @param text   libconfig text.
     * @param source the name that locations give (includes are resolved beside it, as if it were a file).
     * @return its settings.
     * @throws ConfigException if it is not valid libconfig.
     */
    public static ConfigGroup parse(final String text, final String source)
    {
        final ConfigGroup.Builder root = ConfigGroup.builder(new ConfigLocation(source, 1, 1));
        final LibconfigReader reader = new LibconfigReader();
        reader.including.push(Path.of(source).toAbsolutePath().normalize());
        new LibconfigParser(new LibconfigCursor(text, source), reader).parseFile(root);
        return root.build();
    }

    /**
     * Parses the file an {@code @include} names into the group where the directive stands.
     */
    void include(final String name, final ConfigLocation directive, final ConfigGroup.Builder group)
    {
        final Path includer = including.peek();
        final Path file;
        try
        {
            file = includer.resolveSibling(name);
        }
        catch (final InvalidPathException ex)
        {
            throw new ConfigException(directive, "@include \"" + name + "\": not a file name (" + ex.getReason() + ")");
        }
        final String notAFile = ConfigText.notARegularFile(file);
        if (notAFile != null)
        {
            throw new ConfigException(directive, "@include \"" + name + "\": " + file + " " + notAFile);
        }
        if (!Files.exists(file))
        {
            throw new ConfigException(directive, "@include \"" + name + "\": no such file " + file);
        }
        if (including.contains(file.toAbsolutePath().normalize()))
        {
            throw new ConfigException(directive, "@include \"" + name + "\" makes a cycle: " + cycle(file));
        }
        if (including.size() > ConfigReaders.MAX_INCLUDE_DEPTH)
        {
            throw new ConfigException(directive, "@include \"" + name + "\" nests includes " + including.size() +
                " deep, more than the " + ConfigReaders.MAX_INCLUDE_DEPTH + " libconfig allows (top file " +
                including.peekLast() + ")");
        }
        parseFileInto(file, group, name, directive);
    }

    /**
     * Counts a value against {@link ConfigReaders#MAX_VALUES}, for the config and all its includes.
     *
     * @return false if it is one too many.
     */
    boolean takeValue()
    {
        return valuesLeft-- > 0;
    }

    /**
     * @param name      the name the {@code @include} gave, or null for the file read.
     * @param directive where that {@code @include} stands, or null.
     */
    private void parseFileInto(final Path file, final ConfigGroup.Builder group, final String name,
        final ConfigLocation directive)
    {
        final ConfigText text;
        try
        {
            text = ConfigText.read(file, bytesLeft);
        }
        catch (final ConfigText.TooLarge ex)
        {
            throw directive == null ? new ConfigException(ConfigLocation.of(file.toString()),
                ConfigReaders.tooLarge(ex.bytes())) : new ConfigException(directive, "@include \"" + name + "\": " +
                file + " (" + ex.bytes() + " bytes) brings the config and its includes to more than the " +
                ConfigReaders.MAX_BYTES + " bytes (" + (ConfigReaders.MAX_BYTES >> 20) + " MiB) they may hold");
        }
        bytesLeft -= text.bytes();
        including.push(file.toAbsolutePath().normalize());
        new LibconfigParser(new LibconfigCursor(text.text(), file.toString()), this).parseFile(group);
        including.pop();
    }

    private String cycle(final Path file)
    {
        final StringJoiner chain = new StringJoiner(" -> ");
        including.descendingIterator().forEachRemaining(path -> chain.add(path.getFileName().toString()));
        return chain.add(file.getFileName().toString()).toString();
    }
}
