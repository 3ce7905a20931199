package io.ibex.transport.channel;

import io.ibex.rdma.cm.CmEvent;
import io.ibex.rdma.cm.CmEventType;
import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.cm.ConnParam;
import io.ibex.rdma.cm.EventChannel;
import io.ibex.rdma.verbs.QpType;
import io.ibex.transport.config.ChannelConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;

/**
 * The target side of a channel's connector: listens on in.address, and for each connection request checks the
 * source's proof of the secret (with a secret_file), refuses it while another source holds the target, else makes
 * its queue pair, posts receives and accepts it; then admits, of the connections being set up, the first one proven
 * complete ({@link Admission}). A UD target takes each new source instead of the one before.
 * <p>
 * Called by the connector's thread only, except {@link #isListening()}; owns the listening id, the connection
 * requests held back and the connections being admitted.
 */
final class TargetAcceptor
{
    /** How the rejection of a source that did not prove the secret starts, before the reason. */
    static final String NOT_AUTHENTICATED = "not authenticated: ";
    /** Logs as the connector: one category for everything about a channel's connections. */
    private static final Logger LOG = LoggerFactory.getLogger(ChannelConnector.class);
    private static final int LISTEN_BACKLOG = 10;
    private static final long EVENT_WAIT_MILLIS = 20;
    /** Connection requests held back while other events are taken first ({@link #nextEvent}). */
    private static final int MAX_HELD_REQUESTS = 64;
    private static final byte[] BUSY = (ConnectFailure.IBEX_TEXT + "this target is connected to another source")
        .getBytes(StandardCharsets.US_ASCII);

    private final ChannelConfig config;
    private final ChannelConnector connector;
    private final EventChannel events;
    private final PathLinks links;
    private final ConnectionFactory connections;
    private final ConnectAuth auth;
    private final Admission admission;
    private final ArrayDeque<CmEvent> heldRequests = new ArrayDeque<>();
    private final ThrottledWarning refused;
    private final ThrottledWarning unproven;
    private final ThrottledWarning pushedOut;
    private volatile CmId listening;

    /**
     * @param connector the connector this side belongs to.
     * @param events    the channel's event channel, whose connection requests this side holds back.
     */
    TargetAcceptor(final ChannelConfig config, final ChannelConnector connector, final EventChannel events,
        final PathLinks links, final ConnectionFactory connections, final ConnectAuth auth)
    {
        this.config = config;
        this.connector = connector;
        this.events = events;
        this.links = links;
        this.connections = connections;
        this.auth = auth;
        this.admission = new Admission(config.in().admissionTimeout().toNanos());
        this.refused = new ThrottledWarning(LOG, config.name(), "rejecting a connection request ({}): this " +
            "target is connected to another source");
        this.unproven = new ThrottledWarning(LOG, config.name(), "rejecting a connection request ({}): it did " +
            "not prove it knows the secret of secret_file");
        this.pushedOut = new ThrottledWarning(LOG, config.name(), "more than " + Admission.SLOTS + " connections " +
            "were being set up at once, so the oldest made room for a newer request (the latest: {}); a flood of " +
            "half-open connections looks like this");
    }

    /** @param id a bound id, to listen on. */
    void listen(final CmId id)
    {
        id.listen(LISTEN_BACKLOG);
        listening = id;
        LOG.info("{}: listening on {} ({})", config.name(), id.localAddress(), config.mode());
    }

    /** @return whether a listening id is up (any thread). */
    boolean isListening()
    {
        final CmId id = listening;
        return id != null && !id.isClosed() && connector.isRunning();
    }

    /** @return whether this side has listened (it still does until the channel closes). */
    boolean hasListened()
    {
        return listening != null;
    }

    /** @return whether {@code id} is the listening id. */
    boolean isListeningId(final CmId id)
    {
        return id == listening;
    }

    /** @return the connections being set up and the probe of the one holding the target. */
    Admission admission()
    {
        return admission;
    }

    /**
     * @return the next event, or null after waiting a while for one. Every other event comes before a connection
     *     request, so a connection being set up (its ESTABLISHED, its peer's REJECT) is not held up behind a flood
     *     of requests; at most {@link #MAX_HELD_REQUESTS} wait, and the oldest is refused to make room.
     */
    CmEvent nextEvent()
    {
        CmEvent event = events.getEvent(heldRequests.isEmpty() ? EVENT_WAIT_MILLIS : 0);
        while (event != null && event.type() == CmEventType.CONNECT_REQUEST)
        {
            if (heldRequests.size() >= MAX_HELD_REQUESTS)
            {
                final CmEvent oldest = heldRequests.removeFirst();
                pushedOut.warn(oldest.id().remoteAddress());
                reject(oldest.id(), BUSY);
            }
            heldRequests.addLast(event);
            event = events.getEvent(0);
        }
        return event != null ? event : heldRequests.pollFirst();
    }

