package io.ibex.transport.channel;

import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.transport.config.ChannelConfig;
import io.ibex.transport.sample.SampleClock;
import io.ibex.transport.stats.ChannelStats;
import io.ibex.transport.stats.Counter;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.IdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A channel of samples with the semantics of VILLASnode's {@code infiniband} node-type: a source connects to
 * out.address, a target listens on in.address, and samples travel as SENDs over RC, UC or UD, zero copy from
 * and into pools of registered memory.
 * <pre>{@code
 * try (SampleChannel channel = SampleChannel.open(ChannelConfig.read(Path.of("node.conf"), "ib_node_source")))
 * {
 *     channel.awaitConnected(5, TimeUnit.SECONDS);
 *     SampleBatch batch = new SampleBatch(8);
 *     channel.claim(batch, 1);
 *     batch.get(0).sequence(0).floatValue(0, 1.5);
 *     channel.write(batch);                       // returns how many it took: the rest stay in the batch
 * }
 * }</pre>
 * {@link #open} gives a STARTED channel (CONNECTED while a peer is there) and {@link #close} ends it (DESTROYED).
 * The runner drives the C node-type's lifecycle step by step instead: {@link #create()} (INITIALIZED),
 * {@link #parse} (PARSED), {@link #check} (CHECKED), {@link #start} (STARTED), {@link #stop} (STOPPED, may start
 * again). An operation in the wrong state throws {@link ChannelStateException} naming the state it needs and the
 * state the channel is in.
 * <p>
 * Threads: one writer thread (claim, write, release of claimed samples) and one reader thread (read, release
 * of received samples) may work at once, besides the thread that starts and stops the channel; the channel's
 * own connection-manager thread handles connections. Write and read never block on the network and allocate
 * nothing; while no peer is connected they take and return nothing.
 * <p>
 * One class, as the C node-type is one: it is the channel's public face and its state machine, and delegates
 * everything else. What a started channel allocates is {@link ChannelResources}; samples travel through
 * {@link SendPath} and {@link ReceivePath}; connections are {@link ChannelConnector}'s.
 */
public final class SampleChannel implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(SampleChannel.class);
    private static final long EVENT_SLICE_MILLIS = 50;

    private final EpochNanoClock clock = new SampleClock();
    private final Object stateLock = new Object();
    private volatile ChannelState state = ChannelState.INITIALIZED;
    private volatile ChannelException failure;
    private ChannelConfig config;
    private ChannelStats stats;
    private IdleStrategy readIdle;
    private volatile ChannelResources running;

    private SampleChannel()
    {
    }

    /**
     * Opens a channel: a target listens on in.address when this returns (so a source opened next finds it), a
     * source starts connecting to out.address. Close it to free its resources.
     *
     * @param config the node's config ({@link ChannelConfig#builder()} or {@link ChannelConfig#read}).
     * @return the channel, STARTED (CONNECTED once a peer is there: {@link #awaitConnected}).
     * @throws io.ibex.transport.config.ConfigException naming the rule the config breaks.
     * @throws ChannelException if in.address cannot be bound or a resource cannot be allocated.
     */
    public static SampleChannel open(final ChannelConfig config)
    {
        final SampleChannel channel = create().parse(config).check();
        try
        {
            return channel.start();
        }
        catch (final RuntimeException ex)
        {
            channel.close();
            throw ex;
        }
    }

    /**
     * Waits until a peer is connected.
     *
     * @param timeout how long to wait.
     * @param unit    its unit.
     * @return whether the channel is CONNECTED.
     * @throws InterruptedException if the thread is interrupted while waiting.
     */
    public boolean awaitConnected(final long timeout, final TimeUnit unit) throws InterruptedException
    {
        final long deadline = System.nanoTime() + unit.toNanos(timeout);
        synchronized (stateLock)
        {
            while (state != ChannelState.CONNECTED)
            {
                requireRunning("awaitConnected");
                final long left = deadline - System.nanoTime();
                if (left <= 0)
                {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(stateLock, left);
            }
            return true;
        }
    }

    /**
     * Fills a batch with free samples from the send pool, initialised from the signal list (length and init
     * values); the caller sets sequence, ts.origin and values, then writes them. Writer thread only.
     *
     * @param batch where the samples go (holding claimed samples of this channel or nothing).
     * @param count how many are wanted.
     * @return how many were claimed: fewer when the pool is short (samples still in flight).
     */
    public int claim(final SampleBatch batch, final int count)
    {
        return requireRunning("claim").send().claim(batch, count);
    }

    /**
     * Sends samples from the front of a batch in one post list: up to out.vectorize of them, fewer when the
     * send queue is full; they leave the batch (and go back to the pool once sent). Never drops a sample: what
     * is not taken stays in the batch. Writer thread only; allocates nothing.
     *
     * @param batch claimed samples.
     * @return how many samples were taken, 0 when no peer is connected, including from the moment a send
     *     completed with an error (a dead peer's RETRY_EXC_ERR): the connection is lost then, and {@link #state()}
     *     leaves CONNECTED as soon as the connection manager has dropped it.
     * @throws ChannelException if the provider refused the post or the channel failed ({@link #failure()}).
     */
    public int write(final SampleBatch batch)
    {
        return requireRunning("write").send().write(batch);
    }

    /**
     * Gives the batch's previous samples back, then fills it with up to in.vectorize received samples, without
     * waiting. Reader thread only; allocates nothing.
     *
     * @param batch where received samples go; what it held before is released.
     * @return how many samples the batch holds.
     */
    public int read(final SampleBatch batch)
    {
        return requireRunning("read").receive().read(batch);
    }

    /**
     * As {@link #read(SampleBatch)}, waiting up to a timeout for a sample: busy polling with the config's idle
     * strategy, or (poll_mode event) sleeping on the completion channel.
     *
     * @param batch   where received samples go; what it held before is released.
     * @param timeout how long to wait.
     * @param unit    its unit.
     * @return how many samples the batch holds, 0 if none came in time.
     */
    public int read(final SampleBatch batch, final long timeout, final TimeUnit unit)
    {
        final long deadline = System.nanoTime() + unit.toNanos(timeout);
        readIdle.reset();
        while (true)
        {
            final ChannelResources current = requireRunning("read");
            int count = current.receive().read(batch);
            if (count > 0)
            {
                return count;
            }
            final long left = deadline - System.nanoTime();
            if (left <= 0)
            {
                return 0;
            }
            if (current.completionChannel() == null)
            {
                readIdle.idle();
                continue;
            }
            current.receive().armEvent();
            count = current.receive().read(batch);
            if (count > 0)
            {
                return count;
            }
            current.receive().awaitEvent(current.completionChannel(),
                Math.min(EVENT_SLICE_MILLIS, TimeUnit.NANOSECONDS.toMillis(left)));
        }
    }

    /**
     * @return the region received samples land in: for the test that plays a peer reaching for it.
     */
    MemoryRegion receiveRegion()
    {
        return requireRunning("receiveRegion").receive().pool().mr();
    }

    /**
     * Gives a batch's samples back without sending them (claimed samples) or when done with them (received
     * samples). Call from the thread that owns the batch.
     *
     * @param batch the batch, empty afterwards.
     */
    public void release(final SampleBatch batch)
    {
        final ChannelResources current = running;
        if (batch.isEmpty())
        {
            return;
        }
        if (current != null && batch.pool() == current.receive().pool())
        {
            current.receive().release(batch);
        }
        else if (current != null)
        {
            current.send().release(batch);
        }
        else
        {
            batch.releaseInto(null, "release");
        }
    }

    /** Stops the channel if it runs, then DESTROYED. Idempotent. */
    @Override
    public void close()
    {
        stop();
        synchronized (stateLock)
        {
            state = ChannelState.DESTROYED;
            stateLock.notifyAll();
        }
    }

    /** @return the state; changes under the caller's feet when peers come and go. */
    public ChannelState state()
    {
        return state;
    }

    /**
     * @return whether the channel listens on in.address for sources: a target, a UD source, or a source that
     *     fell back to listening (out.use_fallback).
     */
    public boolean isListening()
    {
        final ChannelResources current = running;
        return current != null && current.connector().isListening();
    }

    /**
     * @return why the source's last attempt to connect failed (e.g. {@code connecting to /10.0.0.2:1337 failed:
     *     REJECTED (status 8: nothing listens on that port)}), or null if none failed since it started.
     */
    public String lastConnectFailure()
    {
        final ChannelResources current = running;
        return current != null ? current.connector().lastConnectFailure() : null;
    }

    /**
     * @return why the channel cannot go on (its message says what failed, its cause the error underneath, if any),
     *     or null while it can.
     */
    public ChannelException failure()
    {
        return failure;
    }

    /** @return the config (checked after {@link #check}); null before {@link #parse}. */
    public ChannelConfig config()
    {
        return config;
    }

    /** @return the channel's statistics, readable live from any thread; null before {@link #parse}. */
    public ChannelStats stats()
    {
        return stats;
    }

    /** @return the queue pair of the connection samples are written to now, or null: for tests that break it. */
    QueuePair sendingQueuePair()
    {
        final ChannelResources current = running;
        return current != null ? current.send().queuePair() : null;
    }

    /**
     * @return the clock ts.received comes from (epoch nanoseconds), for stamping ts.origin the same way:
     *     {@code sample.origin(channel.clock().nanoTime())}.
     */
    public EpochNanoClock clock()
    {
        return clock;
    }

    // The C node-type's lifecycle, step by step, as the runner drives it (and tests that need a channel in a given
    // state); open(config) is create().parse(config).check().start().

    /** @return a channel in state INITIALIZED. */
    public static SampleChannel create()
    {
        return new SampleChannel();
    }

    /**
     * Takes the config: INITIALIZED to PARSED.
     *
     * @param config the node's config.
     * @return this.
     */
    public SampleChannel parse(final ChannelConfig config)
    {
        Objects.requireNonNull(config, "parse: config");
        synchronized (stateLock)
        {
            require("parse", ChannelState.INITIALIZED);
            this.config = config;
            this.stats = new ChannelStats(ChannelStats.DEFAULT_WARM_UP, clock);
            this.readIdle = config.idle().newStrategy();
            state = ChannelState.PARSED;
        }
        return this;
    }

    /**
     * Applies the node-type's checks to the config and logs their warnings: PARSED to CHECKED.
     *
     * @return this.
     * @throws io.ibex.transport.config.ConfigException naming the rule the config breaks.
     */
    public SampleChannel check()
    {
        synchronized (stateLock)
        {
            require("check", ChannelState.PARSED);
            config = config.check();
            for (final String warning : config.warnings())
            {
                LOG.warn("{}: {}", config.name(), warning);
            }
            state = ChannelState.CHECKED;
        }
        return this;
    }

    /**
     * Allocates the channel's resources on the device of in.address and starts connecting (a source) or
     * listening (a target, which listens when this returns, so a source started next finds it): CHECKED or
     * STOPPED to STARTED.
     *
     * @return this.
     * @throws ChannelException if in.address cannot be bound or a resource cannot be allocated.
     */
    public SampleChannel start()
    {
        synchronized (stateLock)
        {
            require("start", ChannelState.CHECKED, ChannelState.STOPPED);
            failure = null;
            running = new ChannelResources(config, stats, clock, new ConnectionEvents());
            state = ChannelState.STARTED;
            running.startConnector();
        }
        return this;
    }

    /**
     * Disconnects, frees every resource and waits for the connection manager: STARTED or CONNECTED to STOPPED.
     * A no-op in other states.
     */
    public void stop()
    {
        final ChannelResources stopping;
        synchronized (stateLock)
        {
            if (running == null)
            {
                return;
            }
            stopping = running;
            running = null;
            state = ChannelState.STOPPED;
            stateLock.notifyAll();
        }
        stopping.close();
        LOG.info("{}: stopped (sent {}, received {}, dropped {}, invalid {})", config.name(),
            stats.get(Counter.SENT), stats.get(Counter.RECEIVED), stats.get(Counter.DROPPED),
            stats.get(Counter.INVALID));
    }

    @Override
    public String toString()
    {
        return "SampleChannel{" + (config != null ? config.name() : "?") + ", " + state + '}';
    }


    private void require(final String operation, final ChannelState... allowed)
    {
        for (final ChannelState ok : allowed)
        {
            if (state == ok)
            {
                return;
            }
        }
        final StringBuilder needed = new StringBuilder();
        for (int i = 0; i < allowed.length; i++)
        {
            needed.append(i == 0 ? "" : i == allowed.length - 1 ? " or " : ", ").append(allowed[i]);
        }
        throw new ChannelStateException(config != null ? config.name() : "?", operation, state, needed.toString());
    }

    private ChannelResources requireRunning(final String operation)
    {
        final ChannelResources current = running;
        if (current == null)
        {
            throw new ChannelStateException(config != null ? config.name() : "?", operation, state,
                "STARTED or CONNECTED");
        }
        final ChannelException failed = failure;
        if (failed != null)
        {
            throw new ChannelException(config.name() + ": " + failed.getMessage(), failed);
        }
        return current;
    }

    /** Moves the state as the connection manager reports connections coming and going. */
    private final class ConnectionEvents implements ChannelConnector.Listener
    {
        @Override
        public void connectionChanged(final boolean connected)
        {
            synchronized (stateLock)
            {
                if (state == ChannelState.STARTED || state == ChannelState.CONNECTED)
                {
                    state = connected ? ChannelState.CONNECTED : ChannelState.STARTED;
                    stateLock.notifyAll();
                }
            }
        }

        @Override
        public void failed(final String reason, final Throwable cause)
        {
            LOG.error("{}: {}", config.name(), reason);
            synchronized (stateLock)
            {
                failure = new ChannelException(reason, cause);
                stateLock.notifyAll();
            }
        }
    }
}
