package io.ibex.transport.channel;

import io.ibex.rdma.cm.CmEvent;
import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.cm.ConnParam;
import io.ibex.rdma.verbs.QpType;
import io.ibex.transport.config.ChannelConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;

/**
 * The source side of a channel's connector: resolves out.address and its route, connects (on UC, exchanging the UC
 * endpoints in rdma_cm's private data; with a secret_file, proving the secret and checking the target's proof),
 * and after a failed connect or a lost connection falls back to listening (out.use_fallback, before it ever
 * connected), tries again with {@link Backoff}, or fails the channel, as the config says.
 * <p>
 * Called by the connector's thread only, except {@link #lastConnectFailure()}; owns the rdma_cm id that is
 * connecting and the connection requested on it until it is established.
 */
final class SourceConnector
{
    /** Logs as the connector: one category for everything about a channel's connections. */
    private static final Logger LOG = LoggerFactory.getLogger(ChannelConnector.class);

    private final ChannelConfig config;
    private final ChannelConnector connector;
    private final TargetAcceptor target;
    private final PathLinks links;
    private final ConnectionFactory connections;
    private final ConnectAuth auth;
    private final Backoff backoff;
    private volatile String lastConnectFailure;
    private CmId connecting;
    private Connection requested;
    /** The private data of the connect in flight, whose proof the target's reply must answer. */
    private byte[] requestData;

    /**
     * @param connector the connector this side belongs to.
     * @param target    the target side, which a source falls back to (and a UD source listens on as well).
     */
    SourceConnector(final ChannelConfig config, final ChannelConnector connector, final TargetAcceptor target,
        final PathLinks links, final ConnectionFactory connections, final ConnectAuth auth)
    {
        this.config = config;
        this.connector = connector;
        this.target = target;
        this.links = links;
        this.connections = connections;
        this.auth = auth;
        this.backoff = new Backoff(config.out().reconnectMinDelay(), config.out().reconnectMaxDelay());
    }

    /** @return why the last connect failed, or null (any thread). */
    String lastConnectFailure()
    {
        return lastConnectFailure;
    }

    /**
     * Starts connecting with the id the channel bound first.
     *
     * @param first the bound id.
     */
    void start(final CmId first)
    {
        connect(first);
    }

    /** Connects again if the back-off delay is over. */
    void retryIfDue()
    {
        if (backoff.takeDue(System.nanoTime()))
        {
            try
            {
                connect(connector.bound(ChannelConnector.anyPort(config)));
            }
            catch (final RuntimeException ex)
            {
                connectFailed(ex.getMessage());
            }
        }
    }

    /** @return whether {@code id} is the id connecting now. */
    boolean isConnecting(final CmId id)
    {
        return id == connecting;
    }

    /** @return the connection requested and not yet established, or null. */
    Connection requested()
    {
        return requested;
    }

    /** @param connection a connection torn down: no longer the requested one. */
    void forget(final Connection connection)
    {
        requested = requested == connection ? null : requested;
    }

    /** @param id the id whose address rdma_cm resolved: its route is resolved next. */
    void onAddressResolved(final CmId id)
    {
        if (id == connecting)
        {
            id.resolveRoute(config.out().resolutionTimeoutMillis());
        }
    }

    /** @param id the id whose route rdma_cm resolved: its queue pair is made, its receives posted, then it connects. */
    void onRouteResolved(final CmId id)
    {
        if (id != connecting)
        {
            return;
        }
        requested = connections.newConnectionOrFail(id, true);
        if (requested == null)
        {
            closeConnecting();
            return;
        }
        if (connections.qpType() != QpType.UD)
        {
            links.attachReceives(requested);
        }
        requestData = auth.withRoom(requested.ucLocal() != null ? requested.ucLocal().encode() : null,
            ConnectProofDescriptor.REQUEST_LENGTH);
        if (auth.proof() != null)
        {
            auth.proof().writeRequest(config.out().address(), requestData, auth.requestOffset());
        }
        id.connect(ConnParam.of(requestData));
    }

