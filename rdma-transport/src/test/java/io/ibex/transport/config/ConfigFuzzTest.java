package io.ibex.transport.config;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.ibex.transport.config.internal.ConfigGroup;
import io.ibex.transport.config.internal.ConfigValue;
import io.ibex.transport.config.internal.JsonConfigReader;
import io.ibex.transport.config.internal.LibconfigReader;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzzes both config readers and the channel config's binding and checks: whatever the text, reading it ends in a
 * config or in a {@link ConfigException} that says where (file, line, column from 1); anything else thrown
 * (an index out of bounds, a stack overflow from deep nesting, a null pointer) fails. What reads is also written
 * back and read again, and must give the same tree and the same channel configs.
 *
 * <p>{@code mvn verify} replays the corpus in {@code ConfigFuzzTestInputs/<method>/}; {@code .ci/fuzz} fuzzes.
 */
class ConfigFuzzTest
{
    /** Beside no file: an {@code @include} of a relative name finds nothing rather than reading the project. */
    private static final String SOURCE = Path.of("target", "fuzz", "input").toString();

    @FuzzTest
    void libconfig(final byte[] input)
    {
        final String text = new String(input, StandardCharsets.UTF_8);
        final ConfigGroup root = read(() -> LibconfigReader.parse(text, SOURCE + ".conf"));
        if (root != null)
        {
            assertEquals(root, LibconfigReader.parse("root = " + root, "written.conf").get("root"),
                "a tree written in libconfig syntax reads back equal");
            bindEveryNode(root);
        }
    }

    @FuzzTest
    void json(final byte[] input)
    {
        final String text = new String(input, StandardCharsets.UTF_8);
        final ConfigGroup root = read(() -> JsonConfigReader.parse(text, SOURCE + ".json"));
        if (root != null)
        {
            bindEveryNode(root);
        }
    }

    /**
     * Binds and checks each node of {@code nodes}, or the whole tree as one node if it has none; a config that
     * binds must read back equal from what its toString writes.
     */
    private static void bindEveryNode(final ConfigGroup root)
    {
        final ConfigValue nodes = root.get("nodes");
        if (nodes instanceof ConfigGroup group)
        {
            for (final String name : group.names())
            {
                bindNode(root, name);
            }
        }
        else
        {
            bindNode(root, "node");
        }
    }

    private static void bindNode(final ConfigGroup root, final String name)
    {
        final ChannelConfig config = read(() -> ChannelConfigBinder.bindNode(root, name));
        if (config != null)
        {
            read(config::check);
            final ConfigGroup written = LibconfigReader.parse(config.toString(), "written.conf");
            assertEquals(config, ChannelConfigBinder.bind(name, (ConfigGroup)written.get(name)),
                "a channel config written by toString reads back equal");
        }
    }

    /**
     * @return what {@code reading} gives, or null if it threw a ConfigException located in the input.
     */
    private static <T> T read(final Reading<T> reading)
    {
        try
        {
            return reading.read();
        }
        catch (final ConfigException ex)
        {
            final ConfigLocation location = ex.location();
            // an @include of an absolute path may fail in that file, which is located by its own name
            assertTrue(!location.source().startsWith(SOURCE) || location.line() >= 1 && location.column() >= 1,
                () -> "a config error must name its place in the input: " + ex.getMessage());
            assertTrue(ex.getMessage().startsWith(location + ": "), ex::getMessage);
            return null;
        }
    }

    @FunctionalInterface
    private interface Reading<T>
    {
        T read();
    }
}
