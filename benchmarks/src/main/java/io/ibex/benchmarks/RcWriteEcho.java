package io.ibex.benchmarks;

import org.agrona.concurrent.Agent;

/**
 * The echo side of an RDMA WRITE ping-pong: writes back every sequence that lands in its buffer.
 */
final class RcWriteEcho implements Agent
{
    private final RcWriter writer;
    private long answered;

    RcWriteEcho(final RcWriter writer)
    {
        this.writer = writer;
    }

    @Override
    public int doWork()
    {
        final long landed = writer.landed();
        if (landed == answered)
        {
            return 0;
        }
        answered = landed;
        writer.write(landed);
        return 1;
    }

    @Override
    public String roleName()
    {
        return "rc-write-echo";
    }
}
