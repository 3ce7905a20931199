package io.ibex.rdma.provider.soft.cm;

import io.ibex.rdma.cm.CmEvent;
import io.ibex.rdma.cm.CmEventType;
import io.ibex.rdma.cm.ConnParam;
import io.ibex.rdma.cm.PortSpace;
import io.ibex.rdma.cm.UdParams;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.VerbsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.channels.SelectionKey;

import static io.ibex.rdma.provider.soft.cm.CmMessageDescriptor.*;

/**
 * The IB CM protocol of one connection id: REQ, REP, RTU, REJ, DREQ and DREP (the SIDR REQ and REP for UDP) on
 * the id's {@link CmConnection}, and the events they end in.
 * <p>
 * The {@code on*} methods are the agent's and take the id's lock; the others are called with that lock held,
 * each from the thread it names, and leave the sending to the agent thread. It owns the connection and the id's
 * {@link CmEndpoints}; per message it allocates only what the event carries.
 * <p>
 * One class, though over 500 lines: the active and the passive side act on the one connection's state, which a
 * split per side would have to share.
 */
final class CmHandshake
{
    private static final Logger LOG = LoggerFactory.getLogger(CmHandshake.class);

    private final SoftCmId id;
    private final SoftEventChannel channel;
    private final PortSpace portSpace;
    private final CmEndpoints endpoints;
    private CmConnection connection;

    /**
     * @param id        the id whose handshake this is, and whose lock guards it.
     * @param channel   the id's channel.
     * @param portSpace the id's port space.
     */
    CmHandshake(final SoftCmId id, final SoftEventChannel channel, final PortSpace portSpace)
    {
        this.id = id;
        this.channel = channel;
        this.portSpace = portSpace;
        this.endpoints = new CmEndpoints(id, portSpace);
    }

    /**
     * The id connects: the agent opens the TCP connection, then sends the REQ. User thread, id locked.
     *
     * @param param the connection parameters.
     */
    void connect(final ConnParam param)
    {
        endpoints.local(param);
        channel.agent().execute(this::startConnect);
    }

    /**
     * The id accepts the request it holds: the QP of a connected port space goes to RTS, then the agent sends
     * the REP. User thread, id locked.
     *
     * @param param the connection parameters.
     */
    void accept(final ConnParam param)
    {
        endpoints.local(param);
        if (portSpace.qpType() != QpType.UD)
        {
            endpoints.acceptToRts();
        }
        channel.agent().execute(this::sendReply);
    }

    /**
     * The id rejects the request it holds: the agent sends the rejection and closes the connection. User thread,
     * id locked.
     *
     * @param privateData the private data, checked against the limit.
     */
    void reject(final byte[] privateData)
    {
        channel.agent().execute(() -> sendRejectAndClose(privateData));
    }

    /**
     * The id disconnects: the agent sends a DREQ and waits for the DREP (DISCONNECTING), or answers the peer's
     * DREQ if not yet answered (DISCONNECTED). User thread, id locked.
     */
    void disconnect()
    {
        channel.agent().execute(this::sendDisconnect);
    }

    /**
     * The id closed: as rdma_destroy_id, the connection gets its last message (the SIDR REP of an accept this
     * close overtook, a REJ for an unanswered request, a DREQ or DREP) and closes. Agent thread, id locked.
     *
     * @param previous the id's state before the close.
     */
    void release(final CmState previous)
    {
        if (connection == null)
        {
            return;
        }
        if (previous == CmState.ESTABLISHED && portSpace.qpType() == QpType.UD)
        {
            writeReply(); // rdma_accept's SIDR REP is out before it returns
            return;
        }
        if (previous == CmState.REQUEST_RECEIVED)
        {
            sendRejectAndClose(new byte[0]);
            return;
        }
        final boolean connected = previous == CmState.ESTABLISHED || previous == CmState.ACCEPTED;
        if (connected || previous == CmState.DISCONNECTED)
        {
            try
            {
                connection.begin(connected ? TYPE_DREQ : TYPE_DREP, portSpace);
                connection.send();
                finishConnection();
                return;
            }
            catch (final IOException ex)
            {
                LOG.debug("{}: farewell on close not delivered: {}", id, ex.toString());
            }
        }
        closeConnection();
    }

    /**
     * Makes this the passive side of a request that arrived on a listener. Agent thread, before the id is known.
     *
     * @param request the connection the REQ came on, owned by this handshake from now on.
     * @param req     the REQ.
     * @return for the UDP port space: where the requester's QP is; otherwise null.
     */
    UdParams takeRequest(final CmConnection request, final CmMessage req)
    {
        endpoints.peer(req);
        connection = request;
        request.handshake(this);
        return endpoints.peerUdParams();
    }

    /**
     * The TCP connection of {@link #connect} is up: send the REQ. Agent thread.
     *
     * @param connected the connection.
     * @throws IOException if the socket failed.
     */
    void onTransportConnected(final CmConnection connected) throws IOException
    {
        synchronized (id)
        {
            if (connection != connected || id.state() != CmState.CONNECTING)
            {
                return;
            }
            endpoints.fillRequest(connected.begin(TYPE_REQ, portSpace));
            connected.send();
        }
    }

