package io.ibex.transport.config;

import io.ibex.transport.config.internal.ConfigGroup;
import io.ibex.transport.config.internal.JsonConfigReader;
import io.ibex.transport.config.internal.LibconfigReader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The table of invalid configs in {@code bad-configs.txt} (its header says how a row reads): every check() rule of
 * the channel config, type errors, unknown keys, names from a set, addresses, numbers out of range, signals, and the
 * syntax errors of both readers. Each must be rejected with a {@link ConfigException} at the right line and column
 * that names the key and says what is wrong.
 */
class BadConfigsTest
{
    private static final String TABLE = "bad-configs.txt";
    private static final Pattern HEADER = Pattern.compile("(conf|json) (\\d+):(\\d+) (\\S+) \\| (.+)");
    private static final String INDENT = "    ";

    @ParameterizedTest(name = "{0} {1}:{2} {3}")
    @MethodSource("rows")
    void isRejectedNamingKeyAndReason(
        final String syntax, final int line, final int column, final String key, final String reason, final String text)
    {
        final String source = "bad." + syntax;
        final ConfigException error = assertThrows(ConfigException.class, () ->
        {
            final ConfigGroup root = syntax.equals("conf") ? LibconfigReader.parse(text, source) :
                JsonConfigReader.parse(text, source);
            ChannelConfigBinder.bindNode(root, "n").check();
        });

        final String message = error.getMessage();
        assertEquals(new ConfigLocation(source, line, column), error.location(), message);
        assertTrue(message.startsWith(error.location() + ": "), message);
        assertTrue(key.equals("-") || namesKey(message, key), () -> "names " + key + ": " + message);
        assertTrue(message.contains(reason), () -> "says " + reason + ": " + message);
    }

    /**
     * @return whether the message names the key whole, not as part of a longer one ({@code signals} is not named by
     *         {@code in.signals} alone).
     */
    private static boolean namesKey(final String message, final String key)
    {
        return Pattern.compile("(^|[^\\w.\\]])" + Pattern.quote(key) + "($|[^\\w\\[])").matcher(message).find();
    }

    static List<Arguments> rows() throws IOException
    {
        final List<Arguments> rows = new ArrayList<>();
        final List<String> lines = readTable();
        for (int i = 0; i < lines.size(); i++)
        {
            final String header = lines.get(i);
            if (header.isBlank() || header.startsWith("#"))
            {
                continue;
            }
            final Matcher row = HEADER.matcher(header);
            assertTrue(row.matches(), () -> TABLE + " has a malformed header: " + header);
            final StringBuilder text = new StringBuilder();
            while (i + 1 < lines.size() && lines.get(i + 1).startsWith(INDENT))
            {
                text.append(text.length() == 0 ? "" : "\n").append(lines.get(++i).substring(INDENT.length()));
            }
            rows.add(Arguments.of(row.group(1), Integer.parseInt(row.group(2)), Integer.parseInt(row.group(3)),
                row.group(4), row.group(5), text.toString()));
        }
        return rows;
    }

    private static List<String> readTable() throws IOException
    {
        try (InputStream table = BadConfigsTest.class.getResourceAsStream(TABLE))
        {
            assertNotNull(table, TABLE);
            return new String(table.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }
}
