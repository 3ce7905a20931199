package io.ibex.transport.config;

import io.ibex.transport.sample.SignalList;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ChannelConfigBuilderTest
{
    @Test
    void aBuilderAndAConfigFileMakeEqualConfigs()
    {
        final ChannelConfig built = ChannelConfig.builder().name("ib_node_source").mode(TransportMode.RC)
            .in(in -> in.address(new InetSocketAddress("10.0.0.2", 1337)).maxWrs(8192).cqSize(8192).vectorize(1)
            .bufferSubtraction(128)).out(out -> out.address("10.0.0.1:1337").resolutionTimeoutMillis(1000).maxWrs(8192)
            .cqSize(256).vectorize(1).sendInline(true).maxInlineData(60).useFallback(true)).build();

        assertEquals(ChannelConfig.read(LibconfigReaderTest.SEED, "ib_node_source"), built);
        assertEquals(built, built.toBuilder().build());
    }

    @Test
    void theBuilderEnforcesTheConfigRulesNamingItsMethodAndTheKey()
    {
        assertEquals("ChannelConfig.builder().in(...).address: in.address must not be null",
            error(b -> b.in(in -> in.address((String)null))));
        assertEquals("ChannelConfig.builder(): in.address is required",
            assertThrows(ConfigException.class, () -> ChannelConfig.builder().build()).getMessage());
        assertEquals("ChannelConfig.builder().in(...).cqSize: in.cq_size = 0 is outside 1..1073741824",
            error(b -> b.in(in -> in.cqSize(0))));
        assertEquals("ChannelConfig.builder().in(...).maxWrs: in.max_wrs = 1073741825 is outside 1..1073741824",
            error(b -> b.in(in -> in.maxWrs((1 << 30) + 1))));
        assertEquals("ChannelConfig.builder().in(...).vectorize: in.vectorize = -1 is outside 1..1073741824",
            error(b -> b.in(in -> in.vectorize(-1))));
        assertEquals("ChannelConfig.builder().in(...).bufferSubtraction: in.buffer_subtraction = -1 is outside " +
            "0..1073741824", error(b -> b.in(in -> in.bufferSubtraction(-1))));
        assertEquals("ChannelConfig.builder().out(...).resolutionTimeoutMillis: out.resolution_timeout = 0 is outside " +
            "1..2147483647", error(b -> b.out(out -> out.resolutionTimeoutMillis(0))));
        assertEquals("ChannelConfig.builder().out(...).cqSize: out.cq_size = 0 is outside 1..1073741824",
            error(b -> b.out(out -> out.cqSize(0))));
        assertEquals("ChannelConfig.builder().out(...).maxWrs: out.max_wrs = 0 is outside 1..1073741824",
            error(b -> b.out(out -> out.maxWrs(0))));
        assertEquals("ChannelConfig.builder().out(...).vectorize: out.vectorize = 0 is outside 1..1073741824",
            error(b -> b.out(out -> out.vectorize(0))));
        assertEquals("ChannelConfig.builder().out(...).maxInlineData: out.max_inline_data = -8 is outside 0..2147483647",
            error(b -> b.out(out -> out.maxInlineData(-8))));
        assertEquals("ChannelConfig.builder().out(...).periodicSignaling: out.periodic_signaling = -2 is outside " +
            "0..1073741824", error(b -> b.out(out -> out.periodicSignaling(-2))));
        assertEquals("ChannelConfig.builder().out(...).reconnectMinDelay: out.reconnect_min_delay = 0 ms must be positive",
            error(b -> b.out(out -> out.reconnectMinDelay(Duration.ZERO))));
        assertEquals("ChannelConfig.builder().out(...).reconnectMaxDelay: out.reconnect_max_delay must not be null",
            error(b -> b.out(out -> out.reconnectMaxDelay(null))));
        assertEquals("ChannelConfig.builder().provider: provider = \"rxe\" is not one of auto, soft, disni",
            error(b -> b.provider("rxe")));
        assertEquals("ChannelConfig.builder().device: device must not be empty (leave it out for any)",
            error(b -> b.device("")));
        assertEquals("ChannelConfig.builder().name: name must not be empty", error(b -> b.name("")));
        assertEquals("ChannelConfig.builder().secretFile: secret_file must not be empty (leave it out to connect " +
            "without authentication)", error(b -> b.secretFile(Path.of(""))));
        assertEquals("ChannelConfig.builder().mode: rdma_transport_mode must not be null", error(b -> b.mode(null)));
        assertEquals("ChannelConfig.builder().pollMode: poll_mode must not be null", error(b -> b.pollMode(null)));
        assertEquals("ChannelConfig.builder().idle: idle_strategy must not be null", error(b -> b.idle(null)));
        assertEquals("ChannelConfig.builder().signals: in.signals must not be null", error(b -> b.signals(null)));
        assertEquals("ChannelConfig.builder().out(...).address: out.address: \"10.0.0.1:http\" is not an address: " +
            "expected ip:port, [ipv6]:port or localhost:port", error(b -> b.out(out -> out.address("10.0.0.1:http"))));
    }

    @Test
    void theProviderIsTakenInAnyCaseAndKeptInLowerCase()
    {
        assertEquals("disni", ChannelConfig.builder().in(in -> in.address("127.0.0.1:1")).provider("DiSNI")
            .build().provider());
        assertEquals(SignalList.ofCount(2),
            ChannelConfig.builder().in(in -> in.address("127.0.0.1:1")).signals(SignalList.ofCount(2)).build()
                .signals());
    }

    private static String error(final UnaryOperator<ChannelConfig.Builder> change)
    {
        final ChannelConfig.Builder builder = ChannelConfig.builder().in(in -> in.address("127.0.0.1:1"));
        return assertThrows(ConfigException.class, () -> change.apply(builder).build()).getMessage();
    }
}
