package io.ibex.samples.perf;

import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.WorkCompletion;

/**
 * The server's loop of perftest's {@code run_iter_bw_server}: poll the receive completion queue
 * {@value BandwidthSender#POLL_BATCH} completions at a time and repost one receive for each message received
 * (perftest stops reposting when the last messages are under way; here the last {@code rx-depth} receives stay
 * posted until the QP goes). It reads the clock when the first message arrives and when the last one has, as
 * perftest's server does (which has no peak rate). The loop allocates nothing; every wait is bounded by the
 * timeout.
 */
final class BandwidthReceiver
{
    private final QueuePair qp;
    private final CompletionQueue recvCq;
    private final ReceiveWorkRequest recv;
    private final WorkCompletion[] wcs = new WorkCompletion[BandwidthSender.POLL_BATCH];
    private final SpinTimeout timeout;
    private final int rxDepth;
    private long received;
    private long firstAt;
    private long lastAt;

    /**
     * @param endpoint      the connected endpoint.
     * @param rxDepth       receives to keep posted.
     * @param timeoutMillis the longest wait for a message.
     */
    BandwidthReceiver(final PerfEndpoint endpoint, final int rxDepth, final long timeoutMillis)
    {
        this.qp = endpoint.qp();
        this.recvCq = endpoint.recvCq();
        this.recv = endpoint.newReceive();
        this.rxDepth = rxDepth;
        for (int i = 0; i < wcs.length; i++)
        {
            wcs[i] = new WorkCompletion();
        }
        this.timeout = new SpinTimeout(timeoutMillis);
    }

    /**
     * Posts {@code rx-depth} receives, before the exchange, so they are there before the peer can send.
     */
    void postReceives()
    {
        for (int i = 0; i < rxDepth; i++)
        {
            qp.postRecv(recv);
        }
    }

    /**
     * Receives messages.
     *
     * @param count messages to receive (none: nothing happens).
     */
    void run(final int count)
    {
        if (count == 0)
        {
            return;
        }
        final long end = received + count;
        complete(awaitAny(end));
        firstAt = System.nanoTime();
        while (received < end)
        {
            complete(awaitAny(end));
        }
        lastAt = System.nanoTime();
    }

    /** @return the clock reading when the first message of the last {@link #run} arrived, in nanoseconds. */
    long firstAt()
    {
        return firstAt;
    }

    /** @return the clock reading once the last message of the last {@link #run} had arrived, in nanoseconds. */
    long lastAt()
    {
        return lastAt;
    }

    private void complete(final int polled)
    {
        for (int i = 0; i < polled; i++)
        {
            if (!wcs[i].isSuccess())
            {
                throw failed(wcs[i]);
            }
            received++;
            qp.postRecv(recv);
        }
    }

    /** Polls no further than {@code end}: a batch never takes a message of the next run. */
    private int awaitAny(final long end)
    {
        final int max = (int)Math.min(wcs.length, end - received);
        final int polled = recvCq.poll(wcs, max);
        return polled > 0 ? polled : spin(max);
    }

    private int spin(final int max)
    {
        timeout.reset();
        int polled;
        while ((polled = recvCq.poll(wcs, max)) == 0)
        {
            if (!timeout.spin())
            {
                throw timedOut();
            }
        }
        return polled;
    }

    private IllegalStateException failed(final WorkCompletion wc)
    {
        return new IllegalStateException(String.format(
            "a receive completed with status %s (%d) (%d messages received)",
            wc.status(), wc.status().value(), received));
    }

    private IllegalStateException timedOut()
    {
        return new IllegalStateException(String.format(
            "no message within %d ms (%d messages received; QP 0x%06x %s): has the peer gone, or was it given " +
            "another -n/--iters?", timeout.timeoutMillis(), received, qp.qpNum(), qp.state()));
    }
}
