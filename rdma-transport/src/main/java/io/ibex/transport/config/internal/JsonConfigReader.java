package io.ibex.transport.config.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import io.ibex.transport.config.ConfigException;
import io.ibex.transport.config.ConfigLocation;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Reads a VILLASnode JSON config into the same tree as {@link LibconfigReader}, with the line and column of every
 * value (Jackson's streaming parser gives each token's location). The top level must be an object; a key given
 * twice in one object is an error, as in libconfig. A file holds at most {@link ConfigReaders#MAX_BYTES} bytes of
 * UTF-8 and {@link ConfigReaders#MAX_VALUES} values.
 */
public final class JsonConfigReader
{
    private static final JsonFactory FACTORY = JsonFactory.builder().build();

    private final String source;
    private int depth;
    private int valuesLeft = ConfigReaders.MAX_VALUES;

    private JsonConfigReader(final String source)
    {
        this.source = source;
    }

    /**
     * @param file a JSON file.
     * @return the top-level object.
     * @throws ConfigException if it cannot be read or is not valid JSON.
     */
    public static ConfigGroup read(final Path file)
    {
        final ConfigText text;
        try
        {
            text = ConfigText.read(file, ConfigReaders.MAX_BYTES);
        }
        catch (final ConfigText.TooLarge ex)
        {
            throw new ConfigException(ConfigLocation.of(file.toString()), ConfigReaders.tooLarge(ex.bytes()));
        }
        return parse(text.text(), file.toString());
    }

    /**
     * @param text   JSON text.
     * @param source the name that locations give.
     * @return the top-level object.
     * @throws ConfigException if it is not valid JSON.
     */
    public static ConfigGroup parse(final String text, final String source)
    {
        try
        {
            return new JsonConfigReader(source).readRoot(new StringReader(text));
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("reading a string cannot fail", ex);
        }
    }

    private ConfigGroup readRoot(final Reader text) throws IOException
    {
        try (JsonParser parser = FACTORY.createParser(text))
        {
            try
            {
                return readTopLevel(parser);
            }
            catch (final JsonProcessingException ex)
            {
                // Jackson's limits on the length of numbers and strings say no location: the parser is there
                final JsonLocation location = ex.getLocation() != null ? ex.getLocation() : parser.currentLocation();
                // a value that fails to parse belongs to the key just read; anything else to the key's container
                final boolean inKey = parser.currentToken() == JsonToken.FIELD_NAME;
                throw new ConfigException(location(location), naming(parser, inKey, ex.getOriginalMessage()), ex);
            }
        }
    }

    private ConfigGroup readTopLevel(final JsonParser parser) throws IOException
    {
        final JsonToken first = parser.nextToken();
        if (first != JsonToken.START_OBJECT)
        {
            throw new ConfigException(location(parser), "a config's top level must be a JSON object { }, not " +
                (first == null ? "empty" : parser.getText()));
        }
        final ConfigGroup root = readGroup(parser);
        if (parser.nextToken() != null)
        {
            throw new ConfigException(location(parser), "unexpected " + parser.getText() +
                " after the top-level object");
        }
        return root;
    }

    /**
     * Reads the value whose first token the parser is on.
     */
    private ConfigValue readValue(final JsonParser parser) throws IOException
    {
        final ConfigLocation location = location(parser);
        if (valuesLeft-- == 0)
        {
            throw new ConfigException(location, naming(parser, true, ConfigReaders.TOO_MANY_VALUES));
        }
        final JsonToken token = parser.currentToken();
        if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY)
        {
            if (++depth > ConfigReaders.MAX_DEPTH)
            {
                throw new ConfigException(location, naming(parser, true, ConfigReaders.TOO_DEEP));
            }
            final ConfigValue value = token == JsonToken.START_OBJECT ? readGroup(parser) : readList(parser);
            depth--;
            return value;
        }
        return switch (token)
        {
            case VALUE_STRING -> new ConfigScalar(parser.getText(), location);
            case VALUE_NUMBER_INT -> new ConfigScalar(readLong(parser, location), location);
            case VALUE_NUMBER_FLOAT -> new ConfigScalar(readDouble(parser, location), location);
            case VALUE_TRUE, VALUE_FALSE -> new ConfigScalar(parser.getBooleanValue(), location);
            case VALUE_NULL -> throw new ConfigException(location,
                naming(parser, true, "null is not a config value (leave the key out for its default)"));
            default -> throw new ConfigException(location, naming(parser, true, "unexpected " + parser.getText()));
        };
    }

    private ConfigGroup readGroup(final JsonParser parser) throws IOException
    {
        final ConfigGroup.Builder group = ConfigGroup.builder(location(parser));
        while (parser.nextToken() == JsonToken.FIELD_NAME)
        {
            final String name = parser.currentName();
            final ConfigLocation nameLocation = location(parser);
            parser.nextToken();
            group.add(name, nameLocation, readValue(parser));
        }
        return group.build();
    }

    private ConfigList readList(final JsonParser parser) throws IOException
    {
        final ConfigLocation open = location(parser);
        final List<ConfigValue> elements = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY)
        {
            elements.add(readValue(parser));
        }
        return new ConfigList(elements, open);
    }

    private static long readLong(final JsonParser parser, final ConfigLocation location) throws IOException
    {
        if (parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER)
        {
            throw new ConfigException(location,
                naming(parser, true, "integer " + parser.getText() + " does not fit in 64 bits"));
        }
        return parser.getLongValue();
    }

    private static double readDouble(final JsonParser parser, final ConfigLocation location) throws IOException
    {
        final double value = parser.getDoubleValue();
        if (Double.isInfinite(value))
        {
            throw new ConfigException(location, naming(parser, true, ConfigReaders.beyondDouble(parser.getText())));
        }
        return value;
    }

    /**
     * @param inValue whether the problem is in the value of the key (or list element) the parser read last, rather
     *                than after it.
     * @return {@code problem} after the key ({@code "in.cq_size: ..."}), if any.
     */
    private static String naming(final JsonParser parser, final boolean inValue, final String problem)
    {
        final Deque<String> path = new ArrayDeque<>();
        for (JsonStreamContext context = parser.getParsingContext(); context != null && !context.inRoot();
            context = context.getParent())
        {
            if (context.inObject() && context.getCurrentName() != null)
            {
                path.push(context.getCurrentName());
            }
            else if (context.inArray() && context.getCurrentIndex() >= 0)
            {
                path.push("[" + context.getCurrentIndex() + "]");
            }
        }
        if (!inValue && !path.isEmpty())
        {
            path.removeLast();
        }
        return ConfigReaders.naming(List.copyOf(path), problem);
    }

    private ConfigLocation location(final JsonParser parser)
    {
        return location(parser.currentTokenLocation());
    }

    private ConfigLocation location(final JsonLocation location)
    {
        // Jackson says column 0 before the first character (an empty file): lines and columns count from 1 here.
        return location == null ? ConfigLocation.of(source) :
            new ConfigLocation(source, Math.max(1, location.getLineNr()), Math.max(1, location.getColumnNr()));
    }
}
