package io.ibex.samples.perf;

import io.ibex.samples.DeviceOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
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
    private static final String VERB = "Send";

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
        final int moderation = bandwidth.moderation(depth);
        final PrintWriter out = spec.commandLine().getOut();
        bandwidth.printPostListNotice(out);
        final int rxDepth = options.rxDepth();
        try (PerfRun run = PerfRun.open(out, deviceOptions, options, bandwidth.size(), depth, rxDepth, 0))
        {
            if (run.isClient())
            {
                final WarmUp warmUp = run.connect(bandwidth.title(VERB),
                    bandwidth.depthLines(" TX depth        : " + depth, moderation), "messages", bandwidth.postList());
                BandwidthSender.measure(run, warmUp, bandwidth, run.endpoint()::newSend);
            }
            else
            {
                receive(run, out, iters, rxDepth, moderation);
            }
        }
        return 0;
    }

    private void receive(
        final PerfRun run, final PrintWriter out, final int iters, final int rxDepth, final int moderation)
    {
        final BandwidthReceiver receiver = new BandwidthReceiver(run.endpoint(), rxDepth, options.timeoutMillis());
        receiver.postReceives();
        final WarmUp warmUp = run.connect(bandwidth.title(VERB),
            bandwidth.depthLines(" RX depth        : " + rxDepth, moderation), "messages", bandwidth.postList());
        warmUp.run(receiver::run);
        final LoopCost cost = new LoopCost();
        cost.time(() -> receiver.run(iters));
        BandwidthResults.ofReceiver(bandwidth.size(), iters, receiver.firstAt(), receiver.lastAt()).print(out);
        run.printCost(cost, warmUp, iters);
        run.profile(receiver::run);
    }
}
