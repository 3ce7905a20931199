package io.ibex.benchmarks;

import io.ibex.rdma.spi.RdmaProvider;
import io.ibex.rdma.verbs.Device;
import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpState;
import io.ibex.samples.RcEndpoint;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;

/**
 * An RC SEND/RECV ping-pong between two queue pairs of one process on a provider's first device, connected
 * out of band as {@code ibex demo} connects them (port 1, GID index 1).
 */
final class RcPingPong implements PingPong
{
    private static final int PORT_NUM = 1;
    private static final int GID_INDEX = 1;
    private static final int QUEUE_DEPTH = 16;

    private final RcEndpoint client;
    private final RcEndpoint server;
    private final RcMessenger messenger;
    private final PeerThread echo;

    /**
     * Connects the two queue pairs and starts the echo thread.
     *
     * @param provider      the provider whose first device both endpoints open.
     * @param messageLength bytes of the message each way.
     */
    RcPingPong(final RdmaProvider provider, final int messageLength)
    {
        final Device device = provider.devices().get(0);
        final int bufferLength = RcMessenger.bufferLength(messageLength);
        client = RcEndpoint.open(device, PORT_NUM, GID_INDEX, bufferLength, QUEUE_DEPTH);
        server = RcEndpoint.open(device, PORT_NUM, GID_INDEX, bufferLength, QUEUE_DEPTH);
        client.connect(server.address());
        server.connect(client.address());
        messenger = new RcMessenger(client, QUEUE_DEPTH, messageLength);
        echo = new PeerThread(new Echo(new RcMessenger(server, QUEUE_DEPTH, messageLength)));
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
        CloseHelper.close(echo);
        // Both QPs leave RTS before either goes away, so neither sees its peer vanish mid-connection.
        client.qp().modify(QpAttr.to(QpState.ERR));
        server.qp().modify(QpAttr.to(QpState.ERR));
        CloseHelper.closeAll(client, server);
    }

    /**
     * Answers every message that arrives with one of the same length.
     */
    private static final class Echo implements Agent
    {
        private final RcMessenger messenger;

        Echo(final RcMessenger messenger)
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
}
