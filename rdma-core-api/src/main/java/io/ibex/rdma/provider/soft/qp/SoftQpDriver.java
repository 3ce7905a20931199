package io.ibex.rdma.provider.soft.qp;

import io.ibex.rdma.provider.soft.SoftCompletionQueue;
import io.ibex.rdma.provider.soft.SoftProgressAgent;
import io.ibex.rdma.provider.soft.wire.SoftLink;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;

/**
 * Who drives a {@link SoftQueuePair}'s link, and the drive itself: read and execute what arrived, transmit what is
 * queued, send an owed ACK, run the RNR and transport timers. The poster drives as it posts, a poller of a CQ the
 * QP completes into drives it (and an idle peer QP of the same device), the progress thread drives a QP nobody else
 * drove for a while and has its link wake it.
 * <p>
 * {@link #drive} and {@link #driveIfIdle} try the QP lock and give up if another thread holds it; every other method
 * runs with the lock held. {@link #idleSince} and {@link #handOverToProgress} take no lock. Allocates nothing.
 */
final class SoftQpDriver
{
    /** How long a peer QP of the same device must go undriven before a poller of this QP drives it too. */
    static final long NEIGHBOUR_IDLE_NANOS = 20_000;
    /**
     * How stale the mark of the application's last drive may be. Other threads only ask whether the QP went undriven
     * for {@link #NEIGHBOUR_IDLE_NANOS} or longer, and a store on every poll of a spinning thread would move the
     * mark's cache line to that thread's core and back on every poll of the asker.
     */
    private static final long APP_DRIVE_MARK_NANOS = 2_000;

    private static final Logger LOG = LoggerFactory.getLogger(SoftQpDriver.class);

    private final SoftQueuePair qp;
    private final SoftQpConnection connection;
    private final SoftRequester requester;
    private final SoftResponder responder;
    private final SoftAcks acks;
    private final SoftCompletionQueue sendCq;
    private final SoftCompletionQueue recvCq;
    private volatile long lastAppDrive;
    private long lastProgress; // under the lock
    private SoftLink watchedLink; // progress thread only

    SoftQpDriver(
        final SoftQueuePair qp,
        final SoftQpConnection connection,
        final SoftRequester requester,
        final SoftResponder responder,
        final SoftAcks acks,
        final SoftCompletionQueue sendCq,
        final SoftCompletionQueue recvCq)
    {
        this.qp = qp;
        this.connection = connection;
        this.requester = requester;
        this.responder = responder;
        this.acks = acks;
        this.sendCq = sendCq;
        this.recvCq = recvCq;
    }

    /**
     * See {@link SoftQueuePair#drive}.
     */
    int drive(final boolean byApp)
    {
        final long now = System.nanoTime();
        if (byApp)
        {
            markAppDrive(now);
        }
        if (qp.type() == QpType.UD || !qp.lock.tryLock())
        {
            return 0;
        }
        int work;
        try
        {
            work = driveLocked(now);
        }
        finally
        {
            qp.lock.unlock();
        }
        // a peer QP in this JVM that nobody polls (one thread driving both ends) still answers promptly
        final SoftQueuePair peer = connection.localPeer;
        if (byApp && peer != null && peer.idleSince(now, NEIGHBOUR_IDLE_NANOS))
        {
            work += peer.drive(false);
        }
        return work;
    }

    /**
     * See {@link SoftQueuePair#driveIfIdle}.
     */
    int driveIfIdle(final long now, final long idleNanos, final SoftProgressAgent progress)
    {
        if (!idleSince(now, idleNanos))
        {
            watch(null); // an application drives it: never wake the progress thread for its packets
            return 0;
        }
        if (qp.type() == QpType.UD || !qp.lock.tryLock())
        {
            return 0;
        }
        try
        {
            final QpState current = qp.state;
            watch(SoftQueuePair.isConnected(current) ? connection.link : null);
            if (watchedLink != null)
            {
                watchedLink.watch(progress);
            }
            final int work = driveLocked(now);
            if (acks.dueWithin(now, SoftProgressAgent.TIMER_SPIN_NANOS) ||
                requester.rnrRetryDueWithin(now, SoftProgressAgent.TIMER_SPIN_NANOS))
            {
                progress.timerDueSoon(); // a 5 us ACK or an RNR retry must not wait for the 1 ms tick
            }
            return work;
        }
        catch (final IOException ex)
        {
            connection.linkFailed(ex.toString());
            return 1;
        }
        finally
        {
            qp.lock.unlock();
        }
    }

