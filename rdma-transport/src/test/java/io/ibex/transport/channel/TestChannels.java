package io.ibex.transport.channel;

import io.ibex.rdma.Providers;
import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.cm.EventChannel;
import io.ibex.rdma.cm.PortSpace;
import io.ibex.rdma.provider.disni.DisniProvider;
import io.ibex.rdma.provider.soft.SoftProvider;
import io.ibex.transport.config.ChannelConfig;
import io.ibex.transport.config.TransportMode;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Configs and checks shared by the channel tests. They run on the provider {@link Providers#select()} picks
 * ({@code -Dibex.provider}, soft on a host without RDMA) at {@code -Dibex.test.address} (127.0.0.1 on the host,
 * the rxe netdev's address in the Soft-RoCE guest).
 */
final class TestChannels
{
    static final String ADDRESS = System.getProperty("ibex.test.address", "127.0.0.1");
    static final long WAIT_MILLIS = Long.getLong("ibex.test.wait-ms", 10_000L);

    private TestChannels()
    {
    }

    static InetSocketAddress address(final int port)
    {
        return new InetSocketAddress(ADDRESS, port);
    }

    /** A target listening on the port. */
    static ChannelConfig target(final String name, final TransportMode mode, final int port,
        final Consumer<ChannelConfig.Builder> tweak)
    {
        final ChannelConfig.Builder config = ChannelConfig.builder().name(name).mode(mode)
            .in(in -> in.address(address(port)));
        tweak.accept(config);
        return config.build();
    }

    /** A source on {@code port} sending to {@code peerPort}. */
    static ChannelConfig source(final String name, final TransportMode mode, final int port, final int peerPort,
        final Consumer<ChannelConfig.Builder> tweak)
    {
        return target(name, mode, port, config -> tweak.accept(config.out(out -> out.address(address(peerPort)))));
    }

    /**
     * @return the open verbs objects of the selected provider, to show a test leaked nothing; the device
     *     context rdma_cm shares for the whole process (as librdmacm does) is opened first, so it counts always.
     */
    static int liveResources()
    {
        try (EventChannel events = Providers.select().createEventChannel())
        {
            final CmId id = events.createId(PortSpace.TCP);
            id.bindAddr(address(0));
            id.context();
        }
        return "disni".equals(Providers.select().name()) ? DisniProvider.liveResources() :
            SoftProvider.liveResources();
    }

    /** Waits up to {@link #WAIT_MILLIS} for the channel to report a failure, and asserts it did. */
    static void awaitFailure(final SampleChannel channel) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        while (channel.failure() == null && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
        assertNotNull(channel.failure(), channel + " reports its failure");
    }
}
