package io.ibex.rdma.provider.soft.cm;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The thread of one event channel that drives its listeners and handshakes: a selector over every CM socket
 * of the channel, the commands user calls hand over, and the reply deadlines. All socket I/O happens here, so
 * a misbehaving peer can never raise an exception in a user's thread.
 * <p>
 * {@link #execute}, {@link #executeAndWait} and {@link #close} may be called from any thread, the rest from
 * the agent thread only. It owns the selector and closes every socket left on it when it stops.
 */
final class SoftCmAgent implements Runnable
{
    private static final Logger LOG = LoggerFactory.getLogger(SoftCmAgent.class);
    /** Longest select: deadlines are checked at least this often. */
    private static final long SELECT_TIMEOUT_MILLIS = 50;
    /** How long a user thread waits for the agent to release sockets. */
    private static final long COMMAND_WAIT_MILLIS = 5000;
    private static final AtomicInteger THREAD_COUNTER = new AtomicInteger();

    private final long replyTimeoutNs;
    private final Selector selector;
    private final ConcurrentLinkedQueue<Runnable> commands = new ConcurrentLinkedQueue<>();
    private final Set<CmConnection> connections = new HashSet<>();
    private final List<CmConnection> overdue = new ArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    /**
     * Opens the selector and starts the daemon thread.
     *
     * @param replyTimeoutNs how long an accepted socket may take to send its REQ.
     */
    SoftCmAgent(final long replyTimeoutNs)
    {
        this.replyTimeoutNs = replyTimeoutNs;
        try
        {
            selector = Selector.open();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot open the soft CM selector", ex);
        }
        thread = new Thread(this, "ibex-soft-cm-" + THREAD_COUNTER.incrementAndGet());
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Runs a command on the agent thread, after the ones before it.
     *
     * @param command the work.
     */
    void execute(final Runnable command)
    {
        commands.offer(command);
        selector.wakeup();
    }

    /**
     * Runs a command on the agent thread and waits for it (runs it here if the agent has stopped or this is
     * the agent thread), so that sockets are released when a close returns.
     *
     * @param command the work.
     */
    void executeAndWait(final Runnable command)
    {
        if (!running || Thread.currentThread() == thread)
        {
            command.run();
            return;
        }
        final CompletableFuture<Void> done = new CompletableFuture<>();
        execute(() ->
        {
            try
            {
                command.run();
            }
            finally
            {
                done.complete(null);
            }
        });
        try
        {
            done.get(COMMAND_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        catch (final ExecutionException | TimeoutException ex)
        {
            LOG.warn("soft CM thread {} did not run a close command within {} ms", thread.getName(),
                COMMAND_WAIT_MILLIS);
        }
    }

    /**
     * Watches a listening socket for connections. Agent thread only.
     *
     * @param socket   the bound server socket.
     * @param listener what handles the requests that arrive on it.
     */
    void registerListener(final ServerSocketChannel socket, final CmListener listener)
    {
        register(socket, SelectionKey.OP_ACCEPT, listener);
    }

    /**
     * Watches a CM connection. Agent thread only.
     *
     * @param connection the connection.
     * @param ops        the first interest set (OP_CONNECT or OP_READ).
     */
    void registerConnection(final CmConnection connection, final int ops)
    {
        connection.key(register(connection.socket(), ops, connection));
        connections.add(connection);
    }

    /**
     * Closes a listening socket now and lets the selector release it, so the port is free on return. Agent
     * thread only, from a command (never while selected keys are being handled).
     *
     * @param socket the server socket.
     */
    void closeListener(final ServerSocketChannel socket)
    {
        final SelectionKey key = socket.keyFor(selector);
        if (key != null)
        {
            key.cancel();
        }
        CmSockets.closeQuietly(socket);
        flushCancelledKeys();
    }

    /**
     * Closes a connection; the next select releases its socket. Agent thread only.
     *
     * @param connection the connection.
     */
    void closeConnection(final CmConnection connection)
    {
        connection.close();
        connections.remove(connection);
    }

    /**
     * Stops the thread once the commands queued so far have run, then closes every socket left.
     */
    void close()
    {
        execute(() -> running = false);
        if (Thread.currentThread() != thread)
        {
            try
            {
                thread.join(COMMAND_WAIT_MILLIS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void run()
    {
        try
        {
            while (running)
            {
                runCommands();
                if (!running)
                {
                    break;
                }
                selector.select(SELECT_TIMEOUT_MILLIS);
                final Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext())
                {
                    final SelectionKey key = keys.next();
                    keys.remove();
                    if (key.isValid())
                    {
                        onReady(key);
                    }
                }
                checkDeadlines();
            }
        }
        catch (final IOException | ClosedSelectorException ex)
        {
            LOG.error("soft CM thread {} failed; its connections are dropped", thread.getName(), ex);
        }
        finally
        {
            running = false;
            runCommands();
            for (final SelectionKey key : selector.keys())
            {
                if (key.attachment() instanceof CmConnection)
                {
                    drop((CmConnection)key.attachment(), "event channel closed");
                }
                CmSockets.closeQuietly(key.channel());
            }
            CmSockets.closeQuietly(selector);
        }
    }

    private void runCommands()
    {
        Runnable command;
        while ((command = commands.poll()) != null)
        {
            try
            {
                command.run();
            }
            catch (final RuntimeException ex)
            {
                LOG.error("soft CM command failed", ex);
            }
        }
    }

    private void onReady(final SelectionKey key)
    {
        if (key.attachment() instanceof CmListener)
        {
            accept((ServerSocketChannel)key.channel(), (CmListener)key.attachment());
            return;
        }
        final CmConnection connection = (CmConnection)key.attachment();
        try
        {
            if (key.isConnectable())
            {
                finishConnect(connection);
            }
            if (!connection.isClosed() && key.isValid() && key.isWritable())
            {
                connection.flush();
            }
            if (!connection.isClosed() && key.isValid() && key.isReadable() &&
                !connection.receive(this::dispatch))
            {
                drop(connection, "the peer closed the CM connection");
            }
        }
        catch (final CmProtocolException ex)
        {
            LOG.warn("dropping {}: {}", connection, ex.getMessage());
            drop(connection, ex.getMessage());
        }
        catch (final IOException ex)
        {
            drop(connection, "I/O error: " + ex);
        }
        catch (final RuntimeException ex)
        {
            LOG.error("dropping {}: handling it failed", connection, ex);
            drop(connection, "internal error: " + ex);
        }
        if (connection.isClosed())
        {
            connections.remove(connection);
        }
    }

    private void accept(final ServerSocketChannel server, final CmListener listener)
    {
        try
        {
            final SocketChannel socket = server.accept();
            if (socket != null)
            {
                socket.configureBlocking(false);
                socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
                final CmConnection connection = new CmConnection(socket, null, listener);
                connection.deadlineNs(System.nanoTime() + replyTimeoutNs);
                registerConnection(connection, SelectionKey.OP_READ);
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            LOG.warn("soft CM listener {} failed to accept a connection", listener, ex);
        }
    }

    private void finishConnect(final CmConnection connection) throws IOException
    {
        final boolean connected;
        try
        {
            connected = connection.socket().finishConnect();
        }
        catch (final IOException ex)
        {
            connections.remove(connection);
            connection.close();
            connection.handshake().onConnectFailed(connection, ex);
            return;
        }
        if (connected)
        {
            connection.key().interestOps(SelectionKey.OP_READ);
            connection.handshake().onTransportConnected(connection);
        }
    }

    private void dispatch(final CmConnection connection, final CmMessage message) throws CmProtocolException
    {
        final CmHandshake handshake = connection.handshake();
        if (handshake != null)
        {
            handshake.onMessage(connection, message);
        }
        else if (message.type() == CmMessageDescriptor.TYPE_REQ && connection.ended())
        {
            // a stale request: its requester gave up (or died) before this side read it
            LOG.info("{}: ignoring a REQ whose requester has gone", connection);
        }
        else if (message.type() == CmMessageDescriptor.TYPE_REQ)
        {
            connection.deadlineNs(Long.MAX_VALUE);
            connection.listener().onRequest(connection, message);
        }
        else
        {
            throw new CmProtocolException("expected a REQ on a new connection, got " +
                CmMessageDescriptor.typeName(message.type()));
        }
    }

    private void checkDeadlines()
    {
        final long now = System.nanoTime();
        for (final Iterator<CmConnection> it = connections.iterator(); it.hasNext(); )
        {
            final CmConnection connection = it.next();
            if (connection.isClosed())
            {
                it.remove(); // closed once its last message was flushed
            }
            else if (connection.deadlineNs() - now <= 0)
            {
                overdue.add(connection);
            }
        }
        for (final CmConnection connection : overdue)
        {
            connection.deadlineNs(Long.MAX_VALUE);
            if (connection.handshake() == null)
            {
                LOG.debug("dropping {}: no REQ arrived in time", connection);
                closeConnection(connection);
            }
            else
            {
                try
                {
                    connection.handshake().onTimeout(connection);
                }
                catch (final RuntimeException ex)
                {
                    LOG.error("dropping {}: handling its timeout failed", connection, ex);
                    drop(connection, "internal error: " + ex);
                }
            }
        }
        overdue.clear();
    }

    private void drop(final CmConnection connection, final String reason)
    {
        if (connection.isClosed())
        {
            return;
        }
        connection.close();
        connections.remove(connection);
        final CmHandshake handshake = connection.handshake();
        if (handshake != null)
        {
            handshake.onTransportLost(connection, reason);
        }
    }

    private SelectionKey register(final SelectableChannel channel, final int ops, final Object attachment)
    {
        try
        {
            return channel.register(selector, ops, attachment);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot watch " + channel, ex);
        }
    }

    private void flushCancelledKeys()
    {
        try
        {
            selector.selectNow();
        }
        catch (final IOException ex)
        {
            LOG.warn("soft CM selector failed to release closed sockets", ex);
        }
    }
}
