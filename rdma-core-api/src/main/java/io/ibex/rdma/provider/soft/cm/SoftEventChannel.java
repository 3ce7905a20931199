package io.ibex.rdma.provider.soft.cm;

import io.ibex.rdma.cm.CmEvent;
import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.cm.EventChannel;
import io.ibex.rdma.cm.PortSpace;
import io.ibex.rdma.provider.soft.SoftProvider;
import io.ibex.rdma.spi.RdmaProvider;
import io.ibex.rdma.verbs.Context;

import java.util.ArrayList;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The soft connection manager's event channel. Ids talk the IB CM's protocol (REQ, REP, RTU, REJ, DREQ, DREP;
 * SIDR for UDP) over one TCP connection per connection, driven by one daemon thread per channel, its
 * {@link SoftCmAgent}. Ids use the provider's first device, opened once and shared, as librdmacm does.
 * <p>
 * What applications see is what rdma_cm over rxe gives: private data padded to the IB CM's fixed sizes;
 * REJECTED with reason 8 where nothing listens and 28 from {@code reject}; for UDP, UNREACHABLE with the SIDR
 * status instead; a DREQ gives its receiver DISCONNECTED at once, but the sender's DISCONNECTED waits for the
 * receiver's {@code disconnect} (or {@code close}) to send the DREP, or for the reply timeout. Unlike rdma_cm,
 * a peer whose process dies is noticed at once (DISCONNECTED, QP to ERR); TIMEWAIT_EXIT is not raised; and the
 * three port spaces share one port number space, since every listener is a TCP socket.
 * <p>
 * How long a peer may take to answer a request, reply or disconnect request before the id reports
 * UNREACHABLE (or DISCONNECTED) is {@value #REPLY_TIMEOUT_PROPERTY} in milliseconds, read when the channel is
 * created (default {@value #DEFAULT_REPLY_TIMEOUT_MILLIS}).
 */
public final class SoftEventChannel implements EventChannel
{
    /** System property: milliseconds to wait for a CM reply. */
    public static final String REPLY_TIMEOUT_PROPERTY = "ibex.soft.cm.replyTimeoutMillis";
    /** Default milliseconds to wait for a CM reply. */
    public static final long DEFAULT_REPLY_TIMEOUT_MILLIS = 20_000;

    private final RdmaProvider provider;
    private final LinkedBlockingQueue<CmEvent> events = new LinkedBlockingQueue<>();
    private final Set<SoftCmId> ids = ConcurrentHashMap.newKeySet();
    private final long replyTimeoutNs;
    private final CmSockets sockets;
    private final SoftCmAgent agent;
    private volatile boolean closed;

    /**
     * Creates the channel and starts its thread.
     *
     * @param provider the provider whose device the ids use.
     */
    public SoftEventChannel(final SoftProvider provider)
    {
        this.provider = Objects.requireNonNull(provider, "provider");
        this.replyTimeoutNs = TimeUnit.MILLISECONDS.toNanos(
            Long.getLong(REPLY_TIMEOUT_PROPERTY, DEFAULT_REPLY_TIMEOUT_MILLIS));
        this.sockets = new CmSockets(provider);
        this.agent = new SoftCmAgent(replyTimeoutNs);
    }

    @Override
    public CmId createId(final PortSpace portSpace)
    {
        ensureOpen();
        final SoftCmId id = new SoftCmId(this, portSpace);
        ids.add(id);
        return id;
    }

    @Override
    public CmEvent getEvent(final long timeoutMillis)
    {
        ensureOpen();
        try
        {
            return timeoutMillis <= 0 ? events.poll() : events.poll(timeoutMillis, TimeUnit.MILLISECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    @Override
    public boolean isClosed()
    {
        return closed;
    }

    /**
     * Closes every id of the channel (their QPs too), then stops the thread.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        for (final SoftCmId id : new ArrayList<>(ids))
        {
            id.close();
        }
        agent.close();
        events.clear();
    }

    /** @return the number of open ids (for leak checks). */
    int idCount()
    {
        return ids.size();
    }

    @Override
    public String toString()
    {
        return "soft event channel (" + ids.size() + " ids)";
    }

    /** @return the thread that does the channel's socket I/O. */
    SoftCmAgent agent()
    {
        return agent;
    }

    /** @return how long an id waits for its peer's answer. */
    long replyTimeoutNs()
    {
        return replyTimeoutNs;
    }

    /** @return the addresses and sockets the channel's ids use. */
    CmSockets sockets()
    {
        return sockets;
    }

    /** @return the device context every id uses. */
    Context sharedContext()
    {
        return SharedContexts.of(provider);
    }

    /** @param event an event for {@link #getEvent}; any thread. */
    void deliver(final CmEvent event)
    {
        events.offer(event);
    }

    /** @param id an id a connection request made, closed with the channel from now on. */
    void add(final SoftCmId id)
    {
        ids.add(id);
    }

    /** @param id a closed id. */
    void remove(final SoftCmId id)
    {
        ids.remove(id);
    }

    private void ensureOpen()
    {
        if (closed)
        {
            throw new IllegalStateException(this + " is closed");
        }
    }
}
