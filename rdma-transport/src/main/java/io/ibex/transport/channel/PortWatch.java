package io.ibex.transport.channel;

import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.PortState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Watches the port of the channel's device for its RC connections: when the port goes down they are dropped at once
 * (RC would lose them anyway, and rxe can leave a queue pair neither completing nor failing its sends across a link
 * that went down and came back). A connection dropped while the port is down is parked: its rdma_cm id waits for the
 * port to be back before it disconnects, since a DREQ sent on a link that is down is lost (and the peer would hold
 * its end) and rxe's failure to send it breaks the device's CM. Used by the connector's thread only; owns the parked
 * connections.
 */
final class PortWatch
{
    /** The device port a channel's connections use, as {@link SampleChannel} assumes. */
    static final int PORT = 1;
    /** Logs as the connector: one category for everything about a channel's connections. */
    private static final Logger LOG = LoggerFactory.getLogger(ChannelConnector.class);

    private final String name;
    private final Context context;
    private final List<Connection> parked = new ArrayList<>();

    /**
     * @param name    the channel's name, for the log.
     * @param context the device whose port is watched.
     */
    PortWatch(final String name, final Context context)
    {
        this.name = name;
        this.context = context;
    }

    /** @return whether the port is up; false sends a dropped RC connection to {@link #park}. */
    boolean isActive()
    {
        return state() == PortState.ACTIVE;
    }

    /** @param connection an RC connection torn down with its rdma_cm id kept, to disconnect once the port is back. */
    void park(final Connection connection)
    {
        parked.add(connection);
    }

    /** @return whether connections wait for the port to be back. */
    boolean hasParked()
    {
        return !parked.isEmpty();
    }

    /**
     * Drops every connection the connector has open while the port is down; disconnects and closes the parked ones
     * once it is back.
     *
     * @param connector the connector whose connections are watched.
     */
    void watch(final ChannelConnector connector)
    {
        final PortState state = state();
        if (state != PortState.ACTIVE)
        {
            for (Connection open = connector.anyConnection(); open != null; open = connector.anyConnection())
            {
                connector.drop(open, "port " + PORT + " of " + context.device().name() + " is " + state);
            }
        }
        else if (!parked.isEmpty())
        {
            LOG.info("{}: port {} is back: disconnecting {} connection(s) dropped while it was down", name, PORT,
                parked.size());
            for (final Connection connection : parked)
            {
                PathLinks.disconnectQuietly(connection);
                connection.close();
            }
            parked.clear();
        }
    }

    /**
     * The peer of a connection dropped while the port was down disconnected first: nothing is left to say.
     *
     * @return whether {@code id} was a parked connection's, now closed.
     */
    boolean closeParked(final CmId id)
    {
        for (final Connection connection : parked)
        {
            if (connection.id() == id)
            {
                connection.close();
                parked.remove(connection);
                return true;
            }
        }
        return false;
    }

    /** Closes every parked connection without a word to its peer: the channel is closing. */
    void closeAll()
    {
        for (final Connection connection : parked)
        {
            connection.close();
        }
        parked.clear();
    }

    private PortState state()
    {
        return context.queryPort(PORT).state();
    }
}
