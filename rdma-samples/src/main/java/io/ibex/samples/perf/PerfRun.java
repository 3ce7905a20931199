package io.ibex.samples.perf;

import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.Device;
import io.ibex.samples.DeviceOptions;
import io.ibex.samples.EndpointAddress;
import io.ibex.samples.verbs.OutOfBandPeer;
import org.agrona.CloseHelper;

import java.io.PrintWriter;
import java.util.function.IntConsumer;

/**
 * What the perftest-like commands do around their loops, in perftest's order: open the endpoint, connect out of
 * band (the server prints its banner once it listens; the WRITE tests then exchange their receive slots over the
 * same connection), print the test and both addresses, warm up in step with the peer over the out-of-band
 * connection, and after the results what the measured loop cost and, with {@code --jfr}, the profile's rounds.
 */
final class PerfRun implements AutoCloseable
{
    private final PrintWriter out;
    private final PerfOptions options;
    private final Device device;
    private final PerfEndpoint endpoint;
    private final boolean writes;
    private OutOfBandPeer peer;
    private RemoteSlot remoteSlot;
    private ProfileRounds profileRounds;

    private PerfRun(
        final PrintWriter out,
        final PerfOptions options,
        final Device device,
        final PerfEndpoint endpoint,
        final boolean writes)
    {
        this.out = out;
        this.options = options;
        this.device = device;
        this.endpoint = endpoint;
        this.writes = writes;
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
     * @param remote        what the peer may do to the buffer: 0, or {@link AccessFlags#REMOTE_WRITE} for the
     *                      WRITE tests, which exchange their receive slots once connected.
     * @return the run; close it to release everything.
     */
    static PerfRun open(
        final PrintWriter out,
        final DeviceOptions deviceOptions,
        final PerfOptions options,
        final int size,
        final int txDepth,
        final int rxDepth,
        final int remote)
    {
        final Device device = deviceOptions.device(deviceOptions.provider());
        final PerfEndpoint endpoint = PerfEndpoint.open(device, deviceOptions.portNum(), options.gidIndex(), size,
            txDepth, rxDepth, options.inlineSize(), remote);
        return new PerfRun(out, options, device, endpoint, (remote & AccessFlags.REMOTE_WRITE) != 0);
    }

    /** @return the endpoint. */
    PerfEndpoint endpoint()
    {
        return endpoint;
    }

    /** @return the options, checked. */
    PerfOptions options()
    {
        return options;
    }

    /** @return where to print. */
    PrintWriter out()
    {
        return out;
    }

    /** @return the peer's receive slot, once connected (WRITE tests only). */
    RemoteSlot remoteSlot()
    {
        return remoteSlot;
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
        final RemoteSlot localSlot = writes ? endpoint.receiveSlot() : null;
        if (writes)
        {
            remoteSlot = RemoteSlot.exchange(peer.connection(), localSlot);
        }
        final WarmUp warmUp = new WarmUp(peer.connection(), options.warmup(), multiple);
        profileRounds = new ProfileRounds(peer.connection(), options.jfr(), options.jfrRounds());
        PerfHeader.printTest(out, title, device, endpoint.port(), depths, options.gidIndex(), options.inlineSize(),
            warmUp.plan(unit));
        PerfHeader.printAddresses(out, local, localSlot, peer.address(), remoteSlot);
        return warmUp;
    }

    /**
     * After the results: the rounds of the measured loop a side's {@code --jfr} records ({@link ProfileRounds}),
     * in step with the peer, then a line that says so; none when neither side has {@code --jfr}.
     *
     * @param loop runs the loop for the given iterations, the measured loop.
     */
    void profile(final IntConsumer loop)
    {
        final int rounds = profileRounds.run(loop, options.iters());
        if (rounds > 0)
        {
            out.println(" ibex: profile: " + rounds + " rounds of " + options.iters() + " iterations after the " +
                "measured ones, " + (options.jfr() != null ? "recorded into " + options.jfr() :
                "as the peer's --jfr asked, not recorded here"));
            out.flush();
        }
    }

    /**
     * Waits until the peer is done too, as perftest's closing handshake: each side tells the other over the
     * out-of-band connection. The WRITE bandwidth test's server, which takes no part in the stream, waits so for
     * the client's end before it releases its buffer.
     *
     * @param what what this side waits for, for the error should the peer not answer.
     */
    void awaitPeer(final String what)
    {
        final byte[] done = { 'd' };
        peer.connection().write(done, "our end of the test");
        peer.connection().readFully(done, what);
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
        printWarmUp(warmUp);
    }

    /**
     * Prints how the warm-up went (ibex only).
     *
     * @param warmUp the warm-up.
     */
    void printWarmUp(final WarmUp warmUp)
    {
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
