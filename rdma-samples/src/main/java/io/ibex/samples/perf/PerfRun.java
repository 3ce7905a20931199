package io.ibex.samples.perf;

import io.ibex.rdma.verbs.Device;
import io.ibex.samples.DeviceOptions;
import io.ibex.samples.EndpointAddress;
import io.ibex.samples.verbs.OutOfBandPeer;
import org.agrona.CloseHelper;

import java.io.PrintWriter;

/**
 * What {@code ibex send-lat} and {@code ibex send-bw} do around their loops, in perftest's order: open the
 * endpoint, connect out of band (the server prints its banner once it listens), print the test and both
 * addresses, warm up in step with the peer over the out-of-band connection, and after the results what the
 * measured loop cost.
 */
final class PerfRun implements AutoCloseable
{
    private final PrintWriter out;
    private final PerfOptions options;
    private final Device device;
    private final PerfEndpoint endpoint;
    private OutOfBandPeer peer;

    private PerfRun(final PrintWriter out, final PerfOptions options, final Device device, final PerfEndpoint endpoint)
    {
        this.out = out;
        this.options = options;
        this.device = device;
        this.endpoint = endpoint;
    }

    /**
     * Opens the device and the endpoint; the options were checked.
     *
     * @param out           where to print.
     * @param deviceOptions the provider, device and port.
     * @param options       the shared options.
     * @param size          bytes of each message.
     * @param txDepth       outstanding sends.
     * @param rxDepth       outstanding receives.
     * @return the run; close it to release everything.
     */
    static PerfRun open(
        final PrintWriter out,
        final DeviceOptions deviceOptions,
        final PerfOptions options,
        final int size,
        final int txDepth,
        final int rxDepth)
    {
        final Device device = deviceOptions.device(deviceOptions.provider());
        final PerfEndpoint endpoint = PerfEndpoint.open(device, deviceOptions.portNum(), options.gidIndex(), size,
            txDepth, rxDepth, options.inlineSize());
        return new PerfRun(out, options, device, endpoint);
    }

    /** @return the endpoint. */
    PerfEndpoint endpoint()
    {
        return endpoint;
    }

    /** @return whether this side is the client. */
    boolean isClient()
    {
        return options.outOfBand().isClient();
    }

    /**
     * Connects to the peer out of band, then prints the test and both addresses.
     *
     * @param title    the test's title, e.g. "Send Latency Test".
     * @param depths   the depth lines.
     * @param unit     what an iteration is, e.g. "iterations", "messages".
     * @param multiple a warm-up round's iterations are a multiple of this.
     * @return the warm-up, in step with the peer's.
     */
    WarmUp connect(final String title, final String[] depths, final String unit, final int multiple)
    {
        final EndpointAddress local = endpoint.address();
        peer = options.outOfBand().meet(local, endpoint::connect, () ->
        {
            if (!isClient())
            {
                PerfHeader.printWaiting(out);
            }
        });
        final WarmUp warmUp = new WarmUp(peer.connection(), options.warmup(), multiple);
        PerfHeader.printTest(out, title, device, endpoint.port(), depths, options.gidIndex(), options.inlineSize(),
            warmUp.plan(unit));
        PerfHeader.printAddresses(out, local, peer.address());
        return warmUp;
    }

    /**
     * Prints what the measured loop cost and how the warm-up went (ibex only), after the results.
     *
     * @param cost       the measured loop's cost.
     * @param warmUp     the warm-up.
     * @param iterations the iterations measured.
     */
    void printCost(final LoopCost cost, final WarmUp warmUp, final int iterations)
    {
        cost.print(out, iterations);
        out.println(" ibex: warm-up: " + warmUp.describe());
        out.flush();
    }

    /**
     * Closes the out-of-band connection and releases the endpoint.
     */
    @Override
    public void close()
    {
        CloseHelper.closeAll(peer, endpoint);
    }
}
