package io.ibex.transport.config;

import io.ibex.transport.config.internal.JsonConfigReader;
import io.ibex.transport.config.internal.LibconfigReader;
import io.ibex.transport.sample.SignalType;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Keeps the examples of docs/config.md true: they are read from the file itself.
 */
class ConfigDocsTest
{
    private static final Path DOC = Path.of("../docs/config.md");
    private static final Pattern BLOCK = Pattern.compile("```(libconfig|json)\n(.*?)```", Pattern.DOTALL);

    @Test
    void theExamplesInBothSyntaxesBindToEqualCheckedConfigs() throws IOException
    {
        final List<String> blocks = blocks();
        assertEquals(3, blocks.size());

        final ChannelConfig fromConf = ChannelConfigBinder.bindNode(
            LibconfigReader.parse(blocks.get(0), "config.md"), "ib_source").check();
        final ChannelConfig fromJson = ChannelConfigBinder.bindNode(
            JsonConfigReader.parse(blocks.get(1), "config.md"), "ib_source").check();

        assertEquals(fromConf, fromJson);
        assertEquals("soft", fromConf.provider());
        assertEquals(List.of(), fromConf.warnings());
    }

    @Test
    void theTargetExampleBindsItsSignalsAndKeepsItsHooks() throws IOException
    {
        final ChannelConfig target =
            ChannelConfigBinder.bindNode(LibconfigReader.parse(blocks().get(2), "config.md"), "ib_target").check();

        assertEquals(new InetSocketAddress("::1", 1338), target.in().address());
        assertEquals("voltage", target.signals().get(0).name());
        assertEquals(SignalType.BOOLEAN, target.signals().get(1).type());
        assertNotNull(target.in().hooks());
    }

    private static List<String> blocks() throws IOException
    {
        final Matcher matcher = BLOCK.matcher(Files.readString(DOC));
        final List<String> blocks = new ArrayList<>();
        while (matcher.find())
        {
            blocks.add(matcher.group(2));
        }
        return blocks;
    }
}
