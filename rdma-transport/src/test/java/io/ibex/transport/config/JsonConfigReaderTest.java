package io.ibex.transport.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "{\"a\": 1, \"a\": 2}       | test.json:1:10: duplicate setting 'a' (first set at test.json:1:2)",
        "[1, 2]                     | test.json:1:1: a config's top level must be a JSON object { }, not [",
        "``                         | test.json:1:1: a config's top level must be a JSON object { }, not empty",
        "{\"a\": 1} {}              | test.json:1:10: unexpected { after the top-level object",
        "{\"a\": null}              | test.json:1:7: null is not a config value (leave the key out for its default)",
        "{\"a\": 123456789012345678901234} | test.json:1:7: integer 123456789012345678901234 does not fit in 64 bits",
    })
    void everyErrorNamesItsLocation(final String text, final String message)
    {
        assertEquals(message, assertThrows(ConfigException.class, () -> JsonConfigReader.parse(text, "test.json"))
            .getMessage());
    }

    @Test
    void jacksonSyntaxErrorsKeepTheirLocation()
    {
        final String message = assertThrows(ConfigException.class,
            () -> JsonConfigReader.parse("{\n  \"a\": 1,\n  b: 2\n}", "test.json")).getMessage();

        assertEquals("test.json:3:3: Unexpected character ('b' (code 98)): was expecting double-quote to start " +
            "field name", message);
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
