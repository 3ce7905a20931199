package io.ibex.benchmarks;

import io.ibex.transport.channel.SampleBatch;
import io.ibex.transport.channel.SampleChannel;
import org.agrona.concurrent.Agent;

/**
 * Answers every sample that arrives with one of the same sequence and length; never waits inside a duty
 * cycle, so the thread stops when asked even if the peer is gone.
 */
final class ChannelEcho implements Agent
{
    private static final long NONE = -1;

    private final SampleChannel channel;
    private final SampleBatch in = new SampleBatch(1);
    private final SampleBatch out = new SampleBatch(1);
    private long toAnswer = NONE;

    ChannelEcho(final SampleChannel channel)
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
