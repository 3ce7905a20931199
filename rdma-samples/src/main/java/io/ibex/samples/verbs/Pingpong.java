package io.ibex.samples.verbs;

import io.ibex.rdma.verbs.CompletionChannel;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.WorkCompletion;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The ping-pong loop of {@code ibv_rc_pingpong} and {@code ibv_ud_pingpong}: keep {@code rx-depth} receives
 * posted (reposting when one or none is left), and send the next message once both the previous send and the
 * peer's answer have completed, until {@code iters} messages went each way. The client sends first. Completions
 * are polled (busy, backing off) or, with {@code -e}, awaited as completion-channel events. Every wait is
 * bounded: a peer that disappears gives an error that names what was awaited.
 * <p>
 * The buffer's contents follow the C tools: filled with {@link #FILL}, and with {@code -c} the client zeroes the
 * first byte of every 4 KiB page it sends. ibex checks the whole message against that pattern, not only the
 * first bytes of pages, on both sides.
 */
final class Pingpong
{
    /** wr_id of receives, as the C tools. */
    static final long RECV_WR_ID = 1;
    /** wr_id of sends, as the C tools. */
    static final long SEND_WR_ID = 2;
    /** The byte the C tools fill their buffer with. */
    static final byte FILL = 0x7b;
    /** The page size the C tools' {@code -c} pattern uses ({@code sysconf(_SC_PAGESIZE)} on x86-64 and arm64). */
    static final int PAGE_SIZE = 4096;

    private final QueuePair qp;
    private final CompletionQueue cq;
    private final CompletionChannel channel;
    private final SendWorkRequest send;
    private final ReceiveWorkRequest recv;
    private final int rxDepth;
    private final long timeoutMillis;
    private final WorkCompletion[] wcs = { new WorkCompletion(), new WorkCompletion() };
    private final IdleStrategy idle = new BackoffIdleStrategy();
    private int outstandingReceives;
    private int pending;
    private int sent;
    private int received;

    /**
     * @param qp            the queue pair, in INIT or later.
     * @param cq            its completion queue of sends and receives.
     * @param channel       the completion queue's channel to await events on, or null to poll.
     * @param send          the send to post for each message, built once.
     * @param recv          the receive to post, built once.
     * @param rxDepth       receives to keep posted.
     * @param timeoutMillis how long to wait for each completion.
     */
    Pingpong(
        final QueuePair qp,
        final CompletionQueue cq,
        final CompletionChannel channel,
        final SendWorkRequest send,
        final ReceiveWorkRequest recv,
        final int rxDepth,
        final long timeoutMillis)
    {
        this.qp = qp;
        this.cq = cq;
        this.channel = channel;
        this.send = send.wrId(SEND_WR_ID);
        this.recv = recv.wrId(RECV_WR_ID);
        this.rxDepth = rxDepth;
        this.timeoutMillis = timeoutMillis;
    }

    /**
     * Posts {@code rx-depth} receives, and arms the completion queue in event mode; done before the exchange,
     * so the receives are there before the peer can send.
     */
    void start()
    {
        postReceives(rxDepth);
        if (channel != null)
        {
            cq.requestNotify(false);
        }
    }

    /**
     * Runs the loop.
     *
     * @param iters       messages to send and to receive.
     * @param sendsFirst  whether this side sends the first message (the client).
     * @return the nanoseconds it took, from the first send to the last completion.
     */
    long run(final int iters, final boolean sendsFirst)
    {
        pending = (int)RECV_WR_ID;
        final long start = System.nanoTime();
        if (sendsFirst)
        {
            qp.postSend(send);
            pending |= (int)SEND_WR_ID;
        }
        while (received < iters || sent < iters)
        {
            final int count = awaitCompletions(iters);
            // Once every message went both ways the rest can only be flushed receives of a peer that left.
            for (int i = 0; i < count && (received < iters || sent < iters); i++)
            {
                complete(wcs[i], iters);
            }
        }
        return System.nanoTime() - start;
    }

