package io.ibex.samples.perf;

import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.WorkCompletion;

/**
 * The loop of perftest's {@code run_iter_lat_send}: one RC SEND each way per iteration, every send signaled and
 * its completion awaited before anything else (perftest's latency tests have a tx depth of 1, so a CQ
 * moderation of 1), a receive reposted after each one received (perftest stops reposting when the last
 * messages are under way; here the last {@code rx-depth} receives stay posted until the QP goes). The client sends
 * first and awaits the answer; the server awaits a message and answers it. Each side reads the clock right
 * before each send, so two consecutive readings are one round trip apart, as perftest's {@code tposted}.
 * <p>
 * The loop allocates nothing and only busy-polls, through the verbs API alone ({@link QueuePair#postSend},
 * {@link CompletionQueue#poll}); every wait is bounded by the timeout.
 */
final class LatencyPingPong
{
    private final QueuePair qp;
    private final CompletionQueue sendCq;
    private final CompletionQueue recvCq;
    private final SendWorkRequest send;
    private final ReceiveWorkRequest recv;
    private final WorkCompletion[] sendWc = { new WorkCompletion() };
    private final WorkCompletion[] recvWc = { new WorkCompletion() };
    private final SpinTimeout timeout;
    private final int rxDepth;
    private final boolean client;
    private long sent;
    private long received;

    /**
     * @param endpoint      the connected endpoint.
     * @param rxDepth       receives to keep posted.
     * @param client        whether this side sends first.
     * @param timeoutMillis the longest wait for a completion.
     */
    LatencyPingPong(final PerfEndpoint endpoint, final int rxDepth, final boolean client, final long timeoutMillis)
    {
        this.qp = endpoint.qp();
        this.sendCq = endpoint.sendCq();
        this.recvCq = endpoint.recvCq();
        this.send = endpoint.newSend();
        this.send.sendFlags(send.sendFlags() | SendFlags.SIGNALED);
        this.recv = endpoint.newReceive();
        this.rxDepth = rxDepth;
        this.client = client;
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
     * Runs iterations, reading the clock before each send.
     *
     * @param stamps where the clock readings go, from index 0.
     * @param count  iterations to run, at most {@code stamps.length}.
     */
    void run(final long[] stamps, final int count)
    {
        if (client)
        {
            for (int i = 0; i < count; i++)
            {
                stamps[i] = System.nanoTime();
                send();
                receive();
            }
        }
        else
        {
            for (int i = 0; i < count; i++)
            {
                receive();
                stamps[i] = System.nanoTime();
                send();
            }
        }
    }

    private void send()
    {
        qp.postSend(send);
        await(sendCq, sendWc);
        sent++;
    }

    private void receive()
    {
        await(recvCq, recvWc);
        received++;
        qp.postRecv(recv);
    }

    private void await(final CompletionQueue cq, final WorkCompletion[] wc)
    {
        if (cq.poll(wc, 1) == 0)
        {
            spin(cq, wc);
        }
        if (!wc[0].isSuccess())
        {
            throw failed(wc[0], cq == sendCq);
        }
    }

    private void spin(final CompletionQueue cq, final WorkCompletion[] wc)
    {
        timeout.reset();
        while (cq.poll(wc, 1) == 0)
        {
            if (!timeout.spin())
            {
                throw timedOut(cq == sendCq);
            }
        }
    }

    private IllegalStateException failed(final WorkCompletion wc, final boolean isSend)
    {
        return new IllegalStateException(String.format(
            "%s completed with status %s (%d) (%d messages sent, %d received)",
            isSend ? "a send" : "a receive of the peer's message", wc.status(), wc.status().value(), sent, received));
    }

    private IllegalStateException timedOut(final boolean isSend)
    {
        return new IllegalStateException(String.format(
            "no completion within %d ms while awaiting %s (%d messages sent, %d received; QP 0x%06x %s): " +
            "has the peer gone, or was it given another -n/--iters?", timeout.timeoutMillis(),
            isSend ? "the completion of our send" : "the peer's message", sent, received, qp.qpNum(), qp.state()));
    }
}
