package io.ibex.transport.config;

import io.ibex.transport.config.internal.ConfigGroup;
import io.ibex.transport.config.internal.ConfigList;
import io.ibex.transport.config.internal.ConfigScalar;
import io.ibex.transport.config.internal.LibconfigReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class LibconfigReaderTest
{
    static final Path SEED = Path.of("src/test/resources/infiniband.conf");

    @Test
    void theSeedExampleParsesWithItsMissingSeparator()
    {
        final ConfigGroup root = LibconfigReader.read(SEED);

        final ConfigGroup nodes = (ConfigGroup)root.get("nodes");
        assertEquals(List.of("results", "siggen", "ib_node_source", "ib_node_target"), List.copyOf(nodes.names()));
        assertEquals(scalar("mixed"), root.find("nodes.siggen.signal"));
        assertEquals(scalar(3.0), root.find("nodes.siggen.frequency"));
        assertEquals(scalar(100000L), root.find("nodes.siggen.limit"));
        assertEquals(scalar(true), root.find("nodes.ib_node_source.out.send_inline"));
        assertEquals(new ConfigLocation(SEED.toString(), 35, 14), root.find("nodes.ib_node_source.out.address")
            .location());
        final ConfigList hooks = (ConfigList)root.find("nodes.ib_node_target.in.hooks");
        assertEquals(1, hooks.size());
        assertEquals(scalar("stats"), ((ConfigGroup)hooks.get(0)).get("type"));
        assertEquals(new ConfigLocation(SEED.toString(), 66, 5), hooks.get(0).location());
    }

    @Test
    void everyScalarForm()
    {
        final ConfigGroup group = parse("""
            a = 12; b = -7L; c = 0x1F; d = 0xffffffffffffffffLL; e = 1.5e3; f = .5; g = 3.; h = -2E-2;
            i = TRUE; j = False; k = "tab\\there \\"q\\" \\\\ \\x41"; l = "joined " /* c */ "over"
              // comment
              " lines";
            m : 9, n = +4
            """);

        assertEquals(scalar(12L), group.get("a"));
        assertEquals(scalar(-7L), group.get("b"));
        assertEquals(scalar(31L), group.get("c"));
        assertEquals(scalar(-1L), group.get("d"));
        assertEquals(scalar(1500.0), group.get("e"));
        assertEquals(scalar(0.5), group.get("f"));
        assertEquals(scalar(3.0), group.get("g"));
        assertEquals(scalar(-0.02), group.get("h"));
        assertEquals(scalar(true), group.get("i"));
        assertEquals(scalar(false), group.get("j"));
        assertEquals(scalar("tab\there \"q\" \\ A"), group.get("k"));
        assertEquals(scalar("joined over lines"), group.get("l"));
        assertEquals(scalar(9L), group.get("m"));
        assertEquals(scalar(4L), group.get("n"));
    }

    @Test
    void groupsListsAndArraysNestWithLocations()
    {
        final ConfigGroup group = parse("""
            # a comment
            g = { x = [1, 2, 3,]; y = ( "a", { z = 1 }, [ ] ); e = { } }
            """);

        final ConfigGroup g = (ConfigGroup)group.get("g");
        assertEquals(new ConfigLocation("test.conf", 2, 5), g.location());
        assertEquals(new ConfigLocation("test.conf", 2, 1), group.setting("g").location());
        final ConfigList x = (ConfigList)g.get("x");
        assertEquals(List.of(scalar(1L), scalar(2L), scalar(3L)), x.elements());
        assertEquals(new ConfigLocation("test.conf", 2, 15), x.get(1).location());
        final ConfigList y = (ConfigList)g.get("y");
        assertEquals(3, y.size());
        assertEquals(scalar(1L), ((ConfigGroup)y.get(1)).get("z"));
        assertEquals(0, ((ConfigList)y.get(2)).size());
        assertEquals(0, ((ConfigGroup)g.get("e")).size());
        assertEquals("{ x = ( 1, 2, 3 ); y = ( \"a\", { z = 1; }, (  ) ); e = { }; }", g.toString());
    }

    @Test
    void includesAreReadRelativeToTheIncludingFile(@TempDir final Path dir) throws Exception
    {
        Files.createDirectories(dir.resolve("sub"));
        Files.writeString(dir.resolve("main.conf"), "a = 1\nnodes = {\n  @include \"sub/nodes.conf\"\n}\nz = 3\n");
        Files.writeString(dir.resolve("sub/nodes.conf"), "n1 = { type = \"infiniband\" }\n@include \"more.conf\"\n");
        Files.writeString(dir.resolve("sub/more.conf"), "n2 = 2\n");

        final ConfigGroup root = LibconfigReader.read(dir.resolve("main.conf"));

        assertEquals(List.of("a", "nodes", "z"), List.copyOf(root.names()));
        assertEquals(List.of("n1", "n2"), List.copyOf(((ConfigGroup)root.get("nodes")).names()));
        assertEquals(new ConfigLocation(dir.resolve("sub/more.conf").toString(), 1, 6),
            root.find("nodes.n2").location());
    }

    @Test
    void anIncludeCycleIsAnErrorAtTheDirective(@TempDir final Path dir) throws Exception
    {
        Files.writeString(dir.resolve("a.conf"), "x = 1\n@include \"b.conf\"\n");
        Files.writeString(dir.resolve("b.conf"), "y = 2\n  @include \"a.conf\"\n");

        final ConfigException error =
            assertThrows(ConfigException.class, () -> LibconfigReader.read(dir.resolve("a.conf")));

        assertEquals(dir.resolve("b.conf") + ":2:3: @include \"a.conf\" makes a cycle: a.conf -> b.conf -> a.conf",
            error.getMessage());
    }

    @Test
    void aMissingIncludeIsAnErrorAtTheDirective(@TempDir final Path dir) throws Exception
    {
        Files.writeString(dir.resolve("a.conf"), "x = 1\n@include \"gone.conf\"\n");

        assertEquals(dir.resolve("a.conf") + ":2:1: @include \"gone.conf\": no such file " + dir.resolve("gone.conf"),
            assertThrows(ConfigException.class, () -> LibconfigReader.read(dir.resolve("a.conf"))).getMessage());
    }

    @Test
    void aMissingFileIsAnErrorNamingIt(@TempDir final Path dir)
    {
        final Path file = dir.resolve("none.conf");

        final String message = assertThrows(ConfigException.class, () -> LibconfigReader.read(file)).getMessage();

        assertEquals(file + ": cannot read the file: java.nio.file.NoSuchFileException: " + file, message);
    }

    static ConfigScalar scalar(final Object value)
    {
        return new ConfigScalar(value, ConfigLocation.of("expected"));
    }

    private static ConfigGroup parse(final String text)
    {
        return LibconfigReader.parse(text, "test.conf");
    }
}
