package io.ibex.benchmarks;

import io.ibex.rdma.Providers;
import io.ibex.rdma.verbs.Gid;
import io.ibex.samples.EndpointAddress;
import io.ibex.samples.RcEndpoint;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * The echo side of a {@link RcProcessPingPong}, in a JVM of its own: prints its endpoint's address, reads the
 * other side's, connects, says {@value #READY} and echoes every message, busy-polling, until its input ends.
 */
public final class RcEchoProcess
{
    /** What the process prints once it echoes. */
    static final String READY = "READY";

    private static final int QUEUE_DEPTH = 16;

    private RcEchoProcess()
    {
    }

    /**
     * @param args the message length in bytes, and whether to yield the core on an empty poll (else spin).
     * @throws IOException if the address exchange fails.
     */
    public static void main(final String[] args) throws IOException
    {
        final int messageLength = Integer.parseInt(args[0]);
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        try (RcEndpoint endpoint = RcEndpoint.open(Providers.select(Transports.SOFT).devices().get(0), 1, 1,
            RcMessenger.bufferLength(messageLength, messageLength), QUEUE_DEPTH))
        {
            System.out.print(addressLine(endpoint.address()));
            System.out.flush();
            endpoint.connect(parseAddress(in.readLine()));
            final RcEcho echo = new RcEcho(new RcMessenger(endpoint, QUEUE_DEPTH, messageLength, messageLength));
            final IdleStrategy idle = idleStrategy(Boolean.parseBoolean(args[1]));
            final Thread watcher = new Thread(() -> awaitEnd(in), "rc-echo-input");
            watcher.setDaemon(true);
            watcher.start();
            System.out.println(READY);
            System.out.flush();
            while (watcher.isAlive())
            {
                idle.idle(echo.doWork());
            }
        }
    }

    /**
     * @return a yielding or a busy-spinning idle strategy.
     */
    static IdleStrategy idleStrategy(final boolean yield)
    {
        return yield ? new YieldingIdleStrategy() : new BusySpinIdleStrategy();
    }

    private static void awaitEnd(final BufferedReader in)
    {
        try
        {
            while (in.read() >= 0)
            {
                // nothing else comes: the other side closes the input to end the echo
            }
        }
        catch (final IOException ignore)
        {
            // an input that fails has ended too
        }
    }

    /**
     * @return the address as one line: QPN, PSN and GID.
     */
    static String addressLine(final EndpointAddress address)
    {
        return address.qpNum() + " " + address.psn() + " " + address.gid() + "\n";
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
