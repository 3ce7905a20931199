package io.ibex.transport.config;

import io.ibex.transport.config.internal.ConfigGroup;
import io.ibex.transport.config.internal.ConfigList;
import io.ibex.transport.config.internal.ConfigValue;
import io.ibex.transport.config.internal.LibconfigReader;
import io.ibex.transport.sample.Signal;
import io.ibex.transport.sample.SignalList;
import io.ibex.transport.sample.SignalType;
import io.ibex.transport.sample.SignalValues;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static io.ibex.transport.config.LibconfigReaderTest.scalar;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChannelConfigTest
{
    static final String ADDRESS = "in = { address = \"127.0.0.1:1337\" }\n";

    @Test
    void theSeedSourceBindsEveryOptionItSets()
    {
        final ChannelConfig source = ChannelConfig.read(LibconfigReaderTest.SEED, "ib_node_source");

        assertEquals("ib_node_source", source.name());
        assertEquals(TransportMode.RC, source.mode());
        assertEquals(new InetSocketAddress("10.0.0.2", 1337), source.in().address());
        assertEquals(8192, source.in().maxWrs());
        assertEquals(8192, source.in().cqSize());
        assertEquals(1, source.in().vectorize());
        assertEquals(128, source.in().bufferSubtraction());
        assertTrue(source.isSource());
        assertEquals(new InetSocketAddress("10.0.0.1", 1337), source.out().address());
        assertEquals(1000, source.out().resolutionTimeoutMillis());
        assertEquals(8192, source.out().maxWrs());
        assertEquals(256, source.out().cqSize());
        assertTrue(source.out().sendInline());
        assertEquals(60, source.out().maxInlineData());
        assertTrue(source.out().useFallback());
        assertEquals(128, source.out().periodicSignaling(), "half of the 256 sends out.cq_size allows in flight");
        assertNull(source.in().hooks());
        assertFalse(source.checked());
    }

    @Test
    void theSeedTargetKeepsItsHooksAsWritten()
    {
        final ChannelConfig target = ChannelConfig.read(LibconfigReaderTest.SEED, "ib_node_target");

        assertFalse(target.isSource());
        assertNull(target.out().address());
        final ConfigList hooks = (ConfigList)target.in().hooks();
        assertEquals(scalar("stats"), ((ConfigGroup)hooks.get(0)).get("type"));
        assertEquals(LibconfigReaderTest.SEED + ":66:5", hooks.get(0).location().toString());
    }

    @Test
    void jsonAndLibconfigOfTheSameNodesBindToEqualConfigs()
    {
        for (final String node : List.of("ib_node_source", "ib_node_target"))
        {
            final ChannelConfig fromConf = ChannelConfig.read(LibconfigReaderTest.SEED, node);
            final ChannelConfig fromJson = ChannelConfig.read(JsonConfigReaderTest.SEED_JSON, node);

            assertEquals(fromConf, fromJson);
            assertEquals(fromConf.hashCode(), fromJson.hashCode());
            assertEquals(fromConf.check(), fromJson.check());
        }
    }

    @Test
    void anUnsetKeyTakesTheDefaultOfTheCNodeType()
    {
        final ChannelConfig config = bind(ADDRESS);

        assertEquals(ChannelConfig.builder().name("n").in(in -> in.address("127.0.0.1:1337")).build(), config);
        assertEquals(TransportMode.RC, config.mode());
        assertEquals("auto", config.provider());
        assertNull(config.device());
        assertEquals(PollMode.BUSY, config.pollMode());
        assertEquals(IdleKind.YIELDING, config.idle());
        assertEquals(SignalList.DEFAULT, config.signals());
        assertEquals(128, config.in().cqSize());
        assertEquals(128, config.in().maxWrs());
        assertEquals(1, config.in().vectorize());
        assertEquals(16, config.in().bufferSubtraction());
        assertFalse(config.isSource());
        assertEquals(1000, config.out().resolutionTimeoutMillis());
        assertEquals(128, config.out().cqSize());
        assertEquals(128, config.out().maxWrs());
        assertEquals(1, config.out().vectorize());
        assertTrue(config.out().sendInline());
        assertEquals(0, config.out().maxInlineData());
        assertTrue(config.out().useFallback());
        assertEquals(64, config.out().periodicSignaling());
        assertTrue(config.out().reconnect());
        assertEquals(Duration.ofMillis(10), config.out().reconnectMinDelay());
        assertEquals(Duration.ofSeconds(2), config.out().reconnectMaxDelay());
        assertNull(config.hooks());
        assertEquals(List.of(), config.warnings());
    }

    @Test
    void everyKeyBinds()
    {
        final ChannelConfig config = bind("""
            type = "infiniband"; rdma_transport_mode = "ud"; provider = "Soft"; device = "rxe0";
            poll_mode = "EVENT"; idle_strategy = "busy-spin"; secret_file = "/etc/ibex/secret";
            hooks = ( { type = "stats" } );
            in = { address = "[::1]:7000"; cq_size = 512; max_wrs = 256; vectorize = 4; buffer_subtraction = 8;
                   signals = "2f1i"; hooks = ( ) };
            out = { address = "localhost:7001"; resolution_timeout = 250; cq_size = 64; max_wrs = 32; vectorize = 2;
                    send_inline = false; max_inline_data = 128; use_fallback = false; periodic_signaling = 8;
                    reconnect = false; reconnect_min_delay = 5; reconnect_max_delay = 500; hooks = ( ) };
            """);

        assertEquals(ChannelConfig.builder().name("n").mode(TransportMode.UD).provider("soft").device("rxe0")
            .pollMode(PollMode.EVENT).idle(IdleKind.BUSY_SPIN).secretFile(Path.of("/etc/ibex/secret"))
            .hooks(new ConfigList(List.of(group("type", scalar("stats"))), ConfigLocation.of("test")))
            .in(in -> in.address("[::1]:7000").cqSize(512).maxWrs(256).vectorize(4).bufferSubtraction(8)
                .hooks(new ConfigList(List.of(), ConfigLocation.of("test"))))
            .signals(SignalList.parseFormat("2f1i"))
            .out(out -> out.address("127.0.0.1:7001").resolutionTimeoutMillis(250).cqSize(64).maxWrs(32)
                .vectorize(2).sendInline(false).maxInlineData(128).useFallback(false)
                .periodicSignaling(8).reconnect(false).reconnectMinDelay(Duration.ofMillis(5))
                .reconnectMaxDelay(Duration.ofMillis(500)).hooks(new ConfigList(List.of(), ConfigLocation.of("test"))))
            .build(), config);
    }

    @Test
    void theDocumentedAliasesBind()
    {
        final ChannelConfig config = bind(ADDRESS + "rdma_port_space = \"UC\"; out = { timeout = 300 }");

        assertEquals(TransportMode.UC, config.mode());
        assertEquals(300, config.out().resolutionTimeoutMillis());
    }

    @Test
    void signalsAreAListACountOrAFormatAndSignalsIsShortForInSignals()
    {
        final ChannelConfig config = bind(ADDRESS + """
            signals = ( { name = "v"; unit = "V"; type = "float"; init = 1.5 },
                        { type = "integer"; init = -3 }, { type = "boolean"; init = true },
                        { type = "complex"; init = 2 } )""");

        assertEquals(new SignalList(List.of(new Signal("v", "V", SignalType.FLOAT, SignalValues.ofFloat(1.5)),
            new Signal("signal1", "", SignalType.INTEGER, -3), new Signal("signal2", "", SignalType.BOOLEAN, 1),
            new Signal("signal3", "", SignalType.COMPLEX, SignalValues.ofComplex(2, 0)))), config.signals());
        assertEquals(SignalList.ofCount(3), bind("in = { address = \"127.0.0.1:1\"; signals = 3 }").signals());
        assertEquals(SignalList.parseFormat("3i"), bind(ADDRESS + "signals = \"3i\"").signals());
    }

    @Test
    void aConfigWrittenByToStringReadsBackEqual()
    {
        final ChannelConfig original = ChannelConfig.read(LibconfigReaderTest.SEED, "ib_node_target").toBuilder()
            .device("mlx5_0").signals(new SignalList(List.of(new Signal("a \"q\"", "V", SignalType.BOOLEAN, 1))))
            .out(out -> out.address("[::1]:9")).secretFile(Path.of("secret \"1\"")).build();

        final ConfigGroup written = LibconfigReader.parse(original.toString(), "written.conf");

        assertEquals(original, ChannelConfigBinder.bind("ib_node_target", (ConfigGroup)written.get("ib_node_target")));
        assertEquals(bind(ADDRESS), ChannelConfigBinder.bind("n",
            (ConfigGroup)LibconfigReader.parse(bind(ADDRESS).toString(), "w.conf").get("n")));
    }

    @Test
    void aFileWithoutNodesIsTheNode(@TempDir final Path dir) throws Exception
    {
        final Path file = dir.resolve("node.json");
        Files.writeString(file, "{ \"in\": { \"address\": \"127.0.0.1:5\" } }");

        assertEquals(new InetSocketAddress("127.0.0.1", 5), ChannelConfig.read(file, "x").in().address());
    }

    @Test
    void readingANodeThatIsNotThereOrNotInfinibandFailsNamingIt()
    {
        final String seed = LibconfigReaderTest.SEED.toString();
        assertEquals(seed + ":1:9: no node 'ib_node' in nodes (it has: results, siggen, ib_node_source, " +
            "ib_node_target)", assertThrows(ConfigException.class,
            () -> ChannelConfig.read(LibconfigReaderTest.SEED, "ib_node")).getMessage());
        assertEquals(seed + ":9:10: type = \"signal\": not an infiniband node", assertThrows(ConfigException.class,
            () -> ChannelConfig.read(LibconfigReaderTest.SEED, "siggen")).getMessage());
        assertEquals("t.conf:1:15: nodes.a must be a group { }, not integer 1", assertThrows(ConfigException.class,
            () -> ChannelConfigBinder.bindNode(LibconfigReader.parse("nodes = { a = 1 }", "t.conf"), "a"))
            .getMessage());
    }

    static ChannelConfig bind(final String text)
    {
        return ChannelConfigBinder.bind("n", LibconfigReader.parse(text, "n.conf"));
    }

    private static ConfigGroup group(final String name, final ConfigValue value)
    {
        return ConfigGroup.builder(ConfigLocation.of("test")).add(name, ConfigLocation.of("test"), value).build();
    }
}
