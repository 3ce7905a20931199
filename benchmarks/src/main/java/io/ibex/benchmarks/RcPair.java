package io.ibex.benchmarks;

import io.ibex.rdma.Provider;
import io.ibex.rdma.verbs.Device;
import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpState;
import io.ibex.samples.RcEndpoint;
import org.agrona.CloseHelper;

/**
 * Two RC endpoints of one process on a provider's first device, connected to each other out of band as
 * {@code ibex demo} connects them (port 1, GID index 1).
 */
final class RcPair implements AutoCloseable
{
    private static final int PORT_NUM = 1;
    private static final int GID_INDEX = 1;

    private final RcEndpoint client;
    private final RcEndpoint server;

    /**
     * Opens both endpoints and moves their queue pairs to RTS.
     *
     * @param provider     the provider whose first device both endpoints open.
     * @param bufferLength bytes of each endpoint's registered buffer.
     * @param queueDepth   outstanding sends and outstanding receives each queue pair holds.
     */
    RcPair(final Provider provider, final int bufferLength, final int queueDepth)
    {
        final Device device = provider.devices().get(0);
        client = RcEndpoint.open(device, PORT_NUM, GID_INDEX, bufferLength, queueDepth);
        RcEndpoint opened = null;
        try
        {
            opened = RcEndpoint.open(device, PORT_NUM, GID_INDEX, bufferLength, queueDepth);
            client.connect(opened.address());
            opened.connect(client.address());
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietCloseAll(opened, client);
            throw ex;
        }
        server = opened;
    }

    /** @return the endpoint the measuring thread drives. */
    RcEndpoint client()
    {
        return client;
    }

    /** @return the endpoint the peer thread drives. */
    RcEndpoint server()
    {
        return server;
    }

    /**
     * Moves both queue pairs to ERR, then closes both endpoints.
     */
    @Override
    public void close()
    {
        // Both QPs leave RTS before either goes away, so neither sees its peer vanish mid-connection.
        try
        {
            client.qp().modify(QpAttr.to(QpState.ERR));
            server.qp().modify(QpAttr.to(QpState.ERR));
        }
        finally
        {
            CloseHelper.closeAll(client, server);
        }
    }
}
