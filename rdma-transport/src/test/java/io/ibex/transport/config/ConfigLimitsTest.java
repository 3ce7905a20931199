package io.ibex.transport.config;

import io.ibex.transport.config.internal.ConfigReaders;
import io.ibex.transport.config.internal.ConfigScalar;
import io.ibex.transport.config.internal.JsonConfigReader;
import io.ibex.transport.config.internal.LibconfigReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a hostile or broken config meets before it can cost a stack or a heap: the include depth, the size of a
 * file and its includes, the number of values, text that is not UTF-8 and includes that are not regular files.
 */
class ConfigLimitsTest
{
    @TempDir
    Path dir;

    @Test
    void anIncludeChainDeeperThanTheLimitIsAnErrorAtTheDirectiveThatGoesTooDeep() throws IOException
    {
        final int files = 2_000;
        for (int i = 0; i < files; i++)
        {
            Files.writeString(dir.resolve("f" + i + ".conf"), "v" + i + " = " + i + "\n  @include \"f" + (i + 1) +
                ".conf\"\n");
        }
        Files.writeString(dir.resolve("f" + files + ".conf"), "end = 1\n");
        final int last = ConfigReaders.MAX_INCLUDE_DEPTH;

        final ConfigException error =
            assertThrows(ConfigException.class, () -> LibconfigReader.read(dir.resolve("f0.conf")));

        assertEquals(dir.resolve("f" + last + ".conf") + ":2:3: @include \"f" + (last + 1) + ".conf\" nests " +
            "includes " + (last + 1) + " deep, more than the " + last + " libconfig allows (top file " +
            dir.resolve("f0.conf") + ")", error.getMessage());
    }

    @Test
    void includesAsDeepAsTheLimitAreRead() throws IOException
    {
        final int last = ConfigReaders.MAX_INCLUDE_DEPTH;
        for (int i = 0; i < last; i++)
        {
            Files.writeString(dir.resolve("f" + i + ".conf"), "@include \"f" + (i + 1) + ".conf\"\n");
        }
        Files.writeString(dir.resolve("f" + last + ".conf"), "end = 1\n");

        assertEquals(1L, ((ConfigScalar)LibconfigReader.read(dir.resolve("f0.conf")).get("end")).value());
    }

    @Test
    void aFileLargerThanTheLimitIsAnErrorNamingItAndTheLimitBeforeItIsRead() throws IOException
    {
        final String big = "x = \"" + "a".repeat(ConfigReaders.MAX_BYTES) + "\"\n";
        for (final String name : new String[] {"big.conf", "big.json"})
        {
            final Path file = dir.resolve(name);
            Files.writeString(file, name.endsWith(".conf") ? big : "{ \"x\": \"" + "a".repeat(ConfigReaders.MAX_BYTES) +
                "\" }");

            assertEquals(file + ": the file is " + Files.size(file) + " bytes, more than the " +
                ConfigReaders.MAX_BYTES + " bytes (4 MiB) a config and its includes may hold",
                assertThrows(ConfigException.class, () -> ConfigReaders.read(file)).getMessage());
        }
    }

    @Test
    void includesThatTogetherPassTheLimitAreAnErrorAtTheIncludeThatPassesIt() throws IOException
    {
        final String part = "x = \"" + "a".repeat(ConfigReaders.MAX_BYTES / 3) + "\"\n";
        Files.writeString(dir.resolve("p.conf"), part);
        Files.writeString(dir.resolve("main.conf"), "a = { @include \"p.conf\" }\nb = { @include \"p.conf\" }\n" +
            "c = { @include \"p.conf\" }\nd = { @include \"p.conf\" }\n");

        final String message =
            assertThrows(ConfigException.class, () -> LibconfigReader.read(dir.resolve("main.conf"))).getMessage();

        assertEquals(dir.resolve("main.conf") + ":3:7: @include \"p.conf\": " + dir.resolve("p.conf") + " (" +
            Files.size(dir.resolve("p.conf")) + " bytes) brings the config and its includes to more than the " +
            ConfigReaders.MAX_BYTES + " bytes (4 MiB) they may hold", message);
    }

    @Test
    void moreValuesThanTheLimitIsAnErrorAtTheFirstValueTooMany()
    {
        final StringBuilder conf = new StringBuilder("signals = (");
        final StringBuilder json = new StringBuilder("{\"signals\": [");
        for (int i = 0; i < ConfigReaders.MAX_VALUES; i++)
        {
            conf.append(i == 0 ? "" : ",").append(i % 10);
            json.append(i == 0 ? "" : ",").append(i % 10);
        }
        conf.append(")\n");
        json.append("]}");
        // the list and its elements: the last element is one value too many
        final int column = conf.length() - 2;
        final String says = "signals[" + (ConfigReaders.MAX_VALUES - 1) + "]: more than " + ConfigReaders.MAX_VALUES +
            " values (settings and list elements) in the config and its includes";

        assertEquals("big.conf:1:" + column + ": " + says, assertThrows(ConfigException.class,
            () -> LibconfigReader.parse(conf.toString(), "big.conf")).getMessage());
        assertEquals("big.json:1:" + (json.length() - 2) + ": " + says, assertThrows(ConfigException.class,
            () -> JsonConfigReader.parse(json.toString(), "big.json")).getMessage());
    }

    @Test
    void textThatIsNotUtf8IsAnErrorAtTheLineAndColumnOfTheFirstBadByte() throws IOException
    {
        final byte[] text = "a = 1\nb = \"h\u00e9llo \u00ff\"\n".getBytes(StandardCharsets.ISO_8859_1);
        for (final String name : new String[] {"latin1.conf", "latin1.json"})
        {
            final Path file = dir.resolve(name);
            Files.write(file, text);

            assertEquals(file + ":2:7: not UTF-8 text: byte 0xe9 is not UTF-8 here (save the file " +
                "as UTF-8)", assertThrows(ConfigException.class, () -> ConfigReaders.read(file))
                .getMessage());
        }
    }

    @Test
    void anIncludeOfADirectoryOrADeviceSaysWhatItIs() throws IOException
    {
        Files.createDirectories(dir.resolve("sub"));
        Files.writeString(dir.resolve("dir.conf"), "@include \"sub\"\n");
        Files.writeString(dir.resolve("dev.conf"), "x = 1\n @include \"/dev/zero\"\n");

        assertEquals(dir.resolve("dir.conf") + ":1:1: @include \"sub\": " + dir.resolve("sub") + " is a directory, " +
            "not a file", assertThrows(ConfigException.class,
            () -> LibconfigReader.read(dir.resolve("dir.conf"))).getMessage());
        final String message = assertThrows(ConfigException.class,
            () -> LibconfigReader.read(dir.resolve("dev.conf"))).getMessage();
        assertTrue(!Files.exists(Path.of("/dev/zero")) || message.equals(dir.resolve("dev.conf") + ":2:2: " +
            "@include \"/dev/zero\": /dev/zero is not a regular file (a device, pipe or socket)"), message);
    }

    @Test
    void readingADirectoryOrADeviceSaysWhatItIs()
    {
        final Path directory = dir.resolve("d.conf");
        assertTrue(directory.toFile().mkdir());

        assertEquals(directory + ": is a directory, not a file",
            assertThrows(ConfigException.class, () -> ConfigReaders.read(directory)).getMessage());
    }
}
