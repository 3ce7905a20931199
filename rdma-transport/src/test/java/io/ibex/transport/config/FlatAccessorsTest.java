package io.ibex.transport.config;

import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** 0.1's flat builder setters and getters, deprecated in 0.2, still set and read the {@code in} and {@code out} parts. */
@SuppressWarnings("removal")
class FlatAccessorsTest
{
    @Test
    void theFlatSettersBuildWhatTheGroupedBuilderBuilds()
    {
        final ChannelConfig flat = ChannelConfig.builder().name("n")
            .inAddress("127.0.0.1:4000").inCqSize(64).inMaxWrs(32).inVectorize(2).inBufferSubtraction(4)
            .admissionTimeout(Duration.ofSeconds(3))
            .outAddress(new InetSocketAddress("127.0.0.1", 4001)).outResolutionTimeoutMillis(500).outCqSize(96)
            .outMaxWrs(48).outVectorize(3).outSendInline(false).outMaxInlineData(16).outUseFallback(true)
            .outPeriodicSignaling(8).reconnect(false).reconnectMinDelay(Duration.ofMillis(20))
            .reconnectMaxDelay(Duration.ofSeconds(1)).build();
        final ChannelConfig grouped = ChannelConfig.builder().name("n")
            .in(in -> in.address("127.0.0.1:4000").cqSize(64).maxWrs(32).vectorize(2).bufferSubtraction(4)
                .admissionTimeout(Duration.ofSeconds(3)))
            .out(out -> out.address("127.0.0.1:4001").resolutionTimeoutMillis(500).cqSize(96).maxWrs(48).vectorize(3)
                .sendInline(false).maxInlineData(16).useFallback(true).periodicSignaling(8).reconnect(false)
                .reconnectMinDelay(Duration.ofMillis(20)).reconnectMaxDelay(Duration.ofSeconds(1)))
            .build();

        assertEquals(grouped, flat);
    }

    @Test
    void theFlatGettersReadTheGroups()
    {
        final ChannelConfig config = ChannelConfig.builder()
            .in(in -> in.address("127.0.0.1:4000").cqSize(64).maxWrs(32).vectorize(2).bufferSubtraction(4)
                .admissionTimeout(Duration.ofSeconds(3)))
            .out(out -> out.address("127.0.0.1:4001").resolutionTimeoutMillis(500).cqSize(96).maxWrs(48).vectorize(3)
                .sendInline(false).maxInlineData(16).useFallback(true).periodicSignaling(8).reconnect(false)
                .reconnectMinDelay(Duration.ofMillis(20)).reconnectMaxDelay(Duration.ofSeconds(1)))
            .build().check();
        final InConfig in = config.in();
        final OutConfig out = config.out();

        assertEquals(in.address(), config.inAddress());
        assertEquals(in.cqSize(), config.inCqSize());
        assertEquals(in.maxWrs(), config.inMaxWrs());
        assertEquals(in.vectorize(), config.inVectorize());
        assertEquals(in.bufferSubtraction(), config.inBufferSubtraction());
        assertEquals(in.maxPosted(), config.inMaxPosted());
        assertEquals(in.admissionTimeout(), config.admissionTimeout());
        assertEquals(out.address(), config.outAddress());
        assertEquals(out.resolutionTimeoutMillis(), config.outResolutionTimeoutMillis());
        assertEquals(out.cqSize(), config.outCqSize());
        assertEquals(out.maxWrs(), config.outMaxWrs());
        assertEquals(out.vectorize(), config.outVectorize());
        assertEquals(out.sendInline(), config.outSendInline());
        assertEquals(out.maxInlineData(), config.outMaxInlineData());
        assertEquals(out.useFallback(), config.outUseFallback());
        assertEquals(out.periodicSignaling(), config.outPeriodicSignaling());
        assertEquals(out.maxInFlight(), config.outMaxInFlight());
        assertEquals(out.reconnect(), config.reconnect());
        assertEquals(out.reconnectMinDelay(), config.reconnectMinDelay());
        assertEquals(out.reconnectMaxDelay(), config.reconnectMaxDelay());
        assertEquals(InConfig.DEFAULT_BUFFER_SUBTRACTION, ChannelConfig.DEFAULT_BUFFER_SUBTRACTION);
        assertEquals(OutConfig.DEFAULT_RECONNECT_MAX_DELAY, ChannelConfig.DEFAULT_RECONNECT_MAX_DELAY);
    }
}