    /**
     * @param event an ESTABLISHED event.
     * @return whether it was the requested connection's: it starts sending once the target proved the secret (and on
     *     UC, once the UC queue pair is connected).
     */
    boolean onEstablished(final CmEvent event)
    {
        if (requested == null || event.id() != requested.id())
        {
            return false;
        }
        final Connection connection = requested;
        requested = null;
        connecting = null;
        final String unprovenTarget = auth.proof() != null ? auth.proof().checkReply(requestData,
            auth.requestOffset(), event.privateData(), auth.replyOffset()) : null;
        if (unprovenTarget != null)
        {
            LOG.warn("{}: dropping {}: {}", config.name(), connection, unprovenTarget);
            PathLinks.disconnectQuietly(connection);
            connector.tearDown(connection);
            connectFailed(unprovenTarget);
            return true;
        }
        if (connections.qpType() == QpType.UD)
        {
            connection.datagramPeer(connections.pd().createAh(event.ud().ahAttr()), event.ud().qpNum(),
                event.ud().qkey());
        }
        else
        {
            links.receiving(connection);
        }
        if (connections.qpType() == QpType.UC && !connectUc(connection, event.privateData()))
        {
            return true;
        }
        connections.tuneRnr(connection);
        links.startSending(connection);
        backoff.reset();
        return true;
    }

    /**
     * @param event a failed step of the connect in flight (an address, route or connect error, a rejection), or
     *              of some other id, which is ignored.
     */
    void onConnectFailed(final CmEvent event)
    {
        if (event.id() != connecting)
        {
            return;
        }
        if (requested != null)
        {
            connector.tearDown(requested);
        }
        closeConnecting();
        connectFailed(ConnectFailure.describe(event));
    }

    /** Closes the id connecting now, if any. */
    void closeConnecting()
    {
        if (connecting != null)
        {
            connecting.close();
            connecting = null;
        }
    }

    /** After a failed connect: fall back to listening, try again later, or give up, as the config says. */
    void connectFailed(final String reason)
    {
        final String what = "connecting to " + config.out().address() + " failed: " + reason;
        lastConnectFailure = what;
        if (!links.everConnected() && config.out().useFallback() && !target.hasListened())
        {
            LOG.warn("{}: {}: falling back to listening on {} as a target (out.use_fallback)", config.name(), what,
                config.in().address());
            target.listen(connector.bound(config.in().address()));
        }
        else if (config.out().reconnect())
        {
            retryLater(what);
        }
        else
        {
            connector.listener().failed(what, null);
        }
    }

    /**
     * @param lost a connection torn down: if it was this source's, it connects again later (out.reconnect).
     * @param why  what happened to it, for the log.
     */
    void lost(final Connection lost, final String why)
    {
        if (lost.outgoing() && config.out().reconnect())
        {
            retryLater(why);
        }
    }

    private void connect(final CmId id)
    {
        connecting = id;
        LOG.info("{}: connecting to {} ({})", config.name(), config.out().address(), config.mode());
        id.resolveAddr(null, config.out().address(), config.out().resolutionTimeoutMillis());
    }

    private void retryLater(final String why)
    {
        final long delayNanos = backoff.schedule(System.nanoTime());
        LOG.info("{}: {}; trying again in {} ms", config.name(), why, TimeUnit.NANOSECONDS.toMillis(delayNanos));
    }

    /** Source side of the UC handshake; a failure drops the connection and tries again later. */
    private boolean connectUc(final Connection connection, final byte[] privateData)
    {
        try
        {
            connections.connectUc(connection, privateData);
            return true;
        }
        catch (final RuntimeException ex)
        {
            LOG.warn("{}: dropping {}: {}", config.name(), connection, ex.getMessage());
            PathLinks.disconnectQuietly(connection);
            connector.tearDown(connection);
            retryLater("the UC handshake failed");
            return false;
        }
    }
}
