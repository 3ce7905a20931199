package io.ibex.samples.verbs;

import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.Device;
import io.ibex.rdma.verbs.Mtu;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.samples.DeviceOptions;
import io.ibex.samples.EndpointResources;
import io.ibex.samples.RcEndpoint;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/**
 * {@code ibex rc-pingpong}: {@code ibv_rc_pingpong} of rdma-core 44, with its options, its output lines and its
 * TCP exchange byte for byte, so it pairs with the C tool in either role. The extensions the ibex API has no
 * equivalent for ({@code -o}, {@code -O}, {@code -P}, {@code -t}, {@code -j}, {@code -N}) are refused by name.
 */
@Command(
    name = "rc-pingpong",
    mixinStandardHelpOptions = true,
    description = {
        "Ping-pong SENDs over an RC queue pair set up out of band, as ibv_rc_pingpong: without HOST, wait for a " +
            "client; with HOST, connect to the server there.",
        "Pairs with ibv_rc_pingpong in either role."
    })
public final class RcPingpongCommand implements Callable<Integer>
{
    private static final int SEND_DEPTH = 1;

    @Mixin
    private DeviceOptions deviceOptions;

    @Mixin
    private PingpongOptions options;

    @Option(names = { "-s", "--size" }, paramLabel = "SIZE", defaultValue = "4096",
        description = "Size of message to exchange (default: ${DEFAULT-VALUE}).")
    private long size;

    @Option(names = { "-m", "--mtu" }, paramLabel = "SIZE", defaultValue = "1024",
        description = "Path MTU: 256, 512, 1024, 2048 or 4096 (default: ${DEFAULT-VALUE}).")
    private int mtu;

    @Option(names = { "-o", "--odp" }, description = "Not supported: the ibex API has no on-demand paging.")
    private boolean odp;

    @Option(names = { "-O", "--iodp" }, description = "Not supported: the ibex API has no on-demand paging.")
    private boolean implicitOdp;

    @Option(names = { "-P", "--prefetch" }, description = "Not supported: the ibex API has no on-demand paging.")
    private boolean prefetch;

    @Option(names = { "-t", "--ts" }, description = "Not supported: the ibex API has no completion timestamps.")
    private boolean timestamps;

    @Option(names = { "-j", "--dm" }, description = "Not supported: the ibex API has no device memory.")
    private boolean deviceMemory;

    @Option(names = { "-N", "--new_send" },
        description = "Not supported: the ibex API has one post-send interface (ibv_post_send's).")
    private boolean newSend;

    @Spec
    private CommandSpec spec;

    /**
     * Runs the ping-pong.
     *
     * @return 0 when every message went both ways (and, with -c, arrived intact); failures are thrown.
     */
    @Override
    public Integer call()
    {
        refuseUnsupported();
        final Mtu pathMtu = pathMtu(mtu);
        final int messageSize = checkedSize(size);
        return options.run(spec.commandLine().getOut(), deviceOptions, messageSize,
            (device) -> open(device, messageSize, pathMtu), false);
    }

    private void refuseUnsupported()
    {
        refuse(odp, "-o/--odp (on-demand paging)");
        refuse(implicitOdp, "-O/--iodp (implicit on-demand paging)");
        refuse(prefetch, "-P/--prefetch (prefetching an on-demand-paging MR)");
        refuse(timestamps, "-t/--ts (completion timestamps)");
        refuse(deviceMemory, "-j/--dm (device memory)");
        refuse(newSend, "-N/--new_send (the ibv_wr_* send API)");
    }

    private static Mtu pathMtu(final int bytes)
    {
        try
        {
            return Mtu.ofBytes(bytes);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("-m/--mtu: " + ex.getMessage(), ex);
        }
    }

    private static void refuse(final boolean given, final String option)
    {
        if (given)
        {
            throw new IllegalArgumentException(option + " is not supported: the ibex verbs API has no such feature");
        }
    }

    /**
     * @param size the {@code -s} value.
     * @return it as a buffer length.
     * @throws IllegalArgumentException if it is 0 or more than a Java buffer holds.
     */
    static int checkedSize(final long size)
    {
        if (size < 1 || size > Integer.MAX_VALUE - UdEndpoint.GRH_LENGTH)
        {
            throw new IllegalArgumentException("-s/--size " + size + " out of range 1.." +
                (Integer.MAX_VALUE - UdEndpoint.GRH_LENGTH));
        }
        return (int)size;
    }

    private PingpongEndpoint open(final Device device, final int size, final Mtu pathMtu)
    {
        final EndpointResources resources = EndpointResources.open(device, deviceOptions.portNum(),
            options.gidIndex(), size, AccessFlags.LOCAL_WRITE, options.rxDepth() + 1, options.events());
        final long maxMessage = resources.port().maxMsgSz();
        if (size > maxMessage)
        {
            resources.close();
            throw new IllegalArgumentException("-s/--size " + size + " is larger than the largest message of " +
                device.name() + " port " + deviceOptions.portNum() + " (" + maxMessage + " bytes)");
        }
        final RcEndpoint endpoint = RcEndpoint.open(resources, SEND_DEPTH, options.rxDepth(), 0);
        final int sendFlags = endpoint.qp().capabilities().maxInlineData() >= size ?
            SendFlags.SIGNALED | SendFlags.INLINE : SendFlags.SIGNALED;
        final SendWorkRequest send = new SendWorkRequest().opcode(SendOpcode.SEND).sendFlags(sendFlags);
        send.sge(0).set(resources.mr(), 0, size);
        final ReceiveWorkRequest recv = new ReceiveWorkRequest();
        recv.sge(0).set(resources.mr(), 0, size);
        final Pingpong pingpong = new Pingpong(endpoint.qp(), resources.cq(), resources.channel(), send, recv,
            options.rxDepth(), options.timeoutMillis());
        return new PingpongEndpoint(endpoint::address, (remote) -> endpoint.connect(remote, pathMtu, options.sl()),
            pingpong, resources.mr().buffer(), 0, endpoint::close);
    }
}
