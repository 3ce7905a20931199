package io.ibex.samples.perf;

import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.samples.DeviceOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.function.IntConsumer;

/**
 * {@code ibex write-bw}: perftest's {@code ib_write_bw} over the verbs API, with its options, defaults, rules
 * and result lines: the client streams RC RDMA WRITEs into the server's receive slot ({@code --post-list} of them
 * chained in one post, one in {@code --cq-mod} signaled); the server takes no part in the stream, and, as
 * perftest's, prints no results: it waits for the client's end over the out-of-band connection. The exchange is
 * the rdma-core ping-pongs', then the receive slots' ({@link RemoteSlot}), so it pairs with itself, not with
 * {@code ib_write_bw}.
 */
@Command(
    name = "write-bw",
    mixinStandardHelpOptions = true,
    description = {
        "RC RDMA WRITE bandwidth and message rate, as perftest's ib_write_bw: without HOST, be the server the " +
            "client writes to; with HOST, write to the server there. Give both sides the same -s, -n, -l and " +
            "--warmup.",
        "The client prints the peak and average bandwidth (MB/sec of 2^20 bytes) and the message rate (Mpps), " +
            "timed with System.nanoTime after a warm-up."
    })
public final class WriteBwCommand implements Callable<Integer>
{
    private static final String VERB = "RDMA_Write";

    @Mixin
    private DeviceOptions deviceOptions;

    @Mixin
    private PerfOptions options;

    @Mixin
    private BandwidthOptions bandwidth;

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
        final int iters = options.iters();
        bandwidth.check(iters);
        final int depth = bandwidth.txDepth(iters);
        final PrintWriter out = spec.commandLine().getOut();
        bandwidth.printPostListNotice(out);
        try (PerfRun run = PerfRun.open(out, deviceOptions, options, bandwidth.size(), depth, 1,
            AccessFlags.REMOTE_WRITE))
        {
            final WarmUp warmUp = run.connect(bandwidth.title(VERB),
                bandwidth.depthLines(" TX depth        : " + depth, bandwidth.moderation(depth)), "messages",
                bandwidth.postList());
            if (run.isClient())
            {
                BandwidthSender.measure(run, warmUp, bandwidth, () -> run.endpoint().newWrite(run.remoteSlot()));
                run.awaitPeer("its end of the test");
            }
            else
            {
                // Nothing to do while the client writes: its rounds set the pace, and its end releases ours.
                final IntConsumer idle = (count) ->
                {
                };
                warmUp.run(idle);
                run.profile(idle);
                run.awaitPeer("the client's end of the test (" + iters + " messages)");
                out.println(PerfHeader.RULE);
                run.printWarmUp(warmUp);
            }
        }
        return 0;
    }
}
