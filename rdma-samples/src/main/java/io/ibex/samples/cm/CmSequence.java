package io.ibex.samples.cm;

import io.ibex.rdma.cm.CmEvent;
import io.ibex.rdma.cm.CmEventType;
import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.cm.ConnParam;
import io.ibex.rdma.cm.EventChannel;
import io.ibex.rdma.verbs.QpType;

import java.net.InetSocketAddress;
import java.util.function.Consumer;

/**
 * Drives the rdma_cm event sequence on one event channel: for a client address resolution, route resolution
 * and connect; for a server bind, listen, the connection request and accept. Each event is awaited at most
 * the given time, and a failure names the event awaited and the one that came instead, with its status
 * (REJECTED, UNREACHABLE, ADDR_ERROR, ROUTE_ERROR...).
 * <p>
 * A single-connection server turns away further connection requests that arrive while it awaits something
 * else, as the C examples leave them unanswered.
 */
public final class CmSequence
{
    /** How long address and route resolution may take, as the librdmacm examples ask for. */
    public static final int RESOLVE_TIMEOUT_MILLIS = 2000;


    private final EventChannel channel;
    private final long timeoutMillis;
    private final Consumer<CmEvent> eventLog;
    private boolean peerDisconnected;

    /**
     * @param channel       the channel the ids' events arrive on.
     * @param timeoutMillis how long to wait for each event.
     * @param eventLog      sees every event as it arrives (a debug print), or does nothing.
     */
    public CmSequence(final EventChannel channel, final long timeoutMillis, final Consumer<CmEvent> eventLog)
    {
        this.channel = channel;
        this.timeoutMillis = timeoutMillis;
        this.eventLog = eventLog;
    }

    /**
     * Creates an event channel on the provider the options name, as {@code rdma_create_event_channel}.
     *
     * @param options   the provider and the time limit of each wait.
     * @param resources where the channel goes, to be closed after every id and device resource.
     * @param eventLog  sees every event as it arrives (a debug print), or does nothing.
     * @return the sequence on the new channel.
     */
    public static CmSequence open(final CmOptions options, final ResourceStack resources,
        final Consumer<CmEvent> eventLog)
    {
        final long timeoutMillis = options.timeoutMillis();
        return new CmSequence(resources.push(options.provider().createEventChannel()), timeoutMillis, eventLog);
    }

    /** @return the event channel. */
    public EventChannel channel()
    {
        return channel;
    }

    /** @return how long each wait may take, in milliseconds. */
    public long timeoutMillis()
    {
        return timeoutMillis;
    }

    /**
     * Resolves the address, then the route, as {@code rdma_resolve_addr} and {@code rdma_resolve_route}.
     *
     * @param id          the client's id.
     * @param source      the local address to use, or null for any.
     * @param destination the server.
     */
    public void resolve(final CmId id, final InetSocketAddress source, final InetSocketAddress destination)
    {
        id.resolveAddr(source, destination, RESOLVE_TIMEOUT_MILLIS);
        await(id, CmEventType.ADDR_RESOLVED, "the address resolution of " + destination);
        id.resolveRoute(RESOLVE_TIMEOUT_MILLIS);
        await(id, CmEventType.ROUTE_RESOLVED, "the route resolution to " + destination);
    }

    /**
     * Connects, as {@code rdma_connect}, and awaits ESTABLISHED.
     *
     * @param id    the client's id, its route resolved and its QP created.
     * @param param the connection parameters.
     * @return the ESTABLISHED event (for UD it carries the server's QPN, Q_Key and address).
     */
    public CmEvent connect(final CmId id, final ConnParam param)
    {
        id.connect(param);
        return await(id, CmEventType.ESTABLISHED, "the connection to " + id.remoteAddress());
    }

    /**
     * Binds and listens, as {@code rdma_bind_addr} and {@code rdma_listen}.
     *
     * @param id      the listening id.
     * @param address the local address (a wildcard address listens on every device).
     * @param backlog connection requests to queue.
     */
    public void listen(final CmId id, final InetSocketAddress address, final int backlog)
    {
        id.bindAddr(address);
        id.listen(backlog);
    }

