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
            .inAddress(new InetSocketAddress("10.0.0.2", 1337)).inMaxWrs(8192).inCqSize(8192).inVectorize(1)
            .inBufferSubtraction(128).outAddress("10.0.0.1:1337").outResolutionTimeoutMillis(1000).outMaxWrs(8192)
            .outCqSize(256).outVectorize(1).outSendInline(true).outMaxInlineData(60).outUseFallback(true).build();

        assertEquals(ChannelConfig.read(LibconfigReaderTest.SEED, "ib_node_source"), built);
        assertEquals(built, built.toBuilder().build());
    }

    @Test
    void theBuilderEnforcesTheConfigRulesNamingItsMethodAndTheKey()
    {
        assertEquals("ChannelConfig.builder().inAddress: in.address must not be null",
            error(b -> b.inAddress((String)null)));
        assertEquals("ChannelConfig.builder(): in.address is required",
            assertThrows(ConfigException.class, () -> ChannelConfig.builder().build()).getMessage());
        assertEquals("ChannelConfig.builder().inCqSize: in.cq_size = 0 is outside 1..1073741824",
            error(b -> b.inCqSize(0)));
        assertEquals("ChannelConfig.builder().inMaxWrs: in.max_wrs = 1073741825 is outside 1..1073741824",
            error(b -> b.inMaxWrs((1 << 30) + 1)));
        assertEquals("ChannelConfig.builder().inVectorize: in.vectorize = -1 is outside 1..1073741824",
            error(b -> b.inVectorize(-1)));
        assertEquals("ChannelConfig.builder().inBufferSubtraction: in.buffer_subtraction = -1 is outside " +
            "0..1073741824", error(b -> b.inBufferSubtraction(-1)));
        assertEquals("ChannelConfig.builder().outResolutionTimeoutMillis: out.resolution_timeout = 0 is outside " +
            "1..2147483647", error(b -> b.outResolutionTimeoutMillis(0)));
        assertEquals("ChannelConfig.builder().outCqSize: out.cq_size = 0 is outside 1..1073741824",
            error(b -> b.outCqSize(0)));
        assertEquals("ChannelConfig.builder().outMaxWrs: out.max_wrs = 0 is outside 1..1073741824",
            error(b -> b.outMaxWrs(0)));
        assertEquals("ChannelConfig.builder().outVectorize: out.vectorize = 0 is outside 1..1073741824",
            error(b -> b.outVectorize(0)));
        assertEquals("ChannelConfig.builder().outMaxInlineData: out.max_inline_data = -8 is outside 0..2147483647",
            error(b -> b.outMaxInlineData(-8)));
        assertEquals("ChannelConfig.builder().outPeriodicSignaling: out.periodic_signaling = -2 is outside " +
            "0..1073741824", error(b -> b.outPeriodicSignaling(-2)));
        assertEquals("ChannelConfig.builder().reconnectMinDelay: out.reconnect_min_delay = 0 ms must be positive",
            error(b -> b.reconnectMinDelay(Duration.ZERO)));
        assertEquals("ChannelConfig.builder().reconnectMaxDelay: out.reconnect_max_delay must not be null",
            error(b -> b.reconnectMaxDelay(null)));
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
        assertEquals("ChannelConfig.builder().outAddress: out.address: \"10.0.0.1:http\" is not an address: " +
            "expected ip:port, [ipv6]:port or localhost:port", error(b -> b.outAddress("10.0.0.1:http")));
    }

    @Test
    void theProviderIsTakenInAnyCaseAndKeptInLowerCase()
    {
        assertEquals("disni", ChannelConfig.builder().inAddress("127.0.0.1:1").provider("DiSNI").build().provider());
        assertEquals(SignalList.ofCount(2),
            ChannelConfig.builder().inAddress("127.0.0.1:1").signals(SignalList.ofCount(2)).build().signals());
    }

    private static String error(final UnaryOperator<ChannelConfig.Builder> change)
    {
        final ChannelConfig.Builder builder = ChannelConfig.builder().inAddress("127.0.0.1:1");
        return assertThrows(ConfigException.class, () -> change.apply(builder).build()).getMessage();
    }
}
