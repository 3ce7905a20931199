package io.ibex.transport.config.internal;

import io.ibex.transport.config.ConfigException;
import io.ibex.transport.config.ConfigLocation;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Recursive descent over one libconfig file (grammar: the libconfig manual, "Configuration File Grammar").
 * {@code @include} directives are handed back to the {@link LibconfigReader}, which parses the named file into
 * the same group.
 */
final class LibconfigParser
{
    private static final Pattern DECIMAL = Pattern.compile("([-+]?[0-9]+)(L{0,2})");
    private static final Pattern HEX = Pattern.compile("0[xX]([0-9A-Fa-f]+)(L{0,2})");
    /** A digit before or after the point, or an exponent after digits: 1.5, .5, 3., 1e-3 (not ".", not ".e1"). */
    private static final Pattern FLOAT =
        Pattern.compile("[-+]?(([0-9]+\\.[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?|[0-9]+[eE][-+]?[0-9]+)");
    private static final int MAX_HEX_DIGITS = 16;

    private final LibconfigCursor cursor;
    private final LibconfigReader reader;
    private int depth;
    /** The setting names and list indexes down to the value being read, to name it in errors. */
    private final List<String> path = new ArrayList<>();

    LibconfigParser(final LibconfigCursor cursor, final LibconfigReader reader)
    {
        this.cursor = cursor;
        this.reader = reader;
    }

    /**
     * Parses the settings of the whole file into {@code group}.
     */
    void parseFile(final ConfigGroup.Builder group)
    {
        parseSettings(group, null);
    }

    /**
     * Settings until {@code '}'} (left for the caller), or until the end of the file when {@code open} is null.
     */
    private void parseSettings(final ConfigGroup.Builder group, final ConfigLocation open)
    {
        while (true)
        {
            cursor.skipBlanks();
            if (cursor.atEnd())
            {
                if (open != null)
                {
                    throw error(cursor.location(),
                        "expected '}' to close the group opened at " + open + ", found end of file");
                }
                return;
            }
            if (cursor.peek() == '}' && open != null)
            {
                return;
            }
            if (cursor.peek() == '@')
            {
                parseInclude(group);
            }
            else
            {
                parseSetting(group);
            }
        }
    }

    private void parseSetting(final ConfigGroup.Builder group)
    {
        final ConfigLocation nameLocation = cursor.location();
        final String name = cursor.word();
        if (name.isEmpty())
        {
            throw error(nameLocation, "expected a setting name, found " + cursor.describeNext());
        }
        cursor.skipBlanks();
        if (cursor.peek() != '=' && cursor.peek() != ':')
        {
            throw error(cursor.location(),
                "expected '=' or ':' after '" + name + "', found " + cursor.describeNext());
        }
        cursor.next();
        cursor.skipBlanks();
        path.add(name);
        final ConfigValue value = parseValue();
        path.remove(path.size() - 1);
        group.add(name, nameLocation, value);
        cursor.skipBlanks();
        if (cursor.peek() == ';' || cursor.peek() == ',')
        {
            cursor.next();
        }
    }

    private void parseInclude(final ConfigGroup.Builder group)
    {
        final ConfigLocation location = cursor.location();
        cursor.next();
        final String directive = cursor.word();
        if (!directive.equals("include"))
        {
            throw error(location, "unknown directive '@" + directive + "' (only @include is known)");
        }
        cursor.skipBlanks();
        if (cursor.peek() != '"')
        {
            throw error(cursor.location(),
                "expected a quoted file name after @include, found " + cursor.describeNext());
        }
        reader.include(parseString(), location, group);
    }

    private ConfigValue parseValue()
    {
        final ConfigLocation location = cursor.location();
        if (!reader.takeValue())
        {
            throw error(location, ConfigReaders.TOO_MANY_VALUES);
        }
        final char first = cursor.peek();
        if (first != '{' && first != '(' && first != '[')
        {
            return first == '"' ? new ConfigScalar(parseString(), location) : parseWord(location);
        }
        if (++depth > ConfigReaders.MAX_DEPTH)
        {
            throw error(location, ConfigReaders.TOO_DEEP);
        }
        final ConfigValue value = switch (first)
        {
            case '{' -> parseGroup(location);
            case '(' -> new ConfigList(parseElements(')', "list"), location);
            default -> parseArray(location);
        };
        depth--;
        return value;
    }

    private ConfigGroup parseGroup(final ConfigLocation open)
    {
        cursor.next();
        final ConfigGroup.Builder group = ConfigGroup.builder(open);
        parseSettings(group, open);
        cursor.next();
        return group.build();
    }

    private ConfigList parseArray(final ConfigLocation open)
    {
        final List<ConfigValue> elements = parseElements(']', "array");
        for (final ConfigValue element : elements)
        {
            if (!(element instanceof ConfigScalar) || !element.kind().equals(elements.get(0).kind()))
            {
                throw error(element.location(), "an array [ ] holds scalars of one type; this " + element.kind() +
                    " follows " + withArticle(elements.get(0).kind()) + " (a list ( ) may mix values)");
            }
        }
        return new ConfigList(elements, open);
    }

