package io.ibex.samples.perf;

import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.WorkCompletion;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The loops of perftest's {@code run_iter_lat_send} and {@code run_iter_lat_write}: one message each way per
 * iteration, every send signaled and its completion awaited before anything else (perftest's latency tests have a
 * tx depth of 1, so a CQ moderation of 1). Each side reads the clock right before each send, so two consecutive
 * readings are one round trip apart, as perftest's {@code tposted}.
 * <ul>
 * <li>SEND: a receive reposted after each one received (perftest stops reposting when the last messages are
 * under way; here the last {@code rx-depth} receives stay posted until the QP goes). The client sends first and
 * awaits the answer; the server awaits a message and answers it.</li>
 * <li>RDMA WRITE: each side writes its message into the peer's receive slot, the message's last byte set to the
 * count of messages written (modulo 256), and awaits the peer's by watching the last byte of its own receive
 * slot change to the count it expects: no receive, no receive completion. The server writes first, as
 * perftest's.</li>
 * </ul>
 * The loop allocates nothing and only busy-polls, through the verbs API alone ({@link QueuePair#postSend},
 * {@link CompletionQueue#poll}) and the registered buffer; every wait is bounded by the timeout.
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
    private final boolean first;
    private final boolean writes;
    private final UnsafeBuffer buffer;
    private final int lastSentByte;
    private final int lastReceivedByte;
    private long sent;
    private long received;

    private LatencyPingPong(
        final PerfEndpoint endpoint,
        final SendWorkRequest send,
        final int rxDepth,
        final boolean first,
        final boolean writes,
        final long timeoutMillis)
    {
        this.qp = endpoint.qp();
        this.sendCq = endpoint.sendCq();
        this.recvCq = endpoint.recvCq();
        this.send = send.sendFlags(send.sendFlags() | SendFlags.SIGNALED);
        this.recv = endpoint.newReceive();
        this.rxDepth = rxDepth;
        this.first = first;
        this.writes = writes;
        this.buffer = endpoint.buffer();
        this.lastSentByte = endpoint.lastSentByte();
        this.lastReceivedByte = endpoint.lastReceivedByte();
        this.timeout = new SpinTimeout(timeoutMillis);
    }

    /**
     * The SEND ping-pong.
     *
     * @param endpoint      the endpoint, its queue pair not yet connected.
     * @param rxDepth       receives to keep posted.
     * @param client        whether this side is the client, which sends first.
     * @param timeoutMillis the longest wait for a completion.
     * @return the loop; {@link #postReceives()} before connecting.
     */
    static LatencyPingPong ofSends(
        final PerfEndpoint endpoint, final int rxDepth, final boolean client, final long timeoutMillis)
    {
        return new LatencyPingPong(endpoint, endpoint.newSend(), rxDepth, client, false, timeoutMillis);
    }

    /**
     * The RDMA WRITE ping-pong.
     *
     * @param endpoint      the connected endpoint.
     * @param target        the peer's receive slot.
     * @param client        whether this side is the client (the server writes first).
     * @param timeoutMillis the longest wait for a completion or for the peer's message.
     * @return the loop.
     */
    static LatencyPingPong ofWrites(
        final PerfEndpoint endpoint, final RemoteSlot target, final boolean client, final long timeoutMillis)
    {
        return new LatencyPingPong(endpoint, endpoint.newWrite(target), 0, !client, true, timeoutMillis);
    }

    /**
     * A side of a latency test once connected: the warm-up, the measured loop, the results and what the loop
     * cost.
     *
     * @param run    the connected run.
     * @param warmUp its warm-up.
     * @param size   bytes of each message.
     */
    void measure(final PerfRun run, final WarmUp warmUp, final int size)
    {
        final int iters = run.options().iters();
        final long[] stamps = new long[Math.max(iters, WarmUp.ROUND)];
        warmUp.run((count) -> run(stamps, count));
        final LoopCost cost = new LoopCost();
        cost.time(() -> run(stamps, iters));
        new LatencyResults(stamps, iters).print(run.out(), size, iters);
        run.printCost(cost, warmUp, iters);
        run.profile((count) -> run(stamps, count));
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
        if (first)
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
        if (writes)
        {
            buffer.putByte(lastSentByte, (byte)(sent + 1));
        }
        qp.postSend(send);
        await(sendCq, sendWc);
        sent++;
    }

    private void receive()
    {
        if (writes)
        {
            awaitWrite((byte)(received + 1));
            received++;
            return;
        }
        await(recvCq, recvWc);
        received++;
        qp.postRecv(recv);
    }

    private void awaitWrite(final byte count)
    {
        if (buffer.getByteVolatile(lastReceivedByte) == count)
        {
            return;
        }
        timeout.reset();
        while (buffer.getByteVolatile(lastReceivedByte) != count)
        {
            if (!timeout.spin())
            {
                throw timedOut(false);
            }
        }
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
            isSend ? (writes ? "an RDMA WRITE" : "a send") : "a receive of the peer's message", wc.status(),
            wc.status().value(), sent, received));
    }

    private IllegalStateException timedOut(final boolean isSend)
    {
        return new IllegalStateException(String.format(
            "nothing within %d ms while awaiting %s (%d messages sent, %d received; QP 0x%06x %s): " +
            "has the peer gone, or was it given another -n/--iters?", timeout.timeoutMillis(),
            isSend ? "the completion of our " + (writes ? "RDMA WRITE" : "send") :
            writes ? "the peer's RDMA WRITE of message " + (received + 1) : "the peer's message",
            sent, received, qp.qpNum(), qp.state()));
    }
}