    /**
     * The TCP connection of {@link #connect} was refused: nothing listens there. Agent thread.
     *
     * @param refused the connection.
     * @param cause   the socket error.
     */
    void onConnectFailed(final CmConnection refused, final IOException cause)
    {
        synchronized (id)
        {
            if (connection != refused || id.state() != CmState.CONNECTING)
            {
                return;
            }
            connection = null;
            LOG.debug("{}: connecting failed: {}", id, cause.toString());
            if (portSpace.qpType() == QpType.UD)
            {
                id.fail(CmEventType.UNREACHABLE, SIDR_UNSUPPORTED, new byte[SIDR_REP_PRIVATE_DATA]);
            }
            else
            {
                rejected(REJ_INVALID_SERVICE_ID, new byte[ConnParam.MAX_REJECT_PRIVATE_DATA]);
            }
        }
    }

    /**
     * A message arrived on this handshake's connection. Agent thread.
     *
     * @param from    the connection.
     * @param message the message, valid during the call.
     * @throws CmProtocolException if the message is not allowed in the current state.
     */
    void onMessage(final CmConnection from, final CmMessage message) throws CmProtocolException
    {
        synchronized (id)
        {
            if (from != connection || id.state() == CmState.CLOSED)
            {
                return; // a closed id's connection is being released: late messages mean nothing
            }
            if (message.portSpace() != portSpace)
            {
                throw new CmProtocolException(typeName(message.type()) + " of port space " + message.portSpace() +
                    " on a " + portSpace + " connection");
            }
            try
            {
                handle(message);
            }
            catch (final CmProtocolException ex)
            {
                throw ex;
            }
            catch (final IOException ex)
            {
                dropConnection("I/O error: " + ex);
            }
        }
    }

    /**
     * The connection ended without the CM's consent: peer death, reset, or a malformed message. Agent thread.
     *
     * @param lost   the connection.
     * @param reason why, for the log.
     */
    void onTransportLost(final CmConnection lost, final String reason)
    {
        synchronized (id)
        {
            if (lost != connection)
            {
                return;
            }
            connection = null;
            final CmState state = id.state();
            LOG.debug("{} in state {}: {}", id, state, reason);
            switch (state)
            {
                case CONNECTING:
                    id.fail(CmEventType.UNREACHABLE, -VerbsException.ETIMEDOUT, null);
                    break;
                case REQUEST_RECEIVED:
                case ACCEPTED:
                    // the requester gave up on its request (or died): an accept or reject from now on gets EINVAL
                    rejected(CmEvent.REJ_TIMEOUT, null);
                    break;
                case ESTABLISHED:
                    if (portSpace.qpType() != QpType.UD)
                    {
                        id.moveQpToError(); // the peer died: nothing will answer this QP any more
                        id.disconnected(0);
                    }
                    break;
                case DISCONNECTING:
                    id.disconnected(0);
                    break;
                default:
                    break;
            }
        }
    }

    /**
     * The awaited reply did not come in time. Agent thread.
     *
     * @param late the connection.
     */
    void onTimeout(final CmConnection late)
    {
        synchronized (id)
        {
            if (late != connection)
            {
                return;
            }
            final CmState state = id.state();
            LOG.debug("{}: no reply within {} ms in state {}", id, channel.replyTimeoutNs() / 1_000_000, state);
            closeConnection();
            if (state == CmState.DISCONNECTING)
            {
                id.disconnected(-VerbsException.ETIMEDOUT);
            }
            else if (state == CmState.CONNECTING || state == CmState.ACCEPTED)
            {
                id.fail(CmEventType.UNREACHABLE, -VerbsException.ETIMEDOUT, null);
            }
        }
    }

    private void handle(final CmMessage message) throws IOException
    {
        final CmState state = id.state();
        final int type = message.type();
        if (state == CmState.CONNECTING && type == TYPE_REP)
        {
            onReply(message);
        }
        else if ((state == CmState.CONNECTING || state == CmState.ACCEPTED) && type == TYPE_REJ)
        {
            closeConnection();
            rejected(message.status(), message.deliveredPrivateData());
        }
        else if (state == CmState.ACCEPTED && type == TYPE_RTU)
        {
            connection.deadlineNs(Long.MAX_VALUE);
            id.established(null, endpoints.peerQpNum(), null);
        }
        else if (state == CmState.ESTABLISHED && type == TYPE_DREQ)
        {
            // as the IB CM: the QP is left alone and the DREP waits for this side's disconnect (or close)
            connection.deadlineNs(Long.MAX_VALUE);
            id.disconnected(0);
        }
        else if (state == CmState.DISCONNECTING && type == TYPE_DREQ)
        {
            connection.begin(TYPE_DREP, portSpace); // both sides disconnected at once: each answers the other
            connection.send();
            finishConnection();
            id.disconnected(0);
        }
        else if (state == CmState.DISCONNECTING && type == TYPE_DREP)
        {
            closeConnection();
            id.disconnected(0);
        }
        else
        {
            throw new CmProtocolException("unexpected " + typeName(type) + " for " + id + " in state " + state);
        }
    }

