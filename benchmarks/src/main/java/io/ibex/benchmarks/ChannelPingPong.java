package io.ibex.benchmarks;

import io.ibex.transport.channel.ChannelState;
import io.ibex.transport.channel.SampleBatch;
import io.ibex.transport.channel.SampleChannel;
import io.ibex.transport.config.ChannelConfig;
import io.ibex.transport.sample.SignalList;
import io.ibex.transport.stats.Counter;
import org.agrona.CloseHelper;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * A ping-pong of samples over one RC connection between two {@link SampleChannel}s: the caller's thread claims a
 * sample on the source, writes it and busy-polls the source's reads for the answer; the {@link ChannelEcho} busy-polls
 * the target's reads and answers each sample with one of its own carrying the same sequence, on a thread of this
 * process or in a second JVM of this host ({@link ChannelEchoProcess}). Both sides use the channel's defaults (in and
 * out vectorize 1, periodic signaling, no inline data).
 */
final class ChannelPingPong implements PingPong
{
    /** How long a round trip waits at most for a step (a free sample, the write, the answer): far beyond any. */
    static final long STEP_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final String LOOPBACK = "127.0.0.1";
    /** Empty polls between two looks at the clock and the reconnect count: far apart, as a look costs a little. */
    private static final int POLLS_PER_CHECK = 1024;
    private static final String CLAIMING = "a free slot for sample";
    private static final String WRITING = "the write of sample";
    private static final String READING = "the answer to sample";

    private final AutoCloseable[] resources; // closed in this order
    private final SampleChannel source;
    private final SampleBatch out = new SampleBatch(1);
    private final SampleBatch in = new SampleBatch(1);
    private final Runnable echoAlive;
    private final long stepTimeoutNanos;
    private long sequence;
    private long waitStartNanos;
    private long reconnectsBeforeWait;

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
        stepTimeoutNanos = STEP_TIMEOUT_NANOS;
    }

    /**
     * A ping-pong whose echo the caller plays (for tests); closing it closes nothing.
     *
     * @param source           the connected source to send from and read the answers on.
     * @param stepTimeoutNanos how long a round trip waits at most for a step.
     */
    ChannelPingPong(final SampleChannel source, final long stepTimeoutNanos)
    {
        this.source = source;
        this.echoAlive = () -> { };
        this.resources = new AutoCloseable[0];
        this.stepTimeoutNanos = stepTimeoutNanos;
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
                .in(in -> in.address(new InetSocketAddress(LOOPBACK, ConnectedChannels.freePort(LOOPBACK))))
                .out(out -> out.address(targetAddress)).signals(SignalList.ofCount(values)).build());
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
        stepTimeoutNanos = STEP_TIMEOUT_NANOS;
    }

    /**
     * Sends one sample and busy-polls for its answer.
     *
     * @throws IllegalStateException if the echo failed, the source lost its connection (even one made again since:
     *     the sample or its answer went with it) or a step took longer than its timeout.
     */
    @Override
    public void roundTrip()
    {
        for (int polls = 0; source.claim(out, 1) == 0; polls++)
        {
            stalled(polls, CLAIMING);
        }
        out.get(0).sequence(sequence);
        for (int polls = 0; source.write(out) == 0; polls++)
        {
            stalled(polls, WRITING);
        }
        for (int polls = 0; source.read(in) == 0; polls++)
        {
            stalled(polls, READING);
        }
        final long answered = in.get(0).sequence();
        if (answered != sequence)
        {
            throw new IllegalStateException("sample " + sequence + " was answered by sample " + answered);
        }
        sequence++;
    }

    /**
     * After an empty poll: fails if the echo failed or the connection is gone, and every {@value #POLLS_PER_CHECK}
     * polls if the connection was made again or the step is over time. Only a wait pays for it, and without
     * allocating: the first empty poll of a step reads the clock and the reconnect count once.
     */
    private void stalled(final int polls, final String step)
    {
        if (polls == 0)
        {
            waitStartNanos = System.nanoTime();
            reconnectsBeforeWait = source.stats().get(Counter.RECONNECTS);
        }
        echoAlive.run();
        if (source.state() != ChannelState.CONNECTED)
        {
            throw new IllegalStateException(source + " lost its connection waiting for " + step + " " + sequence +
                " (failure: " + source.failure() + ")");
        }
        if (polls % POLLS_PER_CHECK == POLLS_PER_CHECK - 1)
        {
            if (source.stats().get(Counter.RECONNECTS) != reconnectsBeforeWait)
            {
                throw new IllegalStateException(source + " lost its connection and made it again waiting for " +
                    step + " " + sequence + ", which went with the connection");
            }
            final long waited = System.nanoTime() - waitStartNanos;
            if (waited > stepTimeoutNanos)
            {
                throw new IllegalStateException(source + " waited " + TimeUnit.NANOSECONDS.toMillis(waited) +
                    " ms for " + step + " " + sequence + " (state " + source.state() + ", failure: " +
                    source.failure() + ")");
            }
        }
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(resources);
    }
}