    /** @param event a CONNECT_REQUEST: rejected, or accepted as a connection being set up. */
    void onConnectRequest(final CmEvent event)
    {
        final CmId child = event.id();
        final ConnectProof proof = auth.proof();
        final String unprovenSource = proof != null ?
            proof.checkRequest(child.localAddress(), event.privateData(), auth.requestOffset()) : null;
        if (unprovenSource != null)
        {
            unproven.warn("from " + child.remoteAddress() + ": " + unprovenSource);
            reject(child, (ConnectFailure.IBEX_TEXT + NOT_AUTHENTICATED + unprovenSource).getBytes(
                StandardCharsets.US_ASCII));
            return;
        }
        final QpType qpType = connections.qpType();
        final Connection receiving = links.receiving();
        if (qpType == QpType.UD && receiving != null)
        {
            LOG.info("{}: a new UD source replaces {}", config.name(), receiving);
            connector.tearDown(receiving);
        }
        else if (receiving != null)
        {
            refused.warn("from " + child.remoteAddress() + " while connected to " + receiving);
            reject(child, BUSY);
            admission.probeHolder(receiving);
            return;
        }
        else if (admission.isFull())
        {
            pushOut(admission.oldest());
        }
        final Connection connection;
        final byte[] linkToken = qpType == QpType.UC ? UcEndpoint.newLinkToken() : null;
        try
        {
            final UcEndpoint peer = qpType == QpType.UC ? UcEndpoint.decode(event.privateData()) : null;
            connection = connections.newConnectionOrFail(child, false);
            if (connection != null && peer != null)
            {
                connections.connectUcOrClose(peer, connection, linkToken);
            }
        }
        catch (final RuntimeException ex)
        {
            LOG.warn("{}: cannot accept {}: {}", config.name(), child.remoteAddress(), ex.getMessage());
            reject(child, null);
            return;
        }
        if (connection == null)
        {
            reject(child, null);
            return;
        }
        if (links.receivesOf() == null)
        {
            links.attachReceives(connection);
        }
        if (qpType == QpType.UD)
        {
            links.receiving(connection);
        }
        else
        {
            admission.add(connection, System.nanoTime());
        }
        final byte[] reply = auth.withRoom(linkToken != null ? connection.ucLocal().encodeReply(linkToken) :
            null, ConnectProofDescriptor.REPLY_LENGTH);
        if (proof != null)
        {
            proof.writeReply(event.privateData(), auth.requestOffset(), reply, auth.replyOffset());
        }
        connection.id().accept(ConnParam.of(reply));
        connections.tuneRnr(connection);
        if (qpType == QpType.UD)
        {
            LOG.info("{}: receiving datagrams from {}", config.name(), child.remoteAddress());
            connector.listener().connectionChanged(true);
        }
    }

    /** @param event an ESTABLISHED event: if of a connection being admitted, it may now prove itself. */
    void onEstablished(final CmEvent event)
    {
        final Connection connection = admission.find(event.id());
        if (connection != null)
        {
            final String failure = admission.established(connection);
            if (failure != null)
            {
                connector.drop(connection, failure);
            }
        }
    }

    /**
     * @param event a failed step of some id.
     * @return whether it was a connection being admitted, now torn down.
     */
    boolean onConnectFailed(final CmEvent event)
    {
        final Connection accepted = admission.find(event.id());
        if (accepted == null)
        {
            return false;
        }
        if (event.type() == CmEventType.REJECTED && event.status() == CmEvent.REJ_TIMEOUT)
        {
            LOG.info("{}: the source of {} gave up on its request", config.name(), accepted);
        }
        else
        {
            LOG.warn("{}: accepting {} failed: {}", config.name(), accepted, event);
        }
        connector.tearDown(accepted);
        return true;
    }

    /**
     * The connections being set up: drops those that failed or ran out of time, and lets the first proven one hold
     * the target, closing the others; drops the holder once its probe shows that its source is gone.
     */
    void admit()
    {
        if (admission.isEmpty() && !admission.isProbingHolder())
        {
            return;
        }
        links.sendPath().reapProbes(admission);
        final Connection gone = admission.goneHolder();
        if (gone != null)
        {
            connector.drop(gone, admission.whyGone());
        }
        for (Connection failed = admission.failed(System.nanoTime()); failed != null;
            failed = admission.failed(System.nanoTime()))
        {
            connector.drop(failed, admission.whyFailed(failed));
        }
        final Connection receivesOf = links.receivesOf();
        final Connection proven = receivesOf != null && links.receivePath().peerSent() &&
            admission.contains(receivesOf) ? receivesOf : admission.proven();
        if (proven == null)
        {
            return;
        }
        admission.remove(proven);
        for (Connection other = admission.oldest(); other != null; other = admission.oldest())
        {
            LOG.info("{}: closing {}: another connection was set up first", config.name(), other);
            PathLinks.disconnectQuietly(other);
            connector.tearDown(other);
        }
        if (receivesOf != proven)
        {
            links.attachReceives(proven);
        }
        links.receiving(proven);
        links.startSending(proven);
    }

    /** Refuses the requests held back and closes the listening id: the channel is closing. */
    void close()
    {
        for (CmEvent held = heldRequests.pollFirst(); held != null; held = heldRequests.pollFirst())
        {
            reject(held.id(), null);
        }
        if (listening != null)
        {
            listening.close();
            listening = null;
        }
    }

    /** Makes room for a new request: drops the oldest connection being set up. */
    private void pushOut(final Connection oldest)
    {
        pushedOut.warn(oldest);
        PathLinks.disconnectQuietly(oldest);
        connector.tearDown(oldest);
    }

    private static void reject(final CmId child, final byte[] reason)
    {
        child.reject(reason);
        child.close();
    }
}
