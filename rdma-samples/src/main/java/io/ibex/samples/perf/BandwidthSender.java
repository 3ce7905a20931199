package io.ibex.samples.perf;

import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.WorkCompletion;

import java.util.function.Supplier;

/**
 * The client's loop of perftest's {@code run_iter_bw} for SEND and RDMA WRITE: keep up to {@code tx-depth} messages
 * outstanding, posting {@code post-list} chained send requests in one {@link QueuePair#postSend} (the
 * vectorized path), signaling one message in {@code cq-mod} (and the last), and polling the send completion
 * queue {@value #POLL_BATCH} completions at a time. Each post and each poll that completes messages reads the
 * clock, as perftest's {@code tposted} and {@code tcompleted}, for the peak and average rates.
 * <p>
 * A request's wr_id is the number of messages sent once it completes, so a completion says how many messages
 * are done (RC completes in order). The loop allocates nothing; every wait is bounded by the timeout.
 */
final class BandwidthSender
{
    /** perftest's CTX_POLL_BATCH. */
    static final int POLL_BATCH = 16;

    private final QueuePair qp;
    private final CompletionQueue sendCq;
    private final SendWorkRequest[] list;
    private final int flags;
    private final int txDepth;
    private final int cqMod;
    private final WorkCompletion[] wcs = new WorkCompletion[POLL_BATCH];
    private final SpinTimeout timeout;
    private int posted;
    private int completed;

    /**
     * @param endpoint      the connected endpoint.
     * @param newRequest    makes one request of a message, unsignaled: {@link PerfEndpoint#newSend},
     *                      {@link PerfEndpoint#newWrite}.
     * @param postList      requests per post.
     * @param txDepth       messages outstanding at most.
     * @param cqMod         one message in this many is signaled.
     * @param timeoutMillis the longest wait for progress.
     */
    BandwidthSender(
        final PerfEndpoint endpoint,
        final Supplier<SendWorkRequest> newRequest,
        final int postList,
        final int txDepth,
        final int cqMod,
        final long timeoutMillis)
    {
        this.qp = endpoint.qp();
        this.sendCq = endpoint.sendCq();
        this.list = new SendWorkRequest[postList];
        for (int i = postList - 1; i >= 0; i--)
        {
            list[i] = newRequest.get().next(i + 1 < postList ? list[i + 1] : null);
        }
        this.flags = list[0].sendFlags();
        this.txDepth = txDepth;
        this.cqMod = cqMod;
        for (int i = 0; i < POLL_BATCH; i++)
        {
            wcs[i] = new WorkCompletion();
        }
        this.timeout = new SpinTimeout(timeoutMillis);
    }

    /**
     * The client's side of a bandwidth test once connected: the warm-up, the measured loop, the results and what
     * the loop cost.
     *
     * @param run        the connected run.
     * @param warmUp     its warm-up.
     * @param bandwidth  the bandwidth options, checked.
     * @param newRequest makes one request of a message, unsignaled.
     */
    static void measure(
        final PerfRun run, final WarmUp warmUp, final BandwidthOptions bandwidth,
        final Supplier<SendWorkRequest> newRequest)
    {
        final int iters = run.options().iters();
        final int postList = bandwidth.postList();
        final int depth = bandwidth.txDepth(iters);
        final int moderation = bandwidth.moderation(depth);
        final BandwidthSender sender = new BandwidthSender(
            run.endpoint(), newRequest, postList, depth, moderation, run.options().timeoutMillis());
        final int length = Math.max(iters, WarmUp.ROUND + postList);
        final long[] postedAt = new long[length];
        final long[] completedAt = new long[length];
        warmUp.run((count) -> sender.run(postedAt, completedAt, count));
        final LoopCost cost = new LoopCost();
        cost.time(() -> sender.run(postedAt, completedAt, iters));
        BandwidthResults.ofSender(bandwidth.size(), iters, postList, moderation, postedAt, completedAt)
            .print(run.out());
        run.printCost(cost, warmUp, iters);
        run.profile((count) -> sender.run(postedAt, completedAt, count));
    }

    /**
     * Sends messages until all of them completed.
     *
     * @param postedAt    where the clock readings at each post go, at the index of the post's first message.
     * @param completedAt where the clock readings at each signaled completion go, at the index of its message.
     * @param count       messages to send, a multiple of the post list and at most the arrays' length.
     */
    void run(final long[] postedAt, final long[] completedAt, final int count)
    {
        posted = 0;
        completed = 0;
        timeout.reset();
        while (completed < count)
        {
            final boolean progress = postWhileRoom(postedAt, count) | reap(completedAt, count);
            if (progress)
            {
                timeout.reset();
            }
            else if (!timeout.spin())
            {
                throw timedOut(count);
            }
        }
    }

    private boolean postWhileRoom(final long[] postedAt, final int count)
    {
        boolean any = false;
        while (posted < count && posted - completed + list.length <= txDepth)
        {
            prepare(count);
            postedAt[posted] = System.nanoTime();
            qp.postSend(list[0]);
            posted += list.length;
            any = true;
        }
        return any;
    }

    /**
     * Numbers the list's requests and signals those perftest signals: message {@code k} when {@code (k + 1)} is a
     * multiple of the CQ moderation, and the last one.
     */
    private void prepare(final int count)
    {
        for (int i = 0; i < list.length; i++)
        {
            final int sentOnce = posted + i + 1;
            list[i].wrId(sentOnce)
                .sendFlags(sentOnce % cqMod == 0 || sentOnce == count ? flags | SendFlags.SIGNALED : flags);
        }
    }

    private boolean reap(final long[] completedAt, final int count)
    {
        final int polled = sendCq.poll(wcs, POLL_BATCH);
        if (polled == 0)
        {
            return false;
        }
        final long now = System.nanoTime();
        for (int i = 0; i < polled; i++)
        {
            final WorkCompletion wc = wcs[i];
            if (!wc.isSuccess())
            {
                throw failed(wc, count);
            }
            completed = (int)wc.wrId();
            completedAt[completed - 1] = now;
        }
        return true;
    }

    private IllegalStateException failed(final WorkCompletion wc, final int count)
    {
        return new IllegalStateException(String.format(
            "a send completed with status %s (%d) (message %d; %d of %d messages posted, %d completed)",
            wc.status(), wc.status().value(), wc.wrId(), posted, count, completed));
    }

    private IllegalStateException timedOut(final int count)
    {
        return new IllegalStateException(String.format(
            "no send completed within %d ms (%d of %d messages posted, %d completed; QP 0x%06x %s): has the peer " +
            "gone, or was it given another -n/--iters?", timeout.timeoutMillis(), posted, count, completed,
            qp.qpNum(), qp.state()));
    }
}
