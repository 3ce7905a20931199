package io.ibex.samples.cm;

import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.cm.ConnParam;
import io.ibex.rdma.cm.PortSpace;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.net.InetSocketAddress;
import java.util.concurrent.Callable;

/**
 * {@code ibex rdma-server}: librdmacm's {@code rdma_server}. Listens in the TCP port space (RC), posts a
 * 16-byte receive, accepts one connection, awaits the client's 16-byte message, answers with its own and
 * disconnects. Pairs with {@code rdma_client} and {@code ibex rdma-client}.
 */
@Command(
    name = "rdma-server",
    mixinStandardHelpOptions = true,
    description = "librdmacm's rdma_server: accept one RC connection through rdma_cm, receive a 16-byte " +
        "message, send one back.")
public final class RdmaServerCommand implements Callable<Integer>
{
    @Option(names = "-s", paramLabel = "ADDRESS", defaultValue = "0.0.0.0",
        description = "Listen on this address (default: ${DEFAULT-VALUE}, every address).")
    private String address;

    @Option(names = "-p", paramLabel = "PORT", defaultValue = "7471",
        description = "Listen on this port (default: ${DEFAULT-VALUE}).")
    private int port;

    @Mixin
    private CmOptions options;

    @Spec
    private CommandSpec spec;

    /**
     * Runs the server.
     *
     * @return 0 once the exchange is done; failures are thrown and reported by the ibex command.
     */
    @Override
    public Integer call()
    {
        final InetSocketAddress bindTo = Arguments.address("-s", address, "-p", port);
        MessageExchange.run("rdma-server", options, spec.commandLine().getOut(), (cm, resources) ->
        {
            final CmId listener = resources.push(cm.channel().createId(PortSpace.TCP));
            cm.listen(listener, bindTo, 0);
            final CmId id = resources.push(cm.awaitConnectRequest(listener));
            final MessageExchange exchange = MessageExchange.create(id, cm, resources);
            exchange.postReceive();
            cm.accept(id, ConnParam.of(null));
            final int received = exchange.awaitReceive("the client's message");
            exchange.send("the completion of the reply");
            id.disconnect();
            return "received " + received + " bytes from " + id.remoteAddress() + ", sent " +
                MessageExchange.MESSAGE_LENGTH;
        });
        return 0;
    }
}
