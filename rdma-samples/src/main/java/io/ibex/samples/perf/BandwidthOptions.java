package io.ibex.samples.perf;

import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The options {@code ibex send-bw} and {@code ibex write-bw} add to {@link PerfOptions}, with perftest's names,
 * defaults and rules: the message size, the send queue's depth, the CQ moderation and the post list.
 */
public final class BandwidthOptions
{
    /** perftest's MSG_SIZE_CQ_MOD_LIMIT: above it, CQ moderation is off unless asked for. */
    private static final int CQ_MOD_SIZE_LIMIT = 8192;
    private static final int MAX_TX_DEPTH = 15000;
    private static final int MAX_CQ_MOD = 1024;

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

    /**
     * Checks these options against perftest's rules and the ibex loop's (a list never exceeds the send queue).
     *
     * @param iters the {@code -n} value, checked.
     * @throws IllegalArgumentException naming the option and its value.
     */
    void check(final int iters)
    {
        PerfOptions.checkSize(size);
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

    /** @return bytes of each message. */
    int size()
    {
        return size;
    }

    /** @return requests per post. */
    int postList()
    {
        return postList;
    }

    /**
     * @param iters the {@code -n} value.
     * @return the messages outstanding at most: {@code -t}, but no more than {@code -n}, as perftest caps it.
     */
    int txDepth(final int iters)
    {
        return Math.min(txDepth, iters);
    }

    /**
     * @param depth the tx depth in use.
     * @return perftest's CQ moderation: asked for, else the post list, else 100 (1 for large messages); at most
     *         the depth.
     */
    int moderation(final int depth)
    {
        final int asked = cqMod != null ? cqMod : postList > 1 ? postList : size > CQ_MOD_SIZE_LIMIT ? 1 : 100;
        return Math.min(asked, depth);
    }

    /**
     * Prints perftest's notice, before anything else, that a post list sets the CQ moderation unless {@code -Q}
     * is given.
     *
     * @param out where to print.
     */
    void printPostListNotice(final PrintWriter out)
    {
        if (postList > 1 && cqMod == null)
        {
            out.println(PerfHeader.RULE);
            out.println("Post List requested - CQ moderation will be the size of the post list");
        }
    }

    /**
     * @param verb the test's verb as perftest names it: "Send", "RDMA_Write".
     * @return the test's title.
     */
    String title(final String verb)
    {
        return verb + (postList > 1 ? " Post List BW Test" : " BW Test");
    }

    /**
     * @param depth      the depth line of this side, e.g. " TX depth        : 128".
     * @param moderation the CQ moderation.
     * @return the depth lines of the header.
     */
    String[] depthLines(final String depth, final int moderation)
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
