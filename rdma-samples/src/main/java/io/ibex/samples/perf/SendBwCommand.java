package io.ibex.samples.perf;

import io.ibex.samples.DeviceOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code ibex send-bw}: perftest's {@code ib_send_bw} over the verbs API, with its options, defaults, rules
 * and result lines: the client streams RC SENDs ({@code --post-list} of them chained in one post, the
 * vectorized path), the server receives them. The out-of-band exchange is the rdma-core ping-pongs', so it pairs
 * with itself, not with {@code ib_send_bw}.
 */
@Command(
    name = "send-bw",
    mixinStandardHelpOptions = true,
    description = {
        "RC SEND bandwidth and message rate, as perftest's ib_send_bw: without HOST, receive as the server; with " +
            "HOST, send to the server there. Give both sides the same -s, -n, -l and --warmup.",
        "Prints the peak and average bandwidth (MB/sec of 2^20 bytes) and the message rate (Mpps), timed with " +
            "System.nanoTime after a warm-up."
    })
public final class SendBwCommand implements Callable<Integer>
{
    /** perftest's MAX_SIZE. */
    static final int MAX_SIZE = 1 << 23;
    /** perftest's MSG_SIZE_CQ_MOD_LIMIT: above it, CQ moderation is off unless asked for. */
    private static final int CQ_MOD_SIZE_LIMIT = 8192;
    private static final int MAX_TX_DEPTH = 15000;
    private static final int MAX_CQ_MOD = 1024;

    @Mixin
    private DeviceOptions deviceOptions;

    @Mixin
    private PerfOptions options;

    @Option(names = { "-s", "--size" }, paramLabel = "SIZE", defaultValue = "65536",
        description = "Size of message to exchange (default ${DEFAULT-VALUE}).")
    private int size;

    @Option(names = { "-t", "--tx-depth" }, paramLabel = "DEPTH", defaultValue = "128",
        description = "Size of tx queue (default ${DEFAULT-VALUE}; no more than -n/--iters).")
    private int txDepth;

    @Option(names = { "-Q", "--cq-mod" }, paramLabel = "N",
        description = "Generate Cqe only after <--cq-mod> completion (default 100; the post list with -l; 1 " +
            "above " + CQ_MOD_SIZE_LIMIT + " bytes).")
    private Integer cqMod;

    @Option(names = { "-l", "--post_list", "--post-list" }, paramLabel = "N", defaultValue = "1",
        description = "Post list of send WQEs of <list size> size (instead of single post).")
    private int postList;

    @Spec
    private CommandSpec spec;

    /**
     * Runs the test.
     *
     * @return 0; failures are thrown.
     */
    @Override
    public Integer call()
    {
        options.check();
        checkSize(size);
        final int iters = options.iters();
        checkPostList(iters);
        final int depth = Math.min(txDepth, iters);
        final int moderation = moderation(depth);
        final PrintWriter out = spec.commandLine().getOut();
        if (postList > 1 && cqMod == null)
        {
            out.println(PerfHeader.RULE);
            out.println("Post List requested - CQ moderation will be the size of the post list");
        }
        final int rxDepth = options.rxDepth();
        try (PerfRun run = PerfRun.open(out, deviceOptions, options, size, depth, rxDepth))
        {
            if (run.isClient())
            {
                send(run, out, iters, depth, moderation);
            }
            else
            {
                receive(run, out, iters, rxDepth, moderation);
            }
        }
        return 0;
    }

    private void send(
        final PerfRun run, final PrintWriter out, final int iters, final int depth, final int moderation)
    {
        final BandwidthSender sender =
            new BandwidthSender(run.endpoint(), postList, depth, moderation, options.timeoutMillis());
        final WarmUp warmUp =
            run.connect(title(), depthLines(" TX depth        : " + depth, moderation), "messages", postList);
        final int length = Math.max(iters, WarmUp.ROUND + postList);
        final long[] postedAt = new long[length];
        final long[] completedAt = new long[length];
        warmUp.run((count) -> sender.run(postedAt, completedAt, count));
        final LoopCost cost = new LoopCost();
        cost.start();
        sender.run(postedAt, completedAt, iters);
        cost.stop();
        BandwidthResults.ofSender(size, iters, postList, moderation, postedAt, completedAt).print(out);
        run.printCost(cost, warmUp, iters);
    }

    private void receive(
        final PerfRun run, final PrintWriter out, final int iters, final int rxDepth, final int moderation)
    {
        final BandwidthReceiver receiver = new BandwidthReceiver(run.endpoint(), rxDepth, options.timeoutMillis());
        receiver.postReceives();
        final WarmUp warmUp =
            run.connect(title(), depthLines(" RX depth        : " + rxDepth, moderation), "messages", postList);
        warmUp.run(receiver::run);
        final LoopCost cost = new LoopCost();
        cost.start();
        receiver.run(iters);
        cost.stop();
        BandwidthResults.ofReceiver(size, iters, receiver.firstAt(), receiver.lastAt()).print(out);
        run.printCost(cost, warmUp, iters);
    }

    /**
     * @param size the {@code -s} value.
     * @throws IllegalArgumentException if it is out of perftest's range.
     */
    static void checkSize(final int size)
    {
        if (size < 1 || size > MAX_SIZE)
        {
            throw new IllegalArgumentException("-s/--size " + size + " out of range 1.." + MAX_SIZE);
        }
    }

    /** perftest's rules for a post list, and the ibex loop's: a list never exceeds the send queue. */
    private void checkPostList(final int iters)
    {
        if (postList < 1)
        {
            throw new IllegalArgumentException("-l/--post_list " + postList + " must be at least 1");
        }
        if (iters % postList != 0)
        {
            throw new IllegalArgumentException("-n/--iters " + iters + " must be a multiple of the post list size " +
                "(-l/--post_list " + postList + ")");
        }
        if (txDepth < 1 || txDepth > MAX_TX_DEPTH)
        {
            throw new IllegalArgumentException("-t/--tx-depth " + txDepth + " out of range 1.." + MAX_TX_DEPTH);
        }
        if (Math.min(txDepth, iters) < postList)
        {
            throw new IllegalArgumentException("-l/--post_list " + postList + " is larger than the tx depth " +
                Math.min(txDepth, iters) + " (-t/--tx-depth, at most -n/--iters)");
        }
        if (cqMod != null && (cqMod < 1 || cqMod > MAX_CQ_MOD))
        {
            throw new IllegalArgumentException("-Q/--cq-mod " + cqMod + " out of range 1.." + MAX_CQ_MOD);
        }
        if (postList > 1 && cqMod != null && postList % cqMod != 0)
        {
            throw new IllegalArgumentException("-l/--post_list " + postList + " must be a multiple of the CQ " +
                "moderation (-Q/--cq-mod " + cqMod + ")");
        }
    }

    /** perftest's CQ moderation: asked for, else the post list, else 100 (1 for large messages); at most the depth. */
    private int moderation(final int depth)
    {
        final int asked = cqMod != null ? cqMod : postList > 1 ? postList : size > CQ_MOD_SIZE_LIMIT ? 1 : 100;
        return Math.min(asked, depth);
    }

    private String title()
    {
        return postList > 1 ? "Send Post List BW Test" : "Send BW Test";
    }

    private String[] depthLines(final String depth, final int moderation)
    {
        final List<String> lines = new ArrayList<>();
        lines.add(depth);
        if (postList > 1)
        {
            lines.add(" Post List       : " + postList);
        }
        lines.add(" CQ Moderation   : " + moderation);
        return lines.toArray(new String[0]);
    }
}
