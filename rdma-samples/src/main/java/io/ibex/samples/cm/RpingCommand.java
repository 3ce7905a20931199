package io.ibex.samples.cm;

import io.ibex.rdma.cm.CmEvent;
import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.cm.ConnParam;
import io.ibex.rdma.cm.PortSpace;
import io.ibex.rdma.verbs.MemoryRegion;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * {@code ibex rping}: librdmacm's {@code rping}. The client advertises its source buffer (address, rkey and
 * size, big-endian, in a 16-byte SEND); the server RDMA READs it and answers "go ahead"; the client advertises
 * its sink buffer; the server RDMA WRITEs the ping data into it and answers "go ahead"; the client compares
 * ({@code -V}) and prints ({@code -v}) what came back. Same options, defaults, messages and output lines as
 * rping, so each pairs with the C tool in either role.
 */
@Command(
    name = "rping",
    description = "librdmacm's rping: RDMA ping-pong through rdma_cm (RC), the server RDMA-READing the " +
        "client's ping data and RDMA-WRITing it back.")
public final class RpingCommand implements Callable<Integer>
{
    @Option(names = "-s", description = "Run as the server.")
    private boolean server;

    @Option(names = "-c", description = "Run as the client.")
    private boolean client;

    @Option(names = "-a", paramLabel = "ADDRESS",
        description = "Server: the address to listen on (default: every address). Client: the server's address.")
    private String address;

    @Option(names = "-I", paramLabel = "ADDRESS", description = "Client: the source address to bind to.")
    private String sourceAddress;

    @Option(names = "-p", paramLabel = "PORT", defaultValue = "7174",
        description = "The server's port (default: ${DEFAULT-VALUE}).")
    private int port;

    @Option(names = "-C", paramLabel = "COUNT", defaultValue = "0",
        description = "Client: ping this many times (default: 0, for ever). Server: fail unless the client " +
            "pinged this many times.")
    private int count;

    @Option(names = "-S", paramLabel = "SIZE", defaultValue = "" + RpingPattern.DEFAULT_SIZE,
        description = "Bytes of ping data, " + RpingPattern.MIN_SIZE + ".." + RpingPattern.MAX_SIZE +
            " (default: ${DEFAULT-VALUE}).")
    private int size;

    @Option(names = "-v", description = "Print the ping data.")
    private boolean verbose;

    @Option(names = "-V", description = "Validate the ping data.")
    private boolean validate;

    // rping's -V is validate, so not picocli's standard -V (version): help only
    @Option(names = { "-h", "--help" }, usageHelp = true, description = "Show this help message and exit.")
    private boolean help;

    @Option(names = "-d", description = "Print debug information.")
    private boolean debug;

    @Mixin
    private CmOptions options;

    @Spec
    private CommandSpec spec;

    /**
     * Runs the server or the client.
     *
     * @return 0 when done; failures are thrown and reported by the ibex command.
     */
    @Override
    public Integer call()
    {
        if (server == client)
        {
            throw new IllegalArgumentException("exactly one of -s (server) and -c (client) is required");
        }
        Arguments.range("-S", size, RpingPattern.MIN_SIZE, RpingPattern.MAX_SIZE);
        Arguments.range("-C", count, 0, Integer.MAX_VALUE);
        final PrintWriter out = spec.commandLine().getOut();
        final Consumer<String> debugLog = debug ? out::println : line -> { };
        final Consumer<CmEvent> eventLog = event -> debugLog.accept(
            "cma_event type RDMA_CM_EVENT_" + event.type() + ", status " + event.status());
        if (server)
        {
            final InetSocketAddress bindTo = bindAddress();
            CmProgram.run(options, eventLog, (cm, resources) -> runServer(cm, resources, bindTo, out, debugLog));
        }
        else
        {
            final InetSocketAddress destination = serverAddress();
            final InetSocketAddress source = sourceAddress == null ? null :
                new InetSocketAddress(Arguments.address("-I", sourceAddress, "-p", port).getAddress(), 0);
            CmProgram.run(options, eventLog,
                (cm, resources) -> runClient(cm, resources, source, destination, out, debugLog));
        }
        out.flush();
        return 0;
    }

    private InetSocketAddress bindAddress()
    {
        if (sourceAddress != null)
        {
            throw new IllegalArgumentException("-I " + sourceAddress + ": only the client binds a source address");
        }
        return Arguments.address("-a", address != null ? address : "0.0.0.0", "-p", port);
    }

    private InetSocketAddress serverAddress()
    {
        if (address == null)
        {
            throw new IllegalArgumentException("the client needs the server's address: -a ADDRESS");
        }
        return Arguments.address("-a", address, "-p", port);
    }

    private void runServer(final CmSequence cm, final ResourceStack resources, final InetSocketAddress bindTo,
        final PrintWriter out, final Consumer<String> debugLog)
    {
        final CmId listener = resources.push(cm.channel().createId(PortSpace.TCP));
        cm.listen(listener, bindTo, 3);
        debugLog.accept("rdma_listen");
        final CmId id = resources.push(cm.awaitConnectRequest(listener));
        final RpingEndpoint endpoint = RpingEndpoint.create(id, size, cm, resources, debugLog);
        endpoint.postReceive();
        debugLog.accept("accepting client connection request");
        cm.accept(id, ConnParam.of(null));
        final int pings = new RpingServer(endpoint, size, verbose, validate, out, debugLog).serve();
        debugLog.accept("server DISCONNECT EVENT... after " + pings + " pings");
        if (count != 0 && pings != count)
        {
            throw new IllegalStateException("the client disconnected after " + pings + " pings, expected " +
                count + " (-C " + count + ")");
        }
        id.disconnect();
    }

    private void runClient(final CmSequence cm, final ResourceStack resources, final InetSocketAddress source,
        final InetSocketAddress destination, final PrintWriter out, final Consumer<String> debugLog)
    {
        final CmId id = resources.push(cm.channel().createId(PortSpace.TCP));
        cm.resolve(id, source, destination);
        final RpingEndpoint endpoint = RpingEndpoint.create(id, size, cm, resources, debugLog);
        final MemoryRegion sourceBuffer = endpoint.registerBuffer(size, resources);
        endpoint.postReceive();
        cm.connect(id, ConnParam.of(null));
        debugLog.accept("rdma_connect successful");
        new RpingClient(endpoint, sourceBuffer, size, verbose, validate, out).ping(count);
        id.disconnect();
    }
}
