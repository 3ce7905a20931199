package io.ibex.samples.cm;

import io.ibex.rdma.cm.CmEvent;
import io.ibex.rdma.cm.CmEventType;
import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.cm.ConnParam;
import io.ibex.rdma.cm.PortSpace;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code ibex udaddy}: librdmacm's {@code udaddy}. UD queue pairs of the UDP port space find each other by
 * SIDR: the client resolves, connects, and takes the server's QPN, Q_Key and address from the ESTABLISHED
 * event; it SENDs its messages (immediate data: its QPN), and the server, which learns nothing from SIDR,
 * addresses its replies from the first message's GRH and immediate data. Every receive holds the 40-byte GRH
 * before the message. Same options, defaults and output as udaddy, so each pairs with the C tool in either
 * role; unlike udaddy, every message and reply is checked (see {@link UdaddyNode}).
 */
@Command(
    name = "udaddy",
    mixinStandardHelpOptions = true,
    description = "librdmacm's udaddy: UD datagrams through rdma_cm's UDP port space (SIDR), from client to " +
        "server and back.")
public final class UdaddyCommand implements Callable<Integer>
{
    /** The port udaddy always uses. */
    static final int UDADDY_PORT = 7174;

    @Option(names = "-s", paramLabel = "ADDRESS", description = "Run as the client of the server at this address.")
    private String server;

    @Option(names = "-b", paramLabel = "ADDRESS",
        description = "The local address to bind to (default: every address for the server, any for the client).")
    private String bind;

    @Option(names = "-c", paramLabel = "CONNECTIONS", defaultValue = "1",
        description = "How many UD endpoints to pair (default: ${DEFAULT-VALUE}).")
    private int connections;

    @Option(names = "-C", paramLabel = "COUNT", defaultValue = "10",
        description = "Messages each way per endpoint (default: ${DEFAULT-VALUE}).")
    private int count;

    @Option(names = "-S", paramLabel = "SIZE", defaultValue = "100",
        description = "Bytes of each message, at most the port's active MTU (default: ${DEFAULT-VALUE}).")
    private int size;

