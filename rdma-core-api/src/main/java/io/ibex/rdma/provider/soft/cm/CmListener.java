package io.ibex.rdma.provider.soft.cm;

import io.ibex.rdma.cm.CmEvent;
import io.ibex.rdma.cm.CmEventType;
import io.ibex.rdma.cm.PortSpace;
import io.ibex.rdma.cm.UdParams;
import io.ibex.rdma.verbs.QpType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;

import static io.ibex.rdma.provider.soft.cm.CmMessageDescriptor.REJ_INVALID_SERVICE_ID;
import static io.ibex.rdma.provider.soft.cm.CmMessageDescriptor.SIDR_UNSUPPORTED;

/**
 * The listening socket of a bound id: a REQ on a socket it accepted becomes a new id and a CONNECT_REQUEST while
 * the id listens on the REQ's port space, and is rejected as having no listener otherwise.
 * <p>
 * One per {@code bindAddr}, attached to the socket's selection key; the agent thread calls it, and it takes the
 * id's lock only once the id is seen listening. A request allocates its new id and event.
 */
final class CmListener
{
    private static final Logger LOG = LoggerFactory.getLogger(CmListener.class);

    private final SoftCmId id;
    private final SoftEventChannel channel;
    private final PortSpace portSpace;

    /**
     * @param id        the bound id.
     * @param channel   its channel, which gets the new ids and their events.
     * @param portSpace its port space.
     */
    CmListener(final SoftCmId id, final SoftEventChannel channel, final PortSpace portSpace)
    {
        this.id = id;
        this.channel = channel;
        this.portSpace = portSpace;
    }

    /**
     * A REQ arrived on a socket this listener accepted. Agent thread.
     *
     * @param request the socket.
     * @param message the REQ.
     */
    void onRequest(final CmConnection request, final CmMessage message)
    {
        // checked before locking: a user thread holding a bound id's lock may be waiting for this thread
        if (id.state() != CmState.LISTENING || message.portSpace() != portSpace)
        {
            sendNoListener(request, message.portSpace());
            return;
        }
        synchronized (id)
        {
            if (id.state() == CmState.LISTENING)
            {
                acceptRequest(request, message);
            }
            else
            {
                sendNoListener(request, message.portSpace());
            }
        }
    }

    @Override
    public String toString()
    {
        return id.toString();
    }

    private void acceptRequest(final CmConnection request, final CmMessage message)
    {
        final SoftCmId passive = new SoftCmId(channel, portSpace);
        final UdParams requester;
        try
        {
            requester = passive.takeRequest(request, message);
        }
        catch (final IOException | RuntimeException ex)
        {
            LOG.warn("{}: cannot take a connection request", request, ex);
            channel.agent().closeConnection(request);
            return;
        }
        channel.add(passive);
        channel.deliver(new CmEvent(CmEventType.CONNECT_REQUEST, passive, id, 0, message.deliveredPrivateData(),
            message.qpNum(), requester));
    }

    private void sendNoListener(final CmConnection request, final PortSpace requested)
    {
        LOG.debug("{}: no {} listener for a REQ of port space {}", request, portSpace, requested);
        final boolean sidr = requested.qpType() == QpType.UD;
        request.reject(requested, sidr ? SIDR_UNSUPPORTED : REJ_INVALID_SERVICE_ID, new byte[0]);
    }
}
