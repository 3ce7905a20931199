package io.ibex.samples.runner.node;

import io.ibex.transport.config.ConfigException;
import io.ibex.transport.config.internal.ConfigGroup;
import io.ibex.transport.config.internal.ConfigList;
import io.ibex.transport.config.internal.JsonConfigReader;
import io.ibex.transport.config.internal.LibconfigReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Binding a signal node's settings: VILLAS's keys and defaults, and a failing example of every config error, with
 * its message and location.
 */
class SignalNodeConfigTest
{
    /** The siggen node of VILLASnode's documented infiniband example, as written there. */
    private static final String SEED_SIGGEN = """
        nodes = {
        	siggen = {
        		type = "signal",

        		signal = "mixed",
        		values = 3,
        		frequency = 3.0,
        		rate = 100000.0,
        		limit = 100000,
        	},
        }
        """;

    @Test
    void theSeedExamplesSignalGeneratorBinds()
    {
        final ConfigGroup nodes = (ConfigGroup)LibconfigReader.parse(SEED_SIGGEN, "infiniband.conf").get("nodes");
        final SignalNodeConfig config = SignalNodeConfig.bind("siggen", (ConfigGroup)nodes.get("siggen"));

        assertEquals(List.of(Waveform.RANDOM, Waveform.SINE, Waveform.SQUARE),
            config.signals().stream().map(GeneratedSignal::waveform).toList());
        assertTrue(config.signals().stream().allMatch(signal -> signal.frequency() == 3.0));
        assertEquals(100_000.0, config.rate());
        assertEquals(100_000, config.limit());
        assertTrue(config.realtime());
        assertTrue(config.monitorMissed());
        assertNull(config.inHooks());
        assertNull(config.outHooks());
    }

    @Test
    void everyOptionHasVillasDefault()
    {
        final SignalNodeConfig config = bind("signal = \"sine\";");

        assertEquals(List.of(new GeneratedSignal(Waveform.SINE, 1, 1, 0.2, 0, 1, 0, 1, 0)), config.signals());
        assertEquals(10.0, config.rate());
        assertEquals(-1, config.limit());
        assertTrue(config.realtime());
        assertTrue(config.monitorMissed());
    }

    @Test
    void aNumberSetsAParameterForEveryValueAndAListOnePerValue()
    {
        final SignalNodeConfig config = bind("""
            signal = ["sine", "pulse", "square"];
            values = 3;
            amplitude = [1.2, 0.0, 4.0];
            frequency = 10;
            stddev = 2;
            offset = 1.0;
            pulse_width = [1, 2, 3];
            pulse_low = -1.0;
            pulse_high = 7;
            phase = [0.0, 1.5, 3.0];
            rate = 10.0;
            realtime = false;
            limit = 1000;
            monitor_missed = false;
            """);

        assertEquals(List.of(
            new GeneratedSignal(Waveform.SINE, 10, 1.2, 2, 1, 1, -1, 7, 0),
            new GeneratedSignal(Waveform.PULSE, 10, 0, 2, 1, 2, -1, 7, 1.5),
            new GeneratedSignal(Waveform.SQUARE, 10, 4, 2, 1, 3, -1, 7, 3)), config.signals());
        assertFalse(config.realtime());
        assertFalse(config.monitorMissed());
        assertEquals(1000, config.limit());
    }

    @Test
    void jsonBindsAsLibconfigDoes()
    {
        final SignalNodeConfig fromJson = SignalNodeConfig.bind("siggen", JsonConfigReader.parse("""
            { "type": "signal", "signal": ["ramp", "counter"], "values": 2, "amplitude": [2, 0.5], "rate": 50 }
            """, "siggen.json"));
        final SignalNodeConfig fromConf = bind("""
            type = "signal"; signal = ["ramp", "counter"]; values = 2; amplitude = [2.0, 0.5]; rate = 50;
            """);

        assertEquals(fromConf, fromJson);
    }

