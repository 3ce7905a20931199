package io.ibex.benchmarks;

import io.ibex.transport.channel.ChannelState;
import io.ibex.transport.channel.SampleBatch;
import io.ibex.transport.channel.SampleChannel;
import io.ibex.transport.sample.SignalList;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;

/**
 * A ping-pong of samples over one RC connection between two {@link SampleChannel}s of one process: the caller's
 * thread claims a sample on the source, writes it and busy-polls the source's reads for the answer; the echo
 * thread busy-polls the target's reads and answers each sample with one of its own carrying the same sequence.
 * Both sides use the channel's defaults (in and out vectorize 1, periodic signaling, no inline data).
 */
final class ChannelPingPong implements PingPong
{
    private final ConnectedChannels channels;
    private final SampleChannel source;
    private final SampleBatch out = new SampleBatch(1);
    private final SampleBatch in = new SampleBatch(1);
    private final PeerThread echo;
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
        channels = new ConnectedChannels(provider, address, c -> c.signals(signals), c -> c.signals(signals));
        source = channels.source();
        echo = new PeerThread(new Echo(channels.target()));
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
        echo.checkAlive();
        if (source.state() != ChannelState.CONNECTED)
        {
            throw new IllegalStateException(source + " lost its connection (failure: " + source.failure() + ")");
        }
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(echo, channels);
    }

    /**
     * Answers every sample that arrives with one of the same sequence and length; never waits inside a duty
     * cycle, so the thread stops when asked even if the peer is gone.
     */
    private static final class Echo implements Agent
    {
        private static final long NONE = -1;

        private final SampleChannel channel;
        private final SampleBatch in = new SampleBatch(1);
        private final SampleBatch out = new SampleBatch(1);
        private long toAnswer = NONE;

        Echo(final SampleChannel channel)
        {
            this.channel = channel;
        }

        @Override
        public int doWork()
        {
            if (toAnswer == NONE)
            {
                if (channel.read(in) == 0)
                {
                    return 0;
                }
                toAnswer = in.get(0).sequence();
            }
            if (out.isEmpty())
            {
                if (channel.claim(out, 1) == 0)
                {
                    return 0;
                }
                out.get(0).sequence(toAnswer);
            }
            if (channel.write(out) == 0)
            {
                return 0;
            }
            toAnswer = NONE;
            return 1;
        }

        @Override
        public String roleName()
        {
            return "channel-echo";
        }
    }
}
