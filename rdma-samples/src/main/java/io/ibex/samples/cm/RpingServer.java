package io.ibex.samples.cm;

import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.util.function.Consumer;

/**
 * The server loop of rping ({@code rping_test_server}) on a connected endpoint: for each ping, await the
 * client's source buffer, RDMA READ it, send "go ahead", await the client's sink buffer, RDMA WRITE the ping
 * data (up to and including its NUL) into it, send "go ahead" again. The loop ends when the client
 * disconnects between two pings.
 */
final class RpingServer
{
    private final RpingEndpoint endpoint;
    private final int size;
    private final boolean verbose;
    private final boolean validate;
    private final PrintWriter out;
    private final Consumer<String> debug;

    /**
     * @param endpoint the connected endpoint, its receive posted.
     * @param size     bytes of its RDMA buffer: the largest source buffer it can read.
     * @param verbose  print each ping's data, as rping {@code -v}.
     * @param validate check each ping's data is rping's pattern (the C server does not).
     * @param out      where the ping data goes.
     * @param debug    takes rping's debug lines, or ignores them.
     */
    RpingServer(
        final RpingEndpoint endpoint,
        final int size,
        final boolean verbose,
        final boolean validate,
        final PrintWriter out,
        final Consumer<String> debug)
    {
        this.endpoint = endpoint;
        this.size = size;
        this.verbose = verbose;
        this.validate = validate;
        this.out = out;
        this.debug = debug;
    }

    /**
     * Serves pings until the client disconnects between two of them.
     *
     * @return how many pings were served.
     * @throws IllegalStateException if the client's messages do not parse or fit, its data is not rping's
     *                               (with validation), or it disconnects in the middle of a ping.
     */
    int serve()
    {
        final ByteBuffer data = endpoint.rdmaBuffer().buffer();
        for (int ping = 0; ; ping++)
        {
            try
            {
                awaitAdvertisement("the client's source buffer (ping " + ping + ")");
            }
            catch (final PeerDisconnectedException ex)
            {
                return ping; // the C server ends the same way, whatever -C says
            }
            if (endpoint.remoteLength() > size)
            {
                throw new IllegalStateException(String.format("ping %d: the client's source buffer of %d bytes " +
                    "does not fit this server's %d-byte buffer (-S %d)", ping, endpoint.remoteLength(), size, size));
            }
            final int length = (int)endpoint.remoteLength();
            endpoint.read(length, "the RDMA READ of the client's source buffer (ping " + ping + ")");
            final int textLength = RpingPattern.terminator(data, length);
            if (textLength < 0)
            {
                throw new IllegalStateException(String.format(
                    "ping %d: the client's ping data of %d bytes has no terminating NUL", ping, length));
            }
            if (verbose)
            {
                out.println("server ping data: " + RpingPattern.text(data, textLength));
            }
            if (validate)
            {
                checkPattern(data, ping, length);
            }
            endpoint.goAhead();

            awaitAdvertisement("the client's sink buffer (ping " + ping + ")");
            if (textLength + 1 > endpoint.remoteLength())
            {
                throw new IllegalStateException(String.format("ping %d: the client's sink buffer of %d bytes " +
                    "cannot take the %d bytes of ping data", ping, endpoint.remoteLength(), textLength + 1));
            }
            endpoint.write(textLength + 1, "the RDMA WRITE into the client's sink buffer (ping " + ping + ")");
            endpoint.goAhead();
        }
    }

    private void awaitAdvertisement(final String awaited)
    {
        endpoint.awaitMessage(awaited);
        debug.accept(String.format("Received rkey %x addr %x len %d from peer", endpoint.remoteRkey(),
            endpoint.remoteAddress(), endpoint.remoteLength()));
    }

    private static void checkPattern(final ByteBuffer data, final int ping, final int length)
    {
        final int at = RpingPattern.firstDifference(data, ping, length);
        if (at >= 0)
        {
            throw new IllegalStateException(String.format(
                "ping %d: the client's ping data differs from rping's at byte %d of %d (0x%02x)",
                ping, at, length, data.get(at) & 0xff));
        }
    }
}
