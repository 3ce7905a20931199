package io.ibex.benchmarks;

import io.ibex.rdma.Provider;
import org.agrona.CloseHelper;

/**
 * An RC SEND/RECV ping-pong between the two queue pairs of an {@link RcPair}.
 */
final class RcPingPong implements PingPong
{
    private static final int QUEUE_DEPTH = 16;

    private final RcPair endpoints;
    private final RcMessenger messenger;
    private final PeerThread echo;

    /**
     * Connects the two queue pairs and starts the echo thread.
     *
     * @param provider      the provider whose first device both endpoints open.
     * @param messageLength bytes of the message each way.
     */
    RcPingPong(final Provider provider, final int messageLength)
    {
        endpoints = new RcPair(provider, RcMessenger.bufferLength(messageLength, messageLength), QUEUE_DEPTH);
        messenger = new RcMessenger(endpoints.client(), QUEUE_DEPTH, messageLength, messageLength);
        echo = new PeerThread(new RcEcho(new RcMessenger(endpoints.server(), QUEUE_DEPTH, messageLength,
            messageLength)));
    }

    @Override
    public void roundTrip()
    {
        messenger.send();
        while (messenger.poll() == 0)
        {
            echo.checkAlive();
        }
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(echo, endpoints);
    }
}
