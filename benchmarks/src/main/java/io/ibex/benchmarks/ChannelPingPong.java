package io.ibex.benchmarks;

import io.ibex.transport.channel.ChannelState;
import io.ibex.transport.channel.SampleBatch;
import io.ibex.transport.channel.SampleChannel;
import io.ibex.transport.config.ChannelConfig;
import io.ibex.transport.sample.SignalList;
import org.agrona.CloseHelper;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * A ping-pong of samples over one RC connection between two {@link SampleChannel}s: the caller's thread claims a
 * sample on the source, writes it and busy-polls the source's reads for the answer; the {@link ChannelEcho} busy-polls
 * the target's reads and answers each sample with one of its own carrying the same sequence, on a thread of this
 * process or in a second JVM of this host ({@link ChannelEchoProcess}). Both sides use the channel's defaults (in and
 * out vectorize 1, periodic signaling, no inline data).
 */
final class ChannelPingPong implements PingPong
{
    private static final String LOOPBACK = "127.0.0.1";

    private final AutoCloseable[] resources; // closed in this order
    private final SampleChannel source;
    private final SampleBatch out = new SampleBatch(1);
    private final SampleBatch in = new SampleBatch(1);
    private final Runnable echoAlive;
    private long sequence;

    /**
     * Connects the two channels and starts the echo thread.
     *
     * @param provider the provider both channels run on.
     * @param address  the address both listen on.
     * @param values   float values in each sample: {@code 24 + 8 * values} bytes go each way.
     */
    ChannelPingPong(final String provider, final String address, final int values)
    {
        final SignalList signals = SignalList.ofCount(values);
        final ConnectedChannels channels =
            new ConnectedChannels(provider, address, c -> c.signals(signals), c -> c.signals(signals));
        source = channels.source();
        final PeerThread echo = new PeerThread(new ChannelEcho(channels.target()));
        echoAlive = echo::checkAlive;
        resources = new AutoCloseable[]{ echo, channels };
    }

    /**
     * Starts a {@link ChannelEchoProcess} whose target listens on a free port of 127.0.0.1, and connects a source
     * of this process to it on the soft provider.
     *
     * @param values       float values in each sample: {@code 24 + 8 * values} bytes go each way.
     * @param sharedMemory whether the echo process takes the shared-memory link (else it declines: TCP).
     * @param yield        whether the echo process yields the core on an empty poll rather than spin (for tests).
     */
    ChannelPingPong(final int values, final boolean sharedMemory, final boolean yield) throws IOException
    {
        final InetSocketAddress targetAddress = new InetSocketAddress(LOOPBACK, ConnectedChannels.freePort(LOOPBACK));
        final EchoProcess echo = new EchoProcess(ChannelEchoProcess.class, sharedMemory, yield,
            Integer.toString(values), Integer.toString(targetAddress.getPort()));
        SampleChannel opened = null;
        try
        {
            echo.awaitReady();
            opened = SampleChannel.open(ChannelConfig.builder().name("bench-source").provider(Transports.SOFT)
                .inAddress(new InetSocketAddress(LOOPBACK, ConnectedChannels.freePort(LOOPBACK)))
                .outAddress(targetAddress).signals(SignalList.ofCount(values)).build());
            ConnectedChannels.awaitConnected(opened);
        }
        catch (final InterruptedException ex)
        {
            CloseHelper.quietCloseAll(opened, echo);
            throw new IOException("interrupted while connecting to the echo process", ex);
        }
        catch (final IOException | RuntimeException ex)
        {
            CloseHelper.quietCloseAll(opened, echo);
            throw ex;
        }
        source = opened;
        echoAlive = echo::checkAlive;
        resources = new AutoCloseable[]{ source, echo };
    }

    @Override
    public void roundTrip()
    {
        while (source.claim(out, 1) == 0)
        {
            checkAlive();
        }
        out.get(0).sequence(sequence);
        while (source.write(out) == 0)
        {
            checkAlive();
        }
        while (source.read(in) == 0)
        {
            checkAlive();
        }
        final long answered = in.get(0).sequence();
        if (answered != sequence)
        {
            throw new IllegalStateException("sample " + sequence + " was answered by sample " + answered);
        }
        sequence++;
    }

    private void checkAlive()
    {
        echoAlive.run();
        if (source.state() != ChannelState.CONNECTED)
        {
            throw new IllegalStateException(source + " lost its connection (failure: " + source.failure() + ")");
        }
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(resources);
    }
}