    private void onReply(final CmMessage rep) throws IOException
    {
        final byte[] privateData = rep.deliveredPrivateData();
        if (portSpace.qpType() == QpType.UD)
        {
            closeConnection();
            if (rep.status() != SIDR_SUCCESS)
            {
                id.fail(CmEventType.UNREACHABLE, rep.status(), privateData);
                return;
            }
            id.established(privateData, rep.qpNum(), CmEndpoints.udParams(rep.qpNum(), rep.qkey(), rep.gid()));
            return;
        }
        try
        {
            endpoints.replyToRts(rep);
        }
        catch (final RuntimeException ex)
        {
            LOG.warn("{}: cannot move the QP to RTS after the REP", id, ex);
            connection.begin(TYPE_REJ, portSpace).status(REJ_CONSUMER_DEFINED).privateData(new byte[0]);
            connection.send();
            finishConnection();
            id.fail(CmEventType.CONNECT_ERROR, -errnoOf(ex), null);
            return;
        }
        connection.deadlineNs(Long.MAX_VALUE);
        connection.begin(TYPE_RTU, portSpace);
        connection.send();
        id.established(privateData, rep.qpNum(), null);
    }

    private void startConnect()
    {
        synchronized (id)
        {
            if (id.state() != CmState.CONNECTING)
            {
                return;
            }
            final CmConnection started = new CmConnection(id.takeClientSocket(), this, null);
            connection = started;
            started.deadlineNs(System.nanoTime() + channel.replyTimeoutNs());
            try
            {
                final boolean connected = started.socket().connect(id.remoteAddress());
                channel.agent().registerConnection(started, connected ? SelectionKey.OP_READ :
                    SelectionKey.OP_CONNECT);
                if (connected)
                {
                    onTransportConnected(started);
                }
            }
            catch (final IOException ex)
            {
                channel.agent().closeConnection(started);
                onConnectFailed(started, ex);
            }
        }
    }

    private void sendReply()
    {
        synchronized (id)
        {
            final CmState state = id.state();
            if (connection == null)
            {
                if (state == CmState.ACCEPTED || state == CmState.ESTABLISHED)
                {
                    id.fail(CmEventType.UNREACHABLE, -VerbsException.ETIMEDOUT, null);
                }
                return;
            }
            if (state == CmState.ACCEPTED || state == CmState.ESTABLISHED)
            {
                writeReply();
            }
        }
    }

    private void writeReply()
    {
        try
        {
            endpoints.fillReply(connection.begin(TYPE_REP, portSpace));
            connection.send();
            if (portSpace.qpType() == QpType.UD)
            {
                finishConnection(); // SIDR is over: the passive side gets no ESTABLISHED, as with rdma_cm
            }
            else
            {
                connection.deadlineNs(System.nanoTime() + channel.replyTimeoutNs());
            }
        }
        catch (final IOException ex)
        {
            dropConnection("I/O error: " + ex);
        }
    }

    private void sendRejectAndClose(final byte[] privateData)
    {
        synchronized (id)
        {
            if (connection != null)
            {
                connection.reject(portSpace, portSpace.qpType() == QpType.UD ? SIDR_REJECT : REJ_CONSUMER_DEFINED,
                    privateData);
                connection = null;
            }
        }
    }

    private void sendDisconnect()
    {
        synchronized (id)
        {
            final CmState state = id.state();
            if (connection == null || (state != CmState.DISCONNECTING && state != CmState.DISCONNECTED))
            {
                return;
            }
            try
            {
                connection.begin(state == CmState.DISCONNECTING ? TYPE_DREQ : TYPE_DREP, portSpace);
                connection.send();
                if (state == CmState.DISCONNECTING)
                {
                    connection.deadlineNs(System.nanoTime() + channel.replyTimeoutNs());
                }
                else
                {
                    finishConnection();
                }
            }
            catch (final IOException ex)
            {
                dropConnection("I/O error: " + ex);
            }
        }
    }

    /** As rdma_cm on a REJ: the QP goes to ERR before the user hears of it. */
    private void rejected(final int reason, final byte[] privateData)
    {
        id.moveQpToError();
        id.fail(CmEventType.REJECTED, reason, privateData);
    }

    private void closeConnection()
    {
        if (connection != null)
        {
            channel.agent().closeConnection(connection);
            connection = null;
        }
    }

    /** Closes the connection once the last message sent on it is out; the peer's EOF then means nothing. */
    private void finishConnection() throws IOException
    {
        final CmConnection finished = connection;
        connection = null;
        finished.closeWhenFlushed();
    }

    /** Drops the connection as if the peer went away, so the state machine reports what it would then. */
    private void dropConnection(final String reason)
    {
        final CmConnection lost = connection;
        channel.agent().closeConnection(lost);
        onTransportLost(lost, reason);
    }

    private static int errnoOf(final RuntimeException ex)
    {
        return ex instanceof VerbsException ? ((VerbsException)ex).errno() : VerbsException.EINVAL;
    }
}
