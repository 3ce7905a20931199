package io.ibex.samples.cm;

import io.ibex.rdma.verbs.MemoryRegion;

import java.io.PrintWriter;
import java.nio.ByteBuffer;

/**
 * The client loop of rping ({@code rping_test_client}) on a connected endpoint: for each ping, write the ping
 * data into the source buffer and advertise it, await "go ahead" (the server has read it), advertise the sink
 * buffer, await "go ahead" (the server has written the data back into it), then compare and print.
 */
final class RpingClient
{
    private final RpingEndpoint endpoint;
    private final MemoryRegion source;
    private final int size;
    private final boolean verbose;
    private final boolean validate;
    private final PrintWriter out;

    /**
     * @param endpoint the connected endpoint, its receive posted; its RDMA buffer is the sink.
     * @param source   the source buffer's memory region, {@code size} bytes.
     * @param size     bytes of the ping data.
     * @param verbose  print each ping's data, as rping {@code -v}.
     * @param validate compare the sink with the source after each ping, as rping {@code -V}.
     * @param out      where the ping data goes.
     */
    RpingClient(
        final RpingEndpoint endpoint,
        final MemoryRegion source,
        final int size,
        final boolean verbose,
        final boolean validate,
        final PrintWriter out)
    {
        this.endpoint = endpoint;
        this.source = source;
        this.size = size;
        this.verbose = verbose;
        this.validate = validate;
        this.out = out;
    }

    /**
     * Pings.
     *
     * @param count how many pings; 0 pings until something fails.
     * @throws IllegalStateException if the data came back different (with validation), a message does not
     *                               parse, or the server disconnects or stops answering.
     */
    void ping(final int count)
    {
        final MemoryRegion sink = endpoint.rdmaBuffer();
        for (int ping = 0; count == 0 || ping < count; ping++)
        {
            RpingPattern.fill(source.buffer(), ping, size);
            endpoint.advertise(source, size);
            endpoint.awaitMessage("the server's go-ahead after its RDMA READ (ping " + ping + ")");
            endpoint.advertise(sink, size);
            endpoint.awaitMessage("the server's go-ahead after its RDMA WRITE (ping " + ping + ")");
            final ByteBuffer data = sink.buffer();
            if (validate)
            {
                final int at = data.mismatch(source.buffer());
                if (at >= 0)
                {
                    throw new IllegalStateException(String.format(
                        "data mismatch in ping %d: byte %d of %d is 0x%02x in the sink buffer, 0x%02x in the source",
                        ping, at, size, data.get(at) & 0xff, source.buffer().get(at) & 0xff));
                }
            }
            if (verbose)
            {
                final int textLength = RpingPattern.terminator(data, size);
                out.println("ping data: " + RpingPattern.text(data, textLength < 0 ? size : textLength));
            }
        }
    }
}