    /**
     * Stops watching the link the progress thread watched unless it is {@code watched}, which it watches from now
     * on (none if null). Progress thread only.
     */
    private void watch(final SoftLink watched)
    {
        if (watchedLink != null && watchedLink != watched)
        {
            watchedLink.unwatch();
        }
        watchedLink = watched;
    }

    private int driveLocked(final long now)
    {
        if (!SoftQueuePair.isConnected(qp.state))
        {
            return 0;
        }
        if (sendCq.overflowed() || recvCq.overflowed())
        {
            qp.enterError();
            return 1;
        }
        return progress(now);
    }

    /**
     * An application thread drove the QP (polled or posted) at {@code now}.
     */
    void markAppDrive(final long now)
    {
        if (now - lastAppDrive >= APP_DRIVE_MARK_NANOS)
        {
            lastAppDrive = now;
        }
    }

    boolean idleSince(final long now, final long idleNanos)
    {
        return now - lastAppDrive > idleNanos;
    }

    void handOverToProgress()
    {
        lastAppDrive = 0;
    }

    /**
     * An RC/UC post in RTS: the poster sends what it posted, and drives the QP fully (reads its link too) when nobody
     * has for {@link SoftQueuePair#POSTER_READ_INTERVAL_NANOS}: a post counts as driving, so no one else reads the link
     * while it posts.
     */
    void posted(final long now)
    {
        if (now - lastProgress >= SoftQueuePair.POSTER_READ_INTERVAL_NANOS)
        {
            progress(now);
        }
        else
        {
            transmitNow(now);
        }
    }

    /**
     * The posting thread sends what it posted (and anything else queued) without reading the link.
     */
    private void transmitNow(final long now)
    {
        final SoftLink link = connection.link;
        try
        {
            if (link != null && link.established())
            {
                requester.transmit(link, now);
                link.flush();
            }
        }
        catch (final IOException ex)
        {
            connection.linkFailed(ex.toString());
        }
    }

    private int progress(final long now)
    {
        lastProgress = now;
        try
        {
            if (connection.link == null)
            {
                connection.adoptPending();
                if (connection.link == null)
                {
                    return 0;
                }
            }
            if (!connection.link.established())
            {
                return 0;
            }
            connection.publishGate();
            int work = responder.receive(now);
            if (connection.link == null)
            {
                return work + 1;
            }
            if (qp.state == QpState.RTS)
            {
                work += requester.transmit(connection.link, now);
                requester.checkTransportTimer(now);
            }
            final SoftLink link = connection.link;
            if (link != null)
            {
                if (acks.writeOwed(link, now))
                {
                    work++;
                }
                link.flush();
            }
            return work;
        }
        catch (final IOException ex)
        {
            connection.linkFailed(ex.toString());
            return 1;
        }
    }

    /**
     * An HCA executes frames as they arrive; soft only when a thread drives the QP. A QP sent to ERR (say on a
     * disconnect its application learned of without polling) first takes what already arrived, so an ACK its peer
     * sent before disconnecting completes the sends it acknowledges rather than have them flushed.
     */
    void takeWhatArrived(final QpState from)
    {
        final SoftLink link = connection.link;
        if (SoftQueuePair.isConnected(from) && link != null)
        {
            try
            {
                if (link.established())
                {
                    responder.receive(System.nanoTime()); // receives only: nothing new goes out on the way to ERR
                }
            }
            catch (final IOException ex)
            {
                connection.linkFailed(ex.toString());
            }
        }
    }

    /**
     * An HCA acknowledges a request as it executes it; soft delays a lone ACK so a response can carry it. A QP
     * that stops driving its link sends the ACK it still owes, so the peer's completed requests do not fail for
     * want of it: alone on the way to ERR; in a goodbye when destroyed or reset, which also tells the peer's QP that
     * this one left (a bare close of the link looks like a process that died).
     *
     * @param leaving whether the link closes now (destroy, reset).
     */
    void stopDriving(final boolean leaving)
    {
        final SoftLink link = connection.link;
        if (link == null || (!leaving && qp.state == QpState.ERR))
        {
            return;
        }
        try
        {
            if (link.established() && (leaving ? acks.writeGoodbye(link) : acks.writeOwedNow(link)))
            {
                link.flush();
            }
        }
        catch (final IOException ex)
        {
            LOG.debug("{}: {} not sent before stopping: {}", qp, leaving ? "goodbye" : "owed ACK", ex.toString());
        }
    }
}
