package io.ibex.samples.perf;

import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.samples.DeviceOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * {@code ibex write-lat}: perftest's {@code ib_write_lat} over the verbs API, with its options, defaults and
 * result lines: an RC RDMA WRITE ping-pong in which each side watches the last byte of its own buffer for the
 * peer's write ({@link LatencyPingPong#ofWrites}), whose half round trips make an HdrHistogram. Both sides measure
 * and print; the out-of-band exchange is the rdma-core ping-pongs', then the receive slots' ({@link RemoteSlot}),
 * so it pairs with itself, not with {@code ib_write_lat}.
 */
@Command(
    name = "write-lat",
    mixinStandardHelpOptions = true,
    description = {
        "RC RDMA WRITE latency, as perftest's ib_write_lat: without HOST, wait for a client; with HOST, connect " +
            "to the server there. Give both sides the same -s, -n and --warmup.",
        "Prints t_min, t_max, t_typical (median), t_avg, t_stdev and the 99 and 99.9 percentiles of half round " +
            "trips, measured with System.nanoTime after a warm-up."
    })
public final class WriteLatCommand implements Callable<Integer>
{
    private static final String TITLE = "RDMA_Write Latency Test";

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
        try (PerfRun run = PerfRun.open(out, deviceOptions, options, size, SendLatCommand.TX_DEPTH, 1,
            AccessFlags.REMOTE_WRITE))
        {
            final WarmUp warmUp =
                run.connect(TITLE, new String[] { " TX depth        : " + SendLatCommand.TX_DEPTH }, "iterations", 1);
            LatencyPingPong.ofWrites(run.endpoint(), run.remoteSlot(), run.isClient(), options.timeoutMillis())
                .measure(run, warmUp, size);
        }
        return 0;
    }
}