    private void complete(final WorkCompletion wc, final int iters)
    {
        if (!wc.isSuccess())
        {
            throw new IllegalStateException(String.format(
                "Failed status %s (%d) for wr_id %d (%s; %d of %d messages sent, %d received)",
                wc.status(), wc.status().value(), wc.wrId(),
                wc.wrId() == SEND_WR_ID ? "a send" : "a receive of the peer's message",
                sent, iters, received));
        }
        if (wc.wrId() == SEND_WR_ID)
        {
            sent++;
        }
        else if (wc.wrId() == RECV_WR_ID)
        {
            if (--outstandingReceives <= 1)
            {
                postReceives(rxDepth - outstandingReceives);
            }
            received++;
        }
        else
        {
            throw new IllegalStateException("Completion for unknown wr_id " + wc.wrId());
        }
        pending &= ~(int)wc.wrId();
        if (sent < iters && pending == 0)
        {
            qp.postSend(send);
            pending = (int)(RECV_WR_ID | SEND_WR_ID);
        }
    }

    private int awaitCompletions(final int iters)
    {
        if (channel != null)
        {
            if (channel.getEvent(timeoutMillis) == null)
            {
                throw timedOut(iters);
            }
            cq.requestNotify(false);
            return cq.poll(wcs);
        }
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        int count;
        while ((count = cq.poll(wcs)) == 0)
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw timedOut(iters);
            }
            idle.idle();
        }
        idle.reset();
        return count;
    }

    private void postReceives(final int count)
    {
        for (int i = 0; i < count; i++)
        {
            qp.postRecv(recv);
        }
        outstandingReceives += count;
    }

    private IllegalStateException timedOut(final int iters)
    {
        final String awaited = (pending & RECV_WR_ID) != 0 ? "the peer's message" : "the completion of our send";
        return new IllegalStateException(String.format(
            "no completion within %d ms while awaiting %s (%d of %d messages sent, %d received; QP 0x%06x %s): " +
            "has the peer gone?", timeoutMillis, awaited, sent, iters, received, qp.qpNum(), qp.state()));
    }

    /**
     * Prints the two result lines of the C tools.
     *
     * @param out   where to print.
     * @param size  bytes of each message.
     * @param iters messages each way.
     * @param nanos how long the loop took.
     */
    static void printResults(final PrintWriter out, final int size, final int iters, final long nanos)
    {
        final double usec = nanos / 1000.0;
        final long bytes = (long)size * iters * 2;
        out.printf(Locale.ROOT, "%d bytes in %.2f seconds = %.2f Mbit/sec%n", bytes, usec / 1e6, bytes * 8.0 / usec);
        out.printf(Locale.ROOT, "%d iters in %.2f seconds = %.2f usec/iter%n", iters, usec / 1e6, usec / iters);
    }

    /**
     * Fills a message the way the C tools do: {@link #FILL} everywhere, and with {@code -c} on the client a zero
     * at the start of every page.
     *
     * @param buffer    the registered buffer.
     * @param offset    where the message starts in it.
     * @param size      bytes of the message.
     * @param markPages whether to zero the first byte of every page ({@code -c} on the client).
     */
    static void fill(final ByteBuffer buffer, final int offset, final int size, final boolean markPages)
    {
        for (int i = 0; i < size; i++)
        {
            buffer.put(offset + i, markPages && i % PAGE_SIZE == 0 ? 0 : FILL);
        }
    }

    /**
     * Checks a received message against the {@code -c} pattern of {@link #fill}.
     *
     * @param buffer the registered buffer.
     * @param offset where the message starts in it.
     * @param size   bytes of the message.
     * @return the pages (numbered from 0) holding a byte that differs; empty when all is as sent.
     */
    static List<Integer> invalidPages(final ByteBuffer buffer, final int offset, final int size)
    {
        final List<Integer> pages = new ArrayList<>();
        for (int page = 0; page * PAGE_SIZE < size; page++)
        {
            final int end = Math.min(size, (page + 1) * PAGE_SIZE);
            for (int i = page * PAGE_SIZE; i < end; i++)
            {
                if (buffer.get(offset + i) != (i % PAGE_SIZE == 0 ? 0 : FILL))
                {
                    pages.add(page);
                    break;
                }
            }
        }
        return pages;
    }
}