    @Test
    void hooksAreKeptAsWrittenAndHooksIsShortForInHooks()
    {
        final SignalNodeConfig full = bind("""
            signal = "sine";
            in = { hooks = ( { type = "stats"; verbose = true; } ); };
            out = { hooks = ( "print" ); };
            """);
        assertEquals("siggen.conf:2:16", full.inHooks().location().toString());
        assertEquals(1, ((ConfigList)full.inHooks()).size());
        assertEquals("siggen.conf:3:17", full.outHooks().location().toString());

        final SignalNodeConfig shorthand = bind("signal = \"sine\";\nhooks = ( { type = \"stats\"; } );");
        assertEquals("siggen.conf:2:9", shorthand.inHooks().location().toString());
        assertNull(shorthand.outHooks());
    }

    @Test
    void theFactoryBuildsANotYetStartedNodeWithItsHooks()
    {
        final ConfiguredNode configured = SignalNode.FACTORY.create("siggen",
            SignalNodeTest.settings("type = \"signal\"; signal = \"mixed\"; values = 3; hooks = ( \"stats\" );"),
            new NodeContext(Path.of("."), new ManualClock(0), new ManualClock(0)));

        assertEquals("siggen", configured.node().name());
        assertEquals(List.of("random", "sine", "square"), configured.node().signals().signals().stream()
            .map(io.ibex.transport.sample.Signal::name).toList());
        assertEquals("siggen.conf:1:56", configured.inHooks().location().toString());
        assertNull(configured.outHooks());
        assertThrows(IllegalStateException.class, () -> configured.node().read(new SampleBlock(1, 3)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configErrors")
    void everyConfigErrorNamesTheKeyTheValueAndWhereItIs(final String settings, final String message)
    {
        assertEquals(message, assertThrows(ConfigException.class, () -> bind(settings)).getMessage());
    }

    static Stream<Arguments> configErrors()
    {
        return Stream.of(
            Arguments.of("signal = \"sine\"; frequncy = 2.0;",
                "siggen.conf:1:18: unknown key 'frequncy' (did you mean 'frequency'?)"),
            Arguments.of("signal = \"sine\"; in = { vectorize = 1; };",
                "siggen.conf:1:25: unknown key 'in.vectorize'"),
            Arguments.of("values = 2;",
                "siggen.conf:1:1: signal node 'siggen' has no signal: give one of random, sine, square, triangle, " +
                "ramp, counter, constant, pulse, mixed, or a list of one per value"),
            Arguments.of("signal = \"sinus\";",
                "siggen.conf:1:10: signal = \"sinus\": unknown signal type; one of random, sine, square, triangle, " +
                "ramp, counter, constant, pulse, mixed"),
            Arguments.of("signal = \"Sine\";",
                "siggen.conf:1:10: signal = \"Sine\": unknown signal type; one of random, sine, square, triangle, " +
                "ramp, counter, constant, pulse, mixed"),
            Arguments.of("signal = [\"sine\", \"sawtooth\"]; values = 2;",
                "siggen.conf:1:19: signal[1] = \"sawtooth\": unknown signal type; one of random, sine, square, " +
                "triangle, ramp, counter, constant, pulse, mixed"),
            Arguments.of("signal = (\"sine\", 3); values = 2;",
                "siggen.conf:1:19: signal[1] must be a signal type, not integer 3"),
            Arguments.of("signal = [\"sine\", \"mixed\"]; values = 2;",
                "siggen.conf:1:19: signal[1] = \"mixed\": mixed gives every value of a sample its type, so it " +
                "stands alone (signal = \"mixed\"), not in a list"),
            Arguments.of("signal = [\"sine\", \"square\"];",
                "siggen.conf:1:10: signal lists 2 types but values = 1 (the default): give one type per value"),
            Arguments.of("signal = [\"sine\", \"square\"]; values = 3;",
                "siggen.conf:1:10: signal lists 2 types but values = 3: give one type per value"),
            Arguments.of("signal = 3;",
                "siggen.conf:1:10: signal must be a signal type or a list of them, not integer 3"),
            Arguments.of("signal = { type = \"sine\"; };",
                "siggen.conf:1:10: signal must be a signal type or a list of them, not a group"),
            Arguments.of("signal = \"sine\"; values = 0;",
                "siggen.conf:1:27: values = 0: a signal node makes 1..1000 values a sample"),
            Arguments.of("signal = \"sine\"; values = 1001;",
                "siggen.conf:1:27: values = 1001: a signal node makes 1..1000 values a sample"),
            Arguments.of("signal = \"sine\"; values = \"3\";",
                "siggen.conf:1:27: values must be an integer, not string \"3\""),
            Arguments.of("signal = \"sine\"; rate = -5.0;",
                "siggen.conf:1:25: rate = -5.0: steps per second must be above 0 and at most 1000000000 (a step " +
                "of at least a nanosecond)"),
            Arguments.of("signal = \"sine\"; rate = 0;",
                "siggen.conf:1:25: rate = 0.0: steps per second must be above 0 and at most 1000000000 (a step " +
                "of at least a nanosecond)"),
            Arguments.of("signal = \"sine\"; rate = 2000000000.0;",
                "siggen.conf:1:25: rate = 2.0E9: steps per second must be above 0 and at most 1000000000 (a step " +
                "of at least a nanosecond)"),
            Arguments.of("signal = \"sine\"; rate = \"fast\";",
                "siggen.conf:1:25: rate must be a number, not string \"fast\""),
            Arguments.of("signal = \"sine\"; limit = 1.5;",
                "siggen.conf:1:26: limit must be an integer, not float 1.5"),
            Arguments.of("signal = \"sine\"; realtime = 1;",
                "siggen.conf:1:29: realtime must be a boolean, not integer 1"),
            Arguments.of("signal = \"sine\"; monitor_missed = \"yes\";",
                "siggen.conf:1:35: monitor_missed must be a boolean, not string \"yes\""),
            Arguments.of("signal = \"sine\"; values = 2; amplitude = [1.0, 2.0, 3.0];",
                "siggen.conf:1:42: amplitude lists 3 numbers but values = 2: give one number for all values, or " +
                "one per value"),
            Arguments.of("signal = \"sine\"; values = 2; amplitude = (1.0, \"x\");",
                "siggen.conf:1:48: amplitude[1] must be a number, not string \"x\""),
            Arguments.of("signal = \"sine\"; offset = \"high\";",
                "siggen.conf:1:27: offset must be a number or a list of one number per value, not string " +
                "\"high\""),
            Arguments.of("signal = \"sine\"; phase = { a = 1; };",
                "siggen.conf:1:26: phase must be a number or a list of one number per value, not a group"),
            Arguments.of("signal = \"ramp\"; frequency = 0;",
                "siggen.conf:1:30: frequency = 0 for a ramp (signal 0): VILLAS takes a ramp's frequency as its " +
                "period in seconds, and a period of 0 makes every value NaN"),
            Arguments.of("signal = [\"sine\", \"ramp\"]; values = 2; frequency = [0.0, 0.0];",
                "siggen.conf:1:58: frequency[1] = 0 for a ramp (signal 1): VILLAS takes a ramp's frequency as its " +
                "period in seconds, and a period of 0 makes every value NaN"),
            Arguments.of("signal = \"sine\"; in = { signals = \"3f\"; };",
                "siggen.conf:1:35: in.signals: a signal node makes its own signals (a float per value, named after " +
                "its type); set values and signal instead"),
            Arguments.of("signal = \"sine\"; signals = 3;",
                "siggen.conf:1:28: signals: a signal node makes its own signals (a float per value, named after " +
                "its type); set values and signal instead"),
            Arguments.of("signal = \"sine\"; hooks = ( \"stats\" ); in = { hooks = ( \"print\" ); };",
                "siggen.conf:1:54: in.hooks and hooks (at siggen.conf:1:26) both give the hooks of a signal node, " +
                "which only reads: give only one"),
            Arguments.of("type = \"file\"; signal = \"sine\";",
                "siggen.conf:1:8: type = \"file\": not a signal node"));
    }

    private static SignalNodeConfig bind(final String settings)
    {
        return SignalNodeConfig.bind("siggen", SignalNodeTest.settings(settings));
    }
}
