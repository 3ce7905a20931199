package io.ibex.rdma.provider.soft;

import io.ibex.rdma.provider.soft.qp.SoftQueuePair;
import io.ibex.rdma.provider.soft.wire.SoftFrameDescriptor;
import io.ibex.rdma.provider.soft.wire.SoftGidDescriptor;
import io.ibex.rdma.provider.soft.wire.SoftLink;
import io.ibex.rdma.provider.soft.wire.SoftLinkToken;
import io.ibex.rdma.provider.soft.wire.SoftSharedMemoryWire;
import io.ibex.rdma.provider.soft.wire.SoftSocketWire;
import io.ibex.rdma.provider.soft.wire.SoftWire;
import io.ibex.rdma.provider.soft.wire.SoftWireWatcher;
import org.agrona.concurrent.Agent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * The device's daemon progress duty cycle: accepts incoming links and reads their HELLO, then drives only
 * the QPs (and the UD socket) no application thread has driven for {@link #IDLE_NANOS}, so one-sided
 * operations and event mode work with nobody polling while a busy-polling thread is never competed with.
 * Run by an {@link org.agrona.concurrent.AgentRunner} with a {@link SoftSelectorIdleStrategy}: it blocks in a
 * selector watching the sockets of exactly those QPs, the listening socket and (when idle) the UD socket.
 * <p>
 * Its timer tick wakes it every {@link #TICK_MILLIS} only while it has timers to run (a QP it drives, a
 * HELLO being read); while applications drive every QP it only has to notice one going idle, and checks every
 * {@link #APP_DRIVEN_TICK_MILLIS}, so that it seldom preempts a busy-polling thread.
 * <p>
 * A duty cycle does its system calls (accept, reads, the UD receive) only when there can be something to find: a
 * watched socket was selected, a waiter woke it ({@link #wakeUp}), the tick passed, or the last cycle did work. Its
 * brief spin after work is a {@code selectNow()} a round, not a read of every socket.
 * <p>
 * Runs on the device's progress thread; {@link #wakeUp} may be called from any thread.
 */
public final class SoftProgressAgent implements Agent, SoftWireWatcher
{
    /** How long a QP must go undriven by the application before the progress thread takes it over. */
    static final long IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** A timer of a QP the thread drives that comes due within this has the thread spin until it does. */
    public static final long TIMER_SPIN_NANOS = 50_000;

    private static final Logger LOG = LoggerFactory.getLogger(SoftProgressAgent.class);
    private static final long HELLO_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(5);

    /** Selector polls after work before blocking: about 10 us, for an exchange on a taken-over QP to go on. */
    private static final int IDLE_SPINS = 20;
    private static final long TICK_MILLIS = 1;
    /** The longest an application may stop polling, without blocking on a channel, before a take-over is late. */
    private static final long APP_DRIVEN_TICK_MILLIS = 10;

    private final SoftDevice device;
    private final ServerSocketChannel server;
    private final Selector selector;
    private final SelectionKey udpKey;
    private final List<Handshake> handshakes = new ArrayList<>();
    private final Queue<SoftSharedMemoryWire> newSharedMemoryWires = new ConcurrentLinkedQueue<>();
    private final List<SoftSharedMemoryWire> sharedMemoryWires = new ArrayList<>();
    private final SoftSelectorIdleStrategy idleStrategy;
    private int lastWork;
    private boolean timerSoon;
    private volatile boolean wakeUpRequested;

    SoftProgressAgent(final SoftDevice device, final ServerSocketChannel server, final DatagramChannel udp)
        throws IOException
    {
        this.device = device;
        this.server = server;
        selector = Selector.open();
        server.register(selector, SelectionKey.OP_ACCEPT);
        udpKey = udp.register(selector, SelectionKey.OP_READ);
        idleStrategy = new SoftSelectorIdleStrategy(selector, IDLE_SPINS, TICK_MILLIS);
    }

    @Override
    public int doWork()
    {
        if (lastWork == 0 && !timerSoon && !wakeUpRequested && !idleStrategy.takeScanDue())
        {
            return 0; // no socket ready, no wake-up, no tick, no timer due: every read here would come back empty
        }
        wakeUpRequested = false;
        timerSoon = false;
        final long now = System.nanoTime();
        int work = accept(now);
        tendSharedMemoryWires(now);
        boolean timersToRun = !handshakes.isEmpty();
        for (final SoftQueuePair qp : device.queuePairs())
        {
            work += qp.driveIfIdle(now, IDLE_NANOS, this);
            timersToRun |= qp.idleSince(now, IDLE_NANOS);
        }
        // the UD socket has no timers: the selector wakes the thread for its datagrams
        idleStrategy.tickMillis(timersToRun ? TICK_MILLIS : APP_DRIVEN_TICK_MILLIS);
        final boolean udpIdle = device.udpIdleSince(now, IDLE_NANOS);
        final int udpInterest = udpIdle ? SelectionKey.OP_READ : 0;
        if (udpKey.interestOps() != udpInterest)
        {
            udpKey.interestOps(udpInterest);
        }
        if (udpIdle)
        {
            work += device.driveUdp(false);
        }
        lastWork = work;
        idleStrategy.keepSpinning(timerSoon);
        return work;
    }

    /**
     * @return the idle strategy that blocks in this agent's selector, its tick set by each duty cycle.
     */
    SoftSelectorIdleStrategy idleStrategy()
    {
        return idleStrategy;
    }

    @Override
    public String roleName()
    {
        return "ibex-soft-progress";
    }

    /**
     * A QP this thread drives has a timer due within {@link #TIMER_SPIN_NANOS}: the thread spins and looks again
     * until it has run, rather than block for its tick. Progress thread only, during a duty cycle.
     */
    public void timerDueSoon()
    {
        timerSoon = true;
    }

    @Override
    public Selector selector()
    {
        return selector;
    }

    /**
     * Wakes the thread from its idle park: for a waiter that just handed its QPs over, or for traffic in memory
     * to a QP the thread drives. Any thread.
     */
    @Override
    public void wakeUp()
    {
        wakeUpRequested = true; // a spin's selectNow() would swallow the selector's wake-up
        selector.wakeup();
    }

    /**
     * Has this thread keep the heartbeat of a shared-memory wire and watch its peer's, until the wire is done with.
     * Any thread.
     */
    void tend(final SoftSharedMemoryWire wire)
    {
        newSharedMemoryWires.add(wire);
    }

    private void tendSharedMemoryWires(final long now)
    {
        SoftSharedMemoryWire added;
        while ((added = newSharedMemoryWires.poll()) != null)
        {
            sharedMemoryWires.add(added);
        }
        for (int i = sharedMemoryWires.size() - 1; i >= 0; i--)
        {
            if (!sharedMemoryWires.get(i).tend(now))
            {
                sharedMemoryWires.remove(i);
            }
        }
    }

    private int accept(final long now)
    {
        int work = 0;
        try
        {
            SocketChannel channel;
            while ((channel = server.accept()) != null)
            {
                channel.configureBlocking(false);
                channel.register(selector, SelectionKey.OP_READ);
                handshakes.add(new Handshake(channel, now));
                work++;
            }
        }
        catch (final IOException ex)
        {
            LOG.warn("soft device {}: accept failed", SoftDevice.NAME, ex);
        }
        for (int i = handshakes.size() - 1; i >= 0; i--)
        {
            final Handshake handshake = handshakes.get(i);
            if (handshake.advance(now))
            {
                handshakes.remove(i);
                work++;
            }
        }
        return work;
    }

    /** An accepted connection whose HELLO is being read. */
    private final class Handshake
    {
        private final SocketChannel channel;
        private final long startNanos;
        private final ByteBuffer hello =
            ByteBuffer.allocate(SoftFrameDescriptor.HELLO_LENGTH).order(ByteOrder.LITTLE_ENDIAN);

        Handshake(final SocketChannel channel, final long startNanos)
        {
            this.channel = channel;
            this.startNanos = startNanos;
        }

        /**
         * @return true when finished (attached or rejected).
         */
        boolean advance(final long now)
        {
            try
            {
                if (channel.read(hello) < 0)
                {
                    return reject("closed before its HELLO was complete");
                }
                if (hello.hasRemaining())
                {
                    return now - startNanos > HELLO_TIMEOUT_NANOS && reject("sent no complete HELLO in 5 s");
                }
                final int magic = hello.getInt(SoftFrameDescriptor.HELLO_MAGIC_OFFSET);
                final int version = hello.getInt(SoftFrameDescriptor.HELLO_VERSION_OFFSET);
                if (magic != SoftFrameDescriptor.HELLO_MAGIC || version != SoftFrameDescriptor.HELLO_VERSION)
                {
                    return reject("bad HELLO: magic=0x" + Integer.toHexString(magic) + " version=" + version);
                }
                final int dstQpn = hello.getInt(SoftFrameDescriptor.HELLO_DST_QPN_OFFSET);
                final SoftQueuePair qp = device.queuePair(dstQpn);
                if (qp == null)
                {
                    return reject("HELLO names QP 0x" + Integer.toHexString(dstQpn) + ", which does not exist");
                }
                final long srcKey = SoftGidDescriptor.endpointKey(
                    hello.getInt(SoftFrameDescriptor.HELLO_SRC_IPV4_OFFSET),
                    hello.getInt(SoftFrameDescriptor.HELLO_SRC_PORT_OFFSET));
                final int srcQpn = hello.getInt(SoftFrameDescriptor.HELLO_SRC_QPN_OFFSET);
                final byte[] token = SoftLinkToken.of(hello);
                if (qp.connection().refuses(token))
                {
                    return reject("its HELLO lacks its connection's token");
                }
                // frames may follow before the QP is ready: watch them only when the QP is ours to drive
                channel.keyFor(selector).interestOps(0);
                qp.connection().offer(SoftLink.accepted(answerOffer(), device::faults), srcKey, srcQpn, token);
                return true;
            }
            catch (final IOException ex)
            {
                return reject("failed: " + ex);
            }
        }

        /**
         * @return the wire of the link: through the shared memory the HELLO offers if it is taken (the answer says
         *         whether), else the connection.
         */
        private SoftWire answerOffer() throws IOException
        {
            final SoftSocketWire socket = SoftSocketWire.accepted(channel);
            final int flags = hello.getInt(SoftFrameDescriptor.HELLO_FLAGS_OFFSET);
            if ((flags & SoftFrameDescriptor.HELLO_FLAG_SHARED_MEMORY) == 0)
            {
                return socket;
            }
            final SoftSharedMemoryWire wire = device.acceptSharedMemory(socket, hello);
            final ByteBuffer answer =
                ByteBuffer.allocate(SoftFrameDescriptor.SHM_ANSWER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
            answer.putInt(0, wire != null ? SoftFrameDescriptor.SHM_ACCEPTED : SoftFrameDescriptor.SHM_DECLINED);
            if (socket.write(answer) != SoftFrameDescriptor.SHM_ANSWER_LENGTH)
            {
                // a new connection's buffer is empty: the peer cannot have filled it, it sends nothing until this
                if (wire != null)
                {
                    wire.close();
                }
                throw new IOException("the answer to the shared-memory offer did not fit in the connection's buffer");
            }
            return wire != null ? wire : socket;
        }

        private boolean reject(final String reason)
        {
            LOG.warn("soft device {}: incoming link from {} rejected: {}", SoftDevice.NAME, remote(), reason);
            try
            {
                channel.close();
            }
            catch (final IOException ignore)
            {
                // already failing; the peer sees the close
            }
            return true;
        }

        private String remote()
        {
            try
            {
                return String.valueOf(channel.getRemoteAddress());
            }
            catch (final IOException ex)
            {
                return "?";
            }
        }
    }
}