    @Option(names = "-p", paramLabel = "PORT_SPACE", defaultValue = "0x0111",
        description = "The port space, as udaddy's -p: only RDMA_PS_UDP (0x0111) (default: ${DEFAULT-VALUE}).")
    private String portSpace;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "" + UDADDY_PORT,
        description = "The server's port; udaddy always uses ${DEFAULT-VALUE} (default: ${DEFAULT-VALUE}).")
    private int port;

    @Mixin
    private CmOptions options;

    @Spec
    private CommandSpec spec;

    /**
     * Runs the server, or the client when {@code -s} names a server.
     *
     * @return 0 when every message went both ways intact; failures are thrown and reported by the ibex command.
     */
    @Override
    public Integer call()
    {
        Arguments.range("-c", connections, 1, Short.MAX_VALUE);
        Arguments.range("-C", count, 0, Short.MAX_VALUE);
        Arguments.range("-S", size, 0, Short.MAX_VALUE);
        checkPortSpace();
        final PrintWriter out = spec.commandLine().getOut();
        if (server != null)
        {
            final InetSocketAddress destination = Arguments.address("-s", server, "--port", port);
            final InetSocketAddress source = bind == null ? null :
                new InetSocketAddress(Arguments.address("-b", bind, "--port", port).getAddress(), 0);
            CmProgram.run(options, event -> { }, (cm, resources) ->
            {
                runClient(cm, resources, source, destination, out);
                out.println("test complete");
            });
        }
        else
        {
            final InetSocketAddress bindTo = Arguments.address("-b", bind != null ? bind : "0.0.0.0", "--port", port);
            CmProgram.run(options, event -> { }, (cm, resources) ->
            {
                runServer(cm, resources, bindTo, out);
                out.println("test complete");
            });
        }
        out.println("return status 0");
        out.flush();
        return 0;
    }

    private void runServer(final CmSequence cm, final ResourceStack resources, final InetSocketAddress bindTo,
        final PrintWriter out)
    {
        out.println("udaddy: starting server");
        final CmId listener = resources.push(cm.channel().createId(PortSpace.UDP));
        cm.listen(listener, bindTo, 0);
        final List<UdaddyNode> nodes = new ArrayList<>();
        while (nodes.size() < connections)
        {
            final CmId id = resources.push(cm.awaitConnectRequest(listener));
            final UdaddyNode node = new UdaddyNode(nodes.size(), id, size, messages(), resources);
            node.init(cm);
            cm.accept(id, ConnParam.of(null));
            nodes.add(node);
        }
        out.flush();
        if (messages() == 0)
        {
            return;
        }
        out.println("receiving data transfers");
        for (final UdaddyNode node : nodes)
        {
            final int client = node.receiveAll("message");
            out.printf("udaddy: node %d: received %d messages of %d bytes from QPN 0x%06x at %s%n",
                node.index(), messages(), size, client, node.replyGid());
        }
        out.println("sending replies");
        for (final UdaddyNode node : nodes)
        {
            node.sendAll(0, true); // udaddy replies with the start of its receive buffer: GRH, then message
        }
        for (final UdaddyNode node : nodes)
        {
            node.awaitSends();
        }
        out.println("data transfers complete");
    }

    private void runClient(final CmSequence cm, final ResourceStack resources, final InetSocketAddress source,
        final InetSocketAddress destination, final PrintWriter out)
    {
        out.println("udaddy: starting client");
        final List<UdaddyNode> nodes = new ArrayList<>();
        out.println("udaddy: connecting");
        out.flush();
        for (int i = 0; i < connections; i++)
        {
            final CmId id = resources.push(cm.channel().createId(PortSpace.UDP));
            nodes.add(new UdaddyNode(i, id, size, messages(), resources));
            id.resolveAddr(source, destination, CmSequence.RESOLVE_TIMEOUT_MILLIS);
        }
        connect(cm, nodes, destination);
        if (messages() == 0)
        {
            return;
        }
        out.println("initiating data transfers");
        for (final UdaddyNode node : nodes)
        {
            node.fillSendSlot();
            node.sendAll(node.sendSlot(), false);
        }
        out.println("receiving data transfers");
        for (final UdaddyNode node : nodes)
        {
            final int serverQpn = node.receiveAll("reply");
            out.printf("udaddy: node %d: received %d replies of %d bytes from QPN 0x%06x, echoing %d bytes sent%n",
                node.index(), messages(), size, serverQpn, node.checkEcho());
        }
        out.println("data transfers complete");
    }

    /** udaddy's event loop: each node resolves its route, creates its QP and connects; ESTABLISHED ends it. */
    private static void connect(final CmSequence cm, final List<UdaddyNode> nodes,
        final InetSocketAddress destination)
    {
        int connecting = nodes.size();
        while (connecting > 0)
        {
            final String awaited = "the connection of " + connecting + " of " + nodes.size() + " endpoints to " +
                destination;
            final CmEvent event = cm.next(awaited);
            final UdaddyNode node = nodeOf(nodes, event.id());
            if (node == null)
            {
                throw CmSequence.unexpected(event, awaited);
            }
            if (event.type() == CmEventType.ADDR_RESOLVED)
            {
                node.id().resolveRoute(CmSequence.RESOLVE_TIMEOUT_MILLIS);
            }
            else if (event.type() == CmEventType.ROUTE_RESOLVED)
            {
                node.init(cm);
                node.id().connect(ConnParam.of(null));
            }
            else if (event.type() == CmEventType.ESTABLISHED)
            {
                node.established(event.ud());
                connecting--;
            }
            else
            {
                throw CmSequence.unexpected(event, awaited);
            }
        }
    }

    /** As udaddy: messages of no bytes are not sent at all. */
    private int messages()
    {
        return size == 0 ? 0 : count;
    }

    private void checkPortSpace()
    {
        final int value;
        try
        {
            value = Integer.decode(portSpace);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("-p " + portSpace + ": not a port space number"); // says it all
        }
        if (value != PortSpace.UDP.value())
        {
            throw new IllegalArgumentException(String.format("-p %s: port space 0x%04x is not supported; ibex " +
                "udaddy uses RDMA_PS_UDP (0x%04x)", portSpace, value, PortSpace.UDP.value()));
        }
    }

    private static UdaddyNode nodeOf(final List<UdaddyNode> nodes, final CmId id)
    {
        for (final UdaddyNode node : nodes)
        {
            if (node.id() == id)
            {
                return node;
            }
        }
        return null;
    }
}