    /**
     * @param listener the listening id.
     * @return the id of the connection a client asks for.
     */
    public CmId awaitConnectRequest(final CmId listener)
    {
        return await(listener, CmEventType.CONNECT_REQUEST, "a connection request on " + listener.localAddress())
            .id();
    }

    /**
     * Accepts, as {@code rdma_accept}; a connected (RC) id then awaits ESTABLISHED, while a UD id is done, as
     * SIDR gives the passive side no further event.
     *
     * @param id    the id from the connection request, its QP created.
     * @param param the connection parameters.
     */
    public void accept(final CmId id, final ConnParam param)
    {
        id.accept(param);
        if (id.portSpace().qpType() != QpType.UD)
        {
            await(id, CmEventType.ESTABLISHED, "the connection from " + id.remoteAddress());
        }
    }

    /**
     * Awaits one event for one id.
     *
     * @param id       the id.
     * @param expected the event type.
     * @param awaited  what the event means, for the error message.
     * @return the event.
     * @throws IllegalStateException naming both events if another came, or if none came in time.
     * @throws PeerDisconnectedException if the peer disconnected instead.
     */
    public CmEvent await(final CmId id, final CmEventType expected, final String awaited)
    {
        while (true)
        {
            final CmEvent event = next(expected + " (" + awaited + ")");
            if (event.type() == expected && (event.id() == id || event.listenId() == id))
            {
                return event;
            }
            stray(event, expected + " (" + awaited + ")");
        }
    }

    /**
     * Awaits the next event, whatever it is.
     *
     * @param awaited what the caller waits for, for the error message.
     * @return the event.
     * @throws IllegalStateException if none came in time.
     */
    public CmEvent next(final String awaited)
    {
        final CmEvent event = channel.getEvent(timeoutMillis);
        if (event == null)
        {
            throw new IllegalStateException("no connection-manager event within " + timeoutMillis +
                " ms while awaiting " + awaited);
        }
        eventLog.accept(event);
        return event;
    }

    /**
     * Handles an event that came while nothing from the connection manager was awaited (between completions).
     *
     * @param awaited what the caller waits for, for the error message.
     * @throws PeerDisconnectedException if the peer disconnected (now or before).
     * @throws IllegalStateException if the event has no place there.
     */
    public void pollStray(final String awaited)
    {
        if (peerDisconnected)
        {
            throw new PeerDisconnectedException("the peer disconnected before " + awaited);
        }
        final CmEvent event = channel.getEvent(0);
        if (event != null)
        {
            eventLog.accept(event);
            stray(event, awaited);
        }
    }

    /**
     * Describes an event that ends a connection attempt, e.g.
     * {@code REJECTED (status 8: nothing listens on that port)}.
     *
     * @param event the event.
     * @return the description.
     */
    public static String describe(final CmEvent event)
    {
        final String why = event.failureText();
        return event.type() + " (status " + event.status() + (why != null ? ": " + why : "") + ")";
    }

    /**
     * @param event    the event that came.
     * @param awaited  what was awaited.
     * @return the failure naming both.
     */
    public static IllegalStateException unexpected(final CmEvent event, final String awaited)
    {
        return new IllegalStateException("awaiting " + awaited + ", got " + describe(event));
    }

    private void stray(final CmEvent event, final String awaited)
    {
        if (event.type() == CmEventType.CONNECT_REQUEST)
        {
            final CmId turnedAway = event.id(); // a second client while this one is served: not accepted
            turnedAway.reject(null);
            turnedAway.close();
            return;
        }
        if (event.type() == CmEventType.DISCONNECTED)
        {
            peerDisconnected = true; // for the waits after this one: the event comes once
            throw new PeerDisconnectedException("the peer disconnected while awaiting " + awaited);
        }
        throw unexpected(event, awaited);
    }
}
