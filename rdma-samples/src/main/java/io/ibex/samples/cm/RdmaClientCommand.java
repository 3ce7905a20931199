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
 * {@code ibex rdma-client}: librdmacm's {@code rdma_client}. Resolves the server, posts a 16-byte receive,
 * connects in the TCP port space (RC), sends a 16-byte message, awaits the server's and disconnects. Pairs
 * with {@code rdma_server} and {@code ibex rdma-server}.
 */
@Command(
    name = "rdma-client",
    mixinStandardHelpOptions = true,
    description = "librdmacm's rdma_client: connect to an rdma_server through rdma_cm (RC), send a 16-byte " +
        "message, receive one back.")
public final class RdmaClientCommand implements Callable<Integer>
{
    @Option(names = "-s", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
        description = "The server's address (default: ${DEFAULT-VALUE}).")
    private String server;

    @Option(names = "-p", paramLabel = "PORT", defaultValue = "7471",
        description = "The server's port (default: ${DEFAULT-VALUE}).")
    private int port;

    @Mixin
    private CmOptions options;

    @Spec
    private CommandSpec spec;

    /**
     * Runs the client.
     *
     * @return 0 once the exchange is done; failures are thrown and reported by the ibex command.
     */
    @Override
    public Integer call()
    {
        final InetSocketAddress destination = Arguments.address("-s", server, "-p", port);
        MessageExchange.run("rdma-client", options, spec.commandLine().getOut(), (cm, resources) ->
        {
            final CmId id = resources.push(cm.channel().createId(PortSpace.TCP));
            cm.resolve(id, null, destination);
            final MessageExchange exchange = MessageExchange.create(id, cm, resources);
            exchange.postReceive();
            cm.connect(id, ConnParam.of(null));
            exchange.send("the completion of the message");
            final int received = exchange.awaitReceive("the server's reply");
            id.disconnect();
            return "sent " + MessageExchange.MESSAGE_LENGTH + " bytes to " + id.remoteAddress() + ", received " +
                received;
        });
        return 0;
    }
}
