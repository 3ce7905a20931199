package io.ibex.transport.config;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.ibex.transport.config.ChannelConfigTest.bind;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChannelConfigCheckTest
{
    private static final String IN = "in = { address = \"127.0.0.1:1\"; ";

    @Test
    void theSeedNodesPassWithoutWarnings()
    {
        for (final String node : List.of("ib_node_source", "ib_node_target"))
        {
            final ChannelConfig config = ChannelConfig.read(LibconfigReaderTest.SEED, node);
            final ChannelConfig checked = config.check();

            assertFalse(config.checked());
            assertTrue(checked.checked());
            assertEquals(List.of(), checked.warnings());
            assertSame(checked, checked.check());
        }
    }

    @Test
    void maxWrsAreRoundedUpToAPowerOfTwoWithAWarningAndPeriodicSignalingFollows()
    {
        final ChannelConfig config = bind(IN + "max_wrs = 100; cq_size = 100 }; out = { max_wrs = 3 }");

        assertEquals(1, config.out().periodicSignaling());
        final ChannelConfig checked = config.check();

        assertEquals(128, checked.in().maxWrs());
        assertEquals(4, checked.out().maxWrs());
        assertEquals(2, checked.out().periodicSignaling());
        assertEquals(List.of(
            "n.conf:1:43: in.max_wrs = 100 is not a power of two: rounded up to 128",
            "n.conf:1:83: out.max_wrs = 3 is not a power of two: rounded up to 4",
            "n.conf:1:58: in.cq_size = 100 is less than in.max_wrs - in.buffer_subtraction = 112: only 100 " +
                "receives are kept posted, as a disconnect flushes them all into the completion queue"),
            checked.warnings());
    }

    @Test
    void aPortSpaceOtherThanRcWarnsThatVillasNodeRunsRcWithTheSameFile()
    {
        final ChannelConfig checked = bind("rdma_port_space = \"UD\"; " + IN + "}").check();

        assertEquals(TransportMode.UD, checked.mode(), "ibex honours the key VILLAS's docs name");
        assertEquals(List.of("n.conf:1:19: rdma_port_space = UD makes this node UD, but VILLASnode reads only " +
            "rdma_transport_mode and runs RC with this config, so a VILLASnode peer given the same file cannot talk " +
            "to it; write rdma_transport_mode = \"UD\" to mean UD on both"), checked.warnings());
        assertEquals(List.of(), bind("rdma_port_space = \"RC\"; " + IN + "}").check().warnings(),
            "RC: both read the file alike");
        assertEquals(List.of(), bind("rdma_transport_mode = \"UD\"; " + IN + "}").check().warnings());
    }

    @Test
    void moreThan8192WorkRequestsIsAWarning()
    {
        final ChannelConfig checked = bind(IN + "max_wrs = 16384; cq_size = 16384 }").check();

        assertEquals(List.of("n.conf:1:43: in.max_wrs = 16384 is above 8192, more work requests than many devices " +
            "allow in one queue"), checked.warnings());
    }

    @Test
    void aDefaultedCqSizeBelowThePostedReceivesIsAWarningAtTheSettingThatCausedIt()
    {
        final ChannelConfig checked = bind(IN + "max_wrs = 1024 }").check();

        assertEquals(List.of("n.conf:1:43: in.cq_size = 128 (default) is less than in.max_wrs - " +
            "in.buffer_subtraction = 1008: only 128 receives are kept posted, as a disconnect flushes them all into " +
            "the completion queue"), checked.warnings());
        assertEquals(128, checked.in().maxPosted());
    }

    @Test
    void aSendCompletionQueueBelowOutMaxWrsLimitsTheSendsInFlightAndHowRarelyOneIsSignaled()
    {
        final ChannelConfig source = ChannelConfig.read(LibconfigReaderTest.SEED, "ib_node_source").check();

        assertEquals(8192, source.out().maxWrs());
        assertEquals(256, source.out().maxInFlight());
        assertEquals(128, source.out().periodicSignaling(), "half of the sends in flight, not of out.max_wrs");
        assertEquals(8192 - 128, source.in().maxPosted());
        assertEquals(List.of(), source.warnings(), "a limit, not a mistake: VILLAS' reference config");

        final ChannelConfig tiny = bind(IN + "}; out = { cq_size = 1 }").check();
        assertEquals(1, tiny.out().maxInFlight());
        assertEquals(1, tiny.out().periodicSignaling());
    }

    @Test
    void periodicSignalingAboveHalfTheSendsInFlightIsLoweredWithAWarning()
    {
        final ChannelConfig checked = bind(IN + "}; out = { max_wrs = 256; cq_size = 32; periodic_signaling = 100 }")
            .check();

        assertEquals(16, checked.out().periodicSignaling());
        assertEquals(List.of("n.conf:1:94: out.periodic_signaling = 100 is more than half of the 32 sends kept in " +
            "flight (out.max_wrs, at most out.cq_size): one send in 16 is signaled instead, so that completions " +
            "come before the writer is held back"), checked.warnings());
    }

    @Test
    void theBuilderIsCheckedByTheSameRulesNamingItsMethods()
    {
        final ChannelConfig.Builder builder = ChannelConfig.builder().in(in -> in.address("127.0.0.1:1"));

        assertEquals("ChannelConfig.builder().in(...).vectorize: in.buffer_subtraction = 16 (default) must be at least " +
            "2 * in.vectorize = 9, that is 18",
            assertThrows(ConfigException.class, () -> builder.in(in -> in.vectorize(9)).build().check()).getMessage());
        assertEquals("ChannelConfig.builder().out(...).reconnectMinDelay: out.reconnect_min_delay = 5000 ms must not exceed " +
            "out.reconnect_max_delay = 2000 ms (default)", assertThrows(ConfigException.class,
            () -> builder.in(in -> in.vectorize(1)).out(out -> out.reconnectMinDelay(Duration.ofSeconds(5)))
                .build().check()).getMessage());
        assertEquals(List.of("ChannelConfig.builder().out(...).maxWrs: out.max_wrs = 5 is not a power of two: rounded up " +
            "to 8"), builder.out(out -> out.reconnectMinDelay(Duration.ofMillis(1)).maxWrs(5))
                .build().check().warnings());
    }
}
