package io.ibex.transport.config;

import io.ibex.transport.config.internal.ConfigGroup;
import io.ibex.transport.config.internal.ConfigList;
import io.ibex.transport.config.internal.ConfigReaders;
import io.ibex.transport.config.internal.JsonConfigReader;
import io.ibex.transport.config.internal.LibconfigReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.ibex.transport.config.LibconfigReaderTest.scalar;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class JsonConfigReaderTest
{
    static final Path SEED_JSON = Path.of("src/test/resources/infiniband.json");

    @Test
    void theSeedExampleInJsonReadsToTheSameTreeAsInLibconfig()
    {
        assertEquals(LibconfigReader.read(LibconfigReaderTest.SEED), JsonConfigReader.read(SEED_JSON));
    }

    @Test
    void valuesKeepTheirTypesAndLocations()
    {
        final ConfigGroup root = JsonConfigReader.parse("""
            {
              "a": 12, "b": -1.5e2, "c": true, "d": "x\\ty",
              "e": [1, "two", {"f": false}], "g": {}
            }""", "test.json");

        assertEquals(List.of("a", "b", "c", "d", "e", "g"), List.copyOf(root.names()));
        assertEquals(scalar(12L), root.get("a"));
        assertEquals(scalar(-150.0), root.get("b"));
        assertEquals(scalar(true), root.get("c"));
        assertEquals(scalar("x\ty"), root.get("d"));
        assertEquals(scalar(false), ((ConfigGroup)((ConfigList)root.get("e")).get(2)).get("f"));
        assertEquals(new ConfigLocation("test.json", 2, 3), root.setting("a").location());
        assertEquals(new ConfigLocation("test.json", 2, 8), root.get("a").location());
        assertEquals(new ConfigLocation("test.json", 3, 12), ((ConfigList)root.get("e")).get(1).location());
        assertEquals(new ConfigLocation("test.json", 1, 1), root.location());
    }

    @Test
    void readersArePickedByExtension(@TempDir final Path dir) throws Exception
    {
        Files.writeString(dir.resolve("a.json"), "{\"x\": 1}");
        Files.writeString(dir.resolve("a.CONF"), "x = 1");
        Files.writeString(dir.resolve("a.yaml"), "x: 1");

        assertEquals(ConfigReaders.read(dir.resolve("a.json")), ConfigReaders.read(dir.resolve("a.CONF")));
        assertEquals(dir.resolve("a.yaml") + ": cannot tell the config syntax: the file name must end in .conf " +
            "(libconfig) or .json (JSON)",
            assertThrows(ConfigException.class, () -> ConfigReaders.read(dir.resolve("a.yaml"))).getMessage());
    }
}
