package io.ibex.samples.verbs;

import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.Device;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.samples.DeviceOptions;
import io.ibex.samples.EndpointResources;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/**
 * {@code ibex ud-pingpong}: {@code ibv_ud_pingpong} of rdma-core 44, with its options, its output lines and its
 * TCP exchange byte for byte, so it pairs with the C tool in either role. Every receive buffer starts with the
 * 40 bytes the device writes the GRH into; messages are sent from just after them, with Q_Key 0x11111111 through
 * an address handle of the peer.
 */
@Command(
    name = "ud-pingpong",
    mixinStandardHelpOptions = true,
    description = {
        "Ping-pong SENDs over UD queue pairs set up out of band, as ibv_ud_pingpong: without HOST, wait for a " +
            "client; with HOST, connect to the server there.",
        "Pairs with ibv_ud_pingpong in either role."
    })
public final class UdPingpongCommand implements Callable<Integer>
{
    private static final int SEND_DEPTH = 1;

    @Mixin
    private DeviceOptions deviceOptions;

    @Mixin
    private PingpongOptions options;

    // ibv_ud_pingpong's usage text says 2048, but its code (and so its behaviour) uses 1024.
    @Option(names = { "-s", "--size" }, paramLabel = "SIZE", defaultValue = "1024",
        description = "Size of message to exchange, at most the port's active MTU (default: ${DEFAULT-VALUE}).")
    private long size;

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
        final int messageSize = RcPingpongCommand.checkedSize(size);
        return options.run(spec.commandLine().getOut(), deviceOptions, messageSize,
            (device) -> open(device, messageSize), true);
    }

    private PingpongEndpoint open(final Device device, final int size)
    {
        final EndpointResources resources = EndpointResources.open(device, deviceOptions.portNum(),
            options.gidIndex(), size + UdEndpoint.GRH_LENGTH, AccessFlags.LOCAL_WRITE, options.rxDepth() + 1,
            options.events());
        final int mtu = resources.port().activeMtu().bytes();
        if (size > mtu)
        {
            resources.close();
            throw new IllegalArgumentException("-s/--size " + size + " is larger than the active MTU of " +
                device.name() + " port " + deviceOptions.portNum() + " (" + mtu + " bytes): a datagram is one packet");
        }
        final UdEndpoint endpoint = UdEndpoint.open(resources, SEND_DEPTH, options.rxDepth());
        final int sendFlags = endpoint.qp().capabilities().maxInlineData() >= size ?
            SendFlags.SIGNALED | SendFlags.INLINE : SendFlags.SIGNALED;
        final SendWorkRequest send = new SendWorkRequest().opcode(SendOpcode.SEND).sendFlags(sendFlags);
        send.sge(0).set(resources.mr(), UdEndpoint.GRH_LENGTH, size);
        final ReceiveWorkRequest recv = new ReceiveWorkRequest();
        recv.sge(0).set(resources.mr(), 0, size + UdEndpoint.GRH_LENGTH);
        final Pingpong pingpong = new Pingpong(endpoint.qp(), resources.cq(), resources.channel(), send, recv,
            options.rxDepth(), options.timeoutMillis());
        return new PingpongEndpoint(endpoint::address, (remote) ->
            {
                endpoint.connect(remote, options.sl());
                send.ud(endpoint.ah(), remote.qpNum(), UdEndpoint.QKEY);
            },
            pingpong, resources.mr().buffer(), UdEndpoint.GRH_LENGTH, endpoint::close);
    }
}