    /**
     * Values separated by commas (a trailing comma is allowed) up to {@code close}.
     */
    private List<ConfigValue> parseElements(final char close, final String what)
    {
        final ConfigLocation open = cursor.location();
        cursor.next();
        final List<ConfigValue> elements = new ArrayList<>();
        cursor.skipBlanks();
        while (cursor.peek() != close)
        {
            if (cursor.atEnd())
            {
                throw error(cursor.location(),
                    "expected '" + close + "' to close the " + what + " opened at " + open + ", found end of file");
            }
            path.add("[" + elements.size() + "]");
            elements.add(parseValue());
            path.remove(path.size() - 1);
            cursor.skipBlanks();
            if (cursor.peek() == ',')
            {
                cursor.next();
                cursor.skipBlanks();
            }
            else if (cursor.peek() != close && !cursor.atEnd())
            {
                throw error(cursor.location(),
                    "expected ',' or '" + close + "' in the " + what + " opened at " + open + ", found " +
                    cursor.describeNext());
            }
        }
        cursor.next();
        return elements;
    }

    /**
     * A string literal and the ones that follow it with only blanks between, joined, as in C.
     */
    private String parseString()
    {
        final StringBuilder text = new StringBuilder();
        do
        {
            parseStringLiteral(text);
            cursor.skipBlanks();
        }
        while (cursor.peek() == '"');
        return text.toString();
    }

    private void parseStringLiteral(final StringBuilder text)
    {
        final ConfigLocation open = cursor.location();
        cursor.next();
        while (cursor.peek() != '"')
        {
            if (cursor.atEnd())
            {
                throw error(open, "string is never closed with '\"'");
            }
            final char c = cursor.next();
            text.append(c == '\\' ? parseEscape() : c);
        }
        cursor.next();
    }

    private char parseEscape()
    {
        final ConfigLocation location = cursor.location();
        final char c = cursor.atEnd() ? LibconfigCursor.END : cursor.next();
        return switch (c)
        {
            case '\\', '"' -> c;
            case 'f' -> '\f';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            case 'x' -> parseHexEscape(location);
            default -> throw error(location,
                "unknown escape '\\" + (c == LibconfigCursor.END ? "" : c) +
                "' (known: \\\\ \\\" \\f \\n \\r \\t \\xNN)");
        };
    }

    private char parseHexEscape(final ConfigLocation location)
    {
        final int high = Character.digit(cursor.peek(), 16);
        final int low = Character.digit(cursor.peek(1), 16);
        if (high < 0 || low < 0)
        {
            throw error(location, "'\\x' must be followed by two hex digits");
        }
        cursor.next();
        cursor.next();
        return (char)(high * 16 + low);
    }

    private ConfigScalar parseWord(final ConfigLocation location)
    {
        final String word = cursor.word();
        if (word.isEmpty())
        {
            throw error(location, "expected a value (a string, number, boolean, group { }, " +
                "array [ ] or list ( )), found " + cursor.describeNext());
        }
        return new ConfigScalar(wordValue(word, location), location);
    }

    private Object wordValue(final String word, final ConfigLocation location)
    {
        if (word.equalsIgnoreCase("true") || word.equalsIgnoreCase("false"))
        {
            return Boolean.valueOf(word.equalsIgnoreCase("true"));
        }
        final var decimal = DECIMAL.matcher(word);
        if (decimal.matches())
        {
            try
            {
                return Long.valueOf(decimal.group(1));
            }
            catch (final NumberFormatException ex)
            {
                throw error(location, "integer " + word + " does not fit in 64 bits");
            }
        }
        final var hex = HEX.matcher(word);
        if (hex.matches())
        {
            if (hex.group(1).length() > MAX_HEX_DIGITS)
            {
                throw error(location, "integer " + word + " does not fit in 64 bits");
            }
            return Long.parseUnsignedLong(hex.group(1), 16);
        }
        if (FLOAT.matcher(word).matches())
        {
            final double value = Double.parseDouble(word);
            if (Double.isInfinite(value))
            {
                throw error(location, ConfigReaders.beyondDouble(word));
            }
            return value;
        }
        throw error(location, "'" + word + "' is not a value (strings need double quotes; " +
            "numbers are like 12, 0x1f, 1.5e3; booleans true or false)");
    }

    private static String withArticle(final String kind)
    {
        return (kind.equals("integer") ? "an " : "a ") + kind;
    }

    /**
     * @return an error at {@code location} that names the setting being read, if any ({@code "in.cq_size: ..."}).
     */
    private ConfigException error(final ConfigLocation location, final String problem)
    {
        return new ConfigException(location, ConfigReaders.naming(path, problem));
    }
}
