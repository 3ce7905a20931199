package io.ibex.samples.runner.node;

import io.ibex.samples.runner.format.VillasHuman;
import io.ibex.transport.config.ConfigException;
import io.ibex.transport.config.internal.ConfigGroup;
import io.ibex.transport.config.internal.ConfigList;
import io.ibex.transport.config.internal.LibconfigReader;
import io.ibex.transport.sample.SignalList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class FileNodeSettingsTest
{
    @Test
    void defaultsAreVillasOnes()
    {
        final FileNodeSettings settings = bind("type = \"file\"; uri = \"logs/ib_results-%Y%m%d_%H-%M-%S.log\"");
        assertEquals("logs/ib_results-%Y%m%d_%H-%M-%S.log", settings.uri());
        assertEquals("n.conf:1:34", settings.uriLocation().toString());
        assertNull(settings.signals());
        assertEquals(FileNodeSettings.Eof.STOP, settings.eof());
        assertEquals(0, settings.rate());
        assertEquals(FileNodeSettings.EpochMode.DIRECT, settings.epochMode());
        assertEquals(0, settings.epochNanos());
        assertEquals(0, settings.skip());
        assertEquals(VillasHuman.DEFAULT_BUFFER_SIZE, settings.inBufferSize());
        assertEquals(false, settings.flush());
        assertEquals(VillasHuman.DEFAULT_BUFFER_SIZE, settings.outBufferSize());
        assertNull(settings.inHooks());
        assertNull(settings.outHooks());
    }

    @Test
    void bindsEveryKeyOfVillasFileNode()
    {
        final FileNodeSettings settings = bind("""
            type = "file"; uri = "in.log"; format = "villas.human"; signals = "2f1i";
            in = { eof = "rewind"; rate = 50.5; epoch_mode = "absolute"; epoch = 1.25; skip = 3; buffer_size = 10;
                   hooks = ( { type = "stats" } ) };
            out = { flush = true; buffer_size = 100000; hooks = ( ) }""");
        assertEquals(SignalList.parseFormat("2f1i"), settings.signals());
        assertEquals(FileNodeSettings.Eof.REWIND, settings.eof());
        assertEquals(50.5, settings.rate());
        assertEquals(FileNodeSettings.EpochMode.ABSOLUTE, settings.epochMode());
        assertEquals(1_250_000_000L, settings.epochNanos());
        assertEquals(3, settings.skip());
        assertEquals(1024, settings.inBufferSize());
        assertEquals(true, settings.flush());
        assertEquals(100000, settings.outBufferSize());
        assertInstanceOf(ConfigList.class, settings.inHooks());
        assertEquals(0, ((ConfigList)settings.outHooks()).size());
        assertEquals(FileNodeSettings.Eof.STOP, bind("uri = \"a\"; in = { eof = \"exit\" }").eof());
        assertEquals(SignalList.ofCount(3), bind("uri = \"a\"; in = { signals = 3 }").signals());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "type = \"file\" | n.conf:1:11: file node 'results' needs a uri (the file to write or replay)",
        "uri = \"\" | n.conf:1:19: uri: the file name is empty",
        "uri = \"logs/%Q.log\" | n.conf:1:19: uri: %Q at character 6 of 'logs/%Q.log' is not a strftime conversion " +
            "this runner knows (no flags, widths or E/O modifiers; %% for a %)",
        "uri = 5 | n.conf:1:19: uri must be a string, not integer 5",
        "type = \"signal\"; uri = \"a\" | n.conf:1:20: type = \"signal\": not a file node",
        "uri = \"a\"; format = \"csv\" | n.conf:1:33: format = \"csv\": only villas.human is supported",
        "uri = \"a\"; format = { type = \"villas.human\" } | n.conf:1:33: format must be a string, not a group",
        "uri = \"a\"; in = { eof = \"loop\" } | n.conf:1:37: in.eof: 'loop' is not one of stop, exit, rewind, wait",
        "uri = \"a\"; in = { epoch_mode = \"now\" } | n.conf:1:44: in.epoch_mode: 'now' is not one of direct, wait, " +
            "relative, absolute, original",
        "uri = \"a\"; in = { rate = -1 } | n.conf:1:38: in.rate = -1.0 is outside 0..1.0E9 samples per second (0: " +
            "by the file's timestamps)",
        "uri = \"a\"; in = { rate = 10; epoch_mode = \"original\" } | n.conf:1:38: in.rate has no effect with " +
            "in.epoch_mode = \"original\" (no waiting at all; VILLAS ignores it): give one of them",
        "uri = \"a\"; in = { epoch = 1e12 } | n.conf:1:39: in.epoch = 1.0E12 is not a number of seconds within 1e10 " +
            "of 0",
        "uri = \"a\"; in = { skip = -1 } | n.conf:1:38: in.skip = -1 must not be negative",
        "uri = \"a\"; out = { buffer_size = -2 } | n.conf:1:46: out.buffer_size = -2 must not be negative",
        "uri = \"a\"; out = { flush = 1 } | n.conf:1:40: out.flush must be a boolean, not integer 1",
        "uri = \"a\"; in = { eoff = \"stop\" } | n.conf:1:31: unknown key 'in.eoff' (did you mean 'in.eof'?)",
        "uri = \"a\"; mode = \"w+\" | n.conf:1:24: unknown key 'mode'",
        "uri = \"a\"; signals = 2; in = { signals = 2 } | n.conf:1:54: in.signals and signals (at n.conf:1:34) are " +
            "the same setting: give only one",
    })
    void rejectsWhatVillasWouldIgnoreOrMisreadAtItsLocation(final String body, final String message)
    {
        assertEquals(message, assertThrows(ConfigException.class, () -> bind(body)).getMessage());
    }

    private static FileNodeSettings bind(final String body)
    {
        final ConfigGroup root = LibconfigReader.parse("results = { " + body + " };", "n.conf");
        return FileNodeSettings.bind("results", (ConfigGroup)root.get("results"));
    }
}
