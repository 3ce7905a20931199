package io.ibex.samples.perf;

import io.ibex.samples.DeviceOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * {@code ibex send-lat}: perftest's {@code ib_send_lat} over the verbs API, with its options, defaults and
 * result lines: an RC SEND ping-pong whose half round trips make an HdrHistogram. Both sides measure and print;
 * the out-of-band exchange is the rdma-core ping-pongs', so it pairs with itself, not with {@code ib_send_lat}.
 */
@Command(
    name = "send-lat",
    mixinStandardHelpOptions = true,
    description = {
        "RC SEND latency, as perftest's ib_send_lat: without HOST, wait for a client; with HOST, connect to the " +
            "server there. Give both sides the same -s, -n and --warmup.",
        "Prints t_min, t_max, t_typical (median), t_avg, t_stdev and the 99 and 99.9 percentiles of half round " +
            "trips, measured with System.nanoTime after a warm-up."
    })
public final class SendLatCommand implements Callable<Integer>
{
    /** perftest's latency tests post one send at a time. */
    static final int TX_DEPTH = 1;
    private static final String TITLE = "Send Latency Test";

    @Mixin
    private DeviceOptions deviceOptions;

    @Mixin
    private PerfOptions options;

    @Option(names = { "-s", "--size" }, paramLabel = "SIZE", defaultValue = "2",
        description = "Size of message to exchange (default ${DEFAULT-VALUE}).")
    private int size;

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
        PerfOptions.checkSize(size);
        final PrintWriter out = spec.commandLine().getOut();
        final int rxDepth = options.rxDepth();
        try (PerfRun run = PerfRun.open(out, deviceOptions, options, size, TX_DEPTH, rxDepth, 0))
        {
            final LatencyPingPong pingPong =
                LatencyPingPong.ofSends(run.endpoint(), rxDepth, run.isClient(), options.timeoutMillis());
            pingPong.postReceives();
            final WarmUp warmUp = run.connect(TITLE,
                new String[] { " TX depth        : " + TX_DEPTH, " RX depth        : " + rxDepth }, "iterations", 1);
            pingPong.measure(run, warmUp, size);
        }
        return 0;
    }
}
