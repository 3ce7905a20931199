package io.ibex.benchmarks;

import io.ibex.rdma.Providers;
import io.ibex.rdma.verbs.Gid;
import io.ibex.samples.EndpointAddress;
import io.ibex.samples.RcEndpoint;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * The echo side of a {@link RcProcessPingPong}, in a JVM of its own ({@link EchoProcess}): prints its endpoint's
 * address, reads the other side's, connects and echoes every message until its input ends.
 */
public final class RcEchoProcess
{
    static final int QUEUE_DEPTH = 16;

    private RcEchoProcess()
    {
    }

    /**
     * @param args the message length in bytes, and whether to yield the core on an empty poll (else spin).
     * @throws Exception if the address exchange fails, or the echo (the connection lost, say).
     */
    public static void main(final String[] args) throws Exception
    {
        final int messageLength = Integer.parseInt(args[0]);
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        try (RcEndpoint endpoint = open(messageLength))
        {
            System.out.println(addressLine(endpoint.address()));
            System.out.flush();
            endpoint.connect(parseAddress(in.readLine()));
            EchoProcess.echoUntilInputEnds(in,
                new RcEcho(new RcMessenger(endpoint, QUEUE_DEPTH, messageLength, messageLength)), args[1]);
        }
    }

    /**
     * @return an RC endpoint on the soft device for messages of {@code messageLength} bytes each way.
     */
    static RcEndpoint open(final int messageLength)
    {
        return RcEndpoint.open(Providers.select(Transports.SOFT).devices().get(0), 1, 1,
            RcMessenger.bufferLength(messageLength, messageLength), QUEUE_DEPTH);
    }

    /**
     * @return the address as one line: QPN, PSN and GID.
     */
    static String addressLine(final EndpointAddress address)
    {
        return address.qpNum() + " " + address.psn() + " " + address.gid();
    }

    /**
     * @param line a line of {@link #addressLine}.
     * @return the address it names.
     */
    static EndpointAddress parseAddress(final String line)
    {
        if (line == null)
        {
            throw new IllegalStateException("the other process ended before it sent its address");
        }
        final String[] fields = line.split(" ");
        return new EndpointAddress(0, Integer.parseInt(fields[0]), Integer.parseInt(fields[1]), Gid.parse(fields[2]));
    }
}
