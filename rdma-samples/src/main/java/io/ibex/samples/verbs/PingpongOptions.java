package io.ibex.samples.verbs;

import io.ibex.rdma.verbs.Device;
import io.ibex.samples.DeviceOptions;
import io.ibex.samples.EndpointAddress;
import io.ibex.samples.EndpointResources;
import picocli.CommandLine.Option;
import picocli.CommandLine.Mixin;

import java.io.PrintWriter;
import java.util.List;
import java.util.function.Function;

/**
 * The options {@code ibv_rc_pingpong} and {@code ibv_ud_pingpong} share, with their names and defaults (HOST,
 * {@code -p} and the ibex-only ones in {@link OutOfBandOptions}), and the
 * program they share: open the endpoint, post the receives, exchange addresses over TCP, connect, run the loop,
 * print what the C tools print. The message size ({@code -s}) is each command's own, since its default differs.
 */
public final class PingpongOptions
{
    private static final int LARGEST_SL = 15;

    @Mixin
    private OutOfBandOptions outOfBand;

    @Option(names = { "-r", "--rx-depth" }, paramLabel = "DEPTH", defaultValue = "500",
        description = "Number of receives to post at a time (default: ${DEFAULT-VALUE}).")
    private int rxDepth;

    @Option(names = { "-n", "--iters" }, paramLabel = "ITERS", defaultValue = "1000",
        description = "Number of exchanges (default: ${DEFAULT-VALUE}).")
    private int iters;

    @Option(names = { "-l", "--sl" }, paramLabel = "SL", defaultValue = "0",
        description = "Service level (default: ${DEFAULT-VALUE}).")
    private int sl;

    @Option(names = { "-e", "--events" },
        description = "Sleep on completion events (default: poll).")
    private boolean events;

    @Option(names = { "-g", "--gid-idx" }, paramLabel = "INDEX", defaultValue = "-1",
        description = "Local port GID index (default: none, address by LID; Ethernet ports such as RoCE and " +
            "soft need one, 1 is the IPv4-mapped GID).")
    private int gidIndex;

    @Option(names = { "-c", "--chk" },
        description = "Validate the received buffer (the client zeroes the first byte of every 4 KiB page; " +
            "ibex checks every byte, on both sides).")
    private boolean validate;

    /** @return receives to keep posted. */
    int rxDepth()
    {
        return rxDepth;
    }

    /** @return the service level. */
    int sl()
    {
        return sl;
    }

    /** @return whether completions are awaited as events. */
    boolean events()
    {
        return events;
    }

    /** @return the GID index, or {@link EndpointResources#NO_GID}. */
    int gidIndex()
    {
        return gidIndex;
    }

    /** @return the longest wait for anything, in milliseconds. */
    long timeoutMillis()
    {
        return outOfBand.timeoutMillis();
    }

    /**
     * Checks the options every ping-pong takes, before anything is opened.
     *
     * @throws IllegalArgumentException naming the option and its value.
     */
    void check()
    {
        outOfBand.check();
        if (rxDepth < 1)
        {
            throw new IllegalArgumentException("-r/--rx-depth " + rxDepth + " must be at least 1");
        }
        if (iters < 1)
        {
            throw new IllegalArgumentException("-n/--iters " + iters + " must be at least 1");
        }
        if (sl < 0 || sl > LARGEST_SL)
        {
            throw new IllegalArgumentException("-l/--sl " + sl + " out of range 0.." + LARGEST_SL);
        }
        if (gidIndex < EndpointResources.NO_GID)
        {
            throw new IllegalArgumentException("-g/--gid-idx " + gidIndex +
                ": a GID index is 0 or more (leave -g out to address by LID)");
        }
    }

    /**
     * Runs a ping-pong as the C tools' {@code main} does.
     *
     * @param out           where to print.
     * @param deviceOptions the device and port.
     * @param size          bytes of each message.
     * @param open          opens this side's endpoint on a device, its queue pair in INIT.
     * @param udLocalLine   whether to print the local address as {@code ibv_ud_pingpong} does ({@code "PSN ...:
     *                      GID"}, a colon where {@code ibv_rc_pingpong} has a comma).
     * @return 0; failures are thrown.
     */
    int run(
        final PrintWriter out,
        final DeviceOptions deviceOptions,
        final int size,
        final Function<Device, PingpongEndpoint> open,
        final boolean udLocalLine)
    {
        check();
        final Device device = deviceOptions.device(deviceOptions.provider());
        try (PingpongEndpoint endpoint = open.apply(device))
        {
            final boolean client = outOfBand.isClient();
            Pingpong.fill(endpoint.buffer(), endpoint.messageOffset(), size, false);
            endpoint.pingpong().start();
            final EndpointAddress local = endpoint.address();
            final EndpointAddress remote =
                outOfBand.exchange(local, endpoint::connect, () -> printLocal(out, local, udLocalLine));
            out.println("  remote address: " + remote);
            out.flush();
            if (client && validate)
            {
                Pingpong.fill(endpoint.buffer(), endpoint.messageOffset(), size, true);
            }

            final long nanos = endpoint.pingpong().run(iters, client);
            Pingpong.printResults(out, size, iters, nanos);
            if (validate)
            {
                checkReceived(out, endpoint, size);
            }
        }
        out.flush();
        return 0;
    }

    private static void printLocal(final PrintWriter out, final EndpointAddress local, final boolean udLocalLine)
    {
        final String address = local.toString();
        out.println("  local address:  " + (udLocalLine ? address.replace(", GID ", ": GID ") : address));
        out.flush();
    }

    private static void checkReceived(final PrintWriter out, final PingpongEndpoint endpoint, final int size)
    {
        final List<Integer> invalid = Pingpong.invalidPages(endpoint.buffer(), endpoint.messageOffset(), size);
        for (final int page : invalid)
        {
            out.println("invalid data in page " + page);
        }
        if (!invalid.isEmpty())
        {
            out.flush();
            throw new IllegalStateException("the last message received holds invalid data in " + invalid.size() +
                " of " + ((size + Pingpong.PAGE_SIZE - 1) / Pingpong.PAGE_SIZE) + " pages (-c expects a zero at " +
                "the start of every 4 KiB page and 0x7b elsewhere: did the peer run with -c?)");
        }
    }
}
