package io.ibex.transport.channel;

import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.VerbsException;
import io.ibex.transport.stats.ChannelStats;
import io.ibex.transport.stats.Counter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;

/**
 * The connections attached to a channel's data paths: the one the send path sends on, the one the receive path
 * posts to (the one receiving, or one being set up) and the one receiving (holding a target, or a source's own on
 * RC and UC). Attaches them, and detaches and destroys one, giving back what its queues held. Used by the
 * connector's thread only; the data paths see connections through attach and detach.
 */
final class PathLinks
{
    /** Logs as the connector: one category for everything about a channel's connections. */
    private static final Logger LOG = LoggerFactory.getLogger(ChannelConnector.class);
    /** How long a torn-down connection's sends may take to complete in ERR (rxe flushes asynchronously). */
    private static final long FLUSH_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private final String name;
    private final SendPath sendPath;
    private final ReceivePath receivePath;
    private final ChannelStats stats;
    private final ChannelConnector.Listener listener;
    private Connection sending;
    private Connection receiving;
    private Connection receivesOf;
    private boolean everConnected;

    /**
     * @param name     the channel's name, for the log.
     * @param listener told when a connection starts sending.
     */
    PathLinks(final String name, final SendPath sendPath, final ReceivePath receivePath, final ChannelStats stats,
        final ChannelConnector.Listener listener)
    {
        this.name = name;
        this.sendPath = sendPath;
        this.receivePath = receivePath;
        this.stats = stats;
        this.listener = listener;
    }

    SendPath sendPath()
    {
        return sendPath;
    }

    ReceivePath receivePath()
    {
        return receivePath;
    }

    /** @return the connection the send path sends on, or null. */
    Connection sending()
    {
        return sending;
    }

    /** @return the connection receiving, or null. */
    Connection receiving()
    {
        return receiving;
    }

    /** @param connection the connection that holds the target, or the source's established one. */
    void receiving(final Connection connection)
    {
        receiving = connection;
    }

    /** @return the connection the receive path posts to, or null. */
    Connection receivesOf()
    {
        return receivesOf;
    }

    /** @return whether any connection ever started sending: a source falls back to listening only before. */
    boolean everConnected()
    {
        return everConnected;
    }

    /** @return whether a connection sends or receives. */
    boolean connected()
    {
        return sending != null || receiving != null;
    }

    /** @param connection a connection whose receives the receive path posts from now on. */
    void attachReceives(final Connection connection)
    {
        receivePath.attach(connection);
        receivesOf = connection;
    }

    /** @param connection an established connection the send path sends on from now on; counts a reconnect. */
    void startSending(final Connection connection)
    {
        sending = connection;
        sendPath.attach(connection, connection.qp().capabilities().maxInlineData());
        if (everConnected)
        {
            stats.add(Counter.RECONNECTS, 1);
        }
        everConnected = true;
        LOG.info("{}: connected: {}", name, connection);
        listener.connectionChanged(true);
    }

    /**
     * Detaches a connection from the paths, destroys it (its sends flushed first), then gives back what its queues
     * held.
     *
     * @param keepId whether the rdma_cm id is left open for the caller.
     */
    void tearDown(final Connection connection, final boolean keepId)
    {
        final boolean wasSending = connection == sending;
        final boolean wasReceiving = connection == receivesOf;
        if (wasSending)
        {
            sendPath.detach();
        }
        if (wasReceiving)
        {
            receivePath.detach();
        }
        if (wasSending)
        {
            toError(connection);
            sendPath.awaitFlushed(connection, FLUSH_WAIT_NANOS);
        }
        AsyncEvents.disown(connection.qp());
        if (keepId)
        {
            connection.closeQueuePair();
        }
        else
        {
            connection.close();
        }
        if (wasSending)
        {
            sendPath.drainAfterClose();
            sending = null;
        }
        if (wasReceiving)
        {
            receivePath.drainAfterClose();
            receivesOf = null;
        }
        receiving = receiving == connection ? null : receiving;
    }

    /** Disconnects a connection, not UD, if rdma_cm still can; a failure is only logged. */
    static void disconnectQuietly(final Connection connection)
    {
        try
        {
            if (connection.qp().type() != QpType.UD)
            {
                connection.id().disconnect();
            }
        }
        catch (final VerbsException ex)
        {
            LOG.debug("disconnecting {} before closing it: {}", connection, ex.getMessage());
        }
    }

    /** Moves the data QP to ERR, so every send in flight completes (flushed if it did not go out). */
    private static void toError(final Connection connection)
    {
        try
        {
            connection.qp().modify(QpAttr.to(QpState.ERR));
        }
        catch (final VerbsException ex)
        {
            LOG.debug("moving {} to ERR before closing it: {}", connection, ex.getMessage());
        }
    }
}
