package io.ibex.benchmarks;

import io.ibex.transport.channel.SampleChannel;
import io.ibex.transport.config.ChannelConfig;
import org.agrona.CloseHelper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A target channel listening on a free port of an address and a source channel sending to it over RC, both in
 * this process, opened and connected; an RC target can write back to its source.
 */
final class ConnectedChannels implements AutoCloseable
{
    private static final long CONNECT_TIMEOUT_SECONDS = 30;

    private final SampleChannel target;
    private final SampleChannel source;

    /**
     * Opens the target, then the source, and waits until both are connected.
     *
     * @param provider     the provider both channels run on ({@code soft}, {@code disni}).
     * @param address      the address both listen on (127.0.0.1 on the host, rxe0's in the Soft-RoCE guest).
     * @param targetConfig sets the target's options beyond name, provider and in.address.
     * @param sourceConfig sets the source's options beyond name, provider, in.address and out.address.
     * @throws IllegalStateException if either does not connect within {@value #CONNECT_TIMEOUT_SECONDS} s.
     */
    ConnectedChannels(final String provider, final String address, final Consumer<ChannelConfig.Builder> targetConfig,
        final Consumer<ChannelConfig.Builder> sourceConfig)
    {
        final InetSocketAddress targetAddress = new InetSocketAddress(address, freePort(address));
        final ChannelConfig.Builder targetBuilder = ChannelConfig.builder().name("bench-target").provider(provider)
            .in(in -> in.address(targetAddress));
        targetConfig.accept(targetBuilder);
        final ChannelConfig.Builder sourceBuilder = ChannelConfig.builder().name("bench-source").provider(provider)
            .in(in -> in.address(new InetSocketAddress(address, freePort(address))))
            .out(out -> out.address(targetAddress));
        sourceConfig.accept(sourceBuilder);
        target = SampleChannel.open(targetBuilder.build());
        SampleChannel opened = null;
        try
        {
            opened = SampleChannel.open(sourceBuilder.build());
            awaitConnected(opened);
            awaitConnected(target);
        }
        catch (final RuntimeException | InterruptedException ex)
        {
            CloseHelper.closeAll(opened, target);
            throw ex instanceof RuntimeException ? (RuntimeException)ex : new IllegalStateException(ex);
        }
        source = opened;
    }

    /** @return the channel that listened. */
    SampleChannel target()
    {
        return target;
    }

    /** @return the channel that connected. */
    SampleChannel source()
    {
        return source;
    }

    static void awaitConnected(final SampleChannel channel) throws InterruptedException
    {
        if (!channel.awaitConnected(CONNECT_TIMEOUT_SECONDS, TimeUnit.SECONDS))
        {
            throw new IllegalStateException(channel + " did not connect within " + CONNECT_TIMEOUT_SECONDS +
                " s (failure: " + channel.failure() + ")");
        }
    }

    static int freePort(final String address)
    {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(address)))
        {
            return socket.getLocalPort();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("no free port on " + address, ex);
        }
    }

    /**
     * Closes the source, then the target.
     */
    @Override
    public void close()
    {
        CloseHelper.closeAll(source, target);
    }
}
