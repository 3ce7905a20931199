package io.ibex.benchmarks;

import org.agrona.concurrent.Agent;

/**
 * The echo side of an RC ping-pong: answers every message that arrives with one of the same length.
 */
final class RcEcho implements Agent
{
    private final RcMessenger messenger;

    RcEcho(final RcMessenger messenger)
    {
        this.messenger = messenger;
    }

    @Override
    public int doWork()
    {
        final int received = messenger.poll();
        for (int i = 0; i < received; i++)
        {
            messenger.send();
        }
        return received;
    }

    @Override
    public String roleName()
    {
        return "rc-echo";
    }
}
