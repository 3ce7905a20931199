package io.ibex.rdma.provider.soft.cm;

import io.ibex.rdma.cm.CmEvent;
import io.ibex.rdma.cm.CmEventType;
import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.cm.ConnParam;
import io.ibex.rdma.cm.EventChannel;
import io.ibex.rdma.cm.PortSpace;
import io.ibex.rdma.provider.soft.SoftProvider;

import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;

/**
 * A second JVM that connects an RC id to a listener and then waits to be killed, for peer-death tests.
 */
public final class SoftCmPeer
{
    /** The line the peer prints once connected. */
    static final String READY = "ESTABLISHED";
    /** The peer exits by itself after this long, so a failed test leaves nothing behind. */
    private static final long LIFETIME_MILLIS = 60_000;

    private SoftCmPeer()
    {
    }

    /**
     * @param args the listener's port on 127.0.0.1.
     * @throws InterruptedException never expected.
     */
    public static void main(final String[] args) throws InterruptedException
    {
        final InetSocketAddress server = new InetSocketAddress(CmTestSupport.LOOPBACK, Integer.parseInt(args[0]));
        try (EventChannel channel = new SoftProvider().createEventChannel())
        {
            final CmId id = CmTestSupport.resolve(channel, PortSpace.TCP, server);
            new CmTestSupport.Endpoint(id);
            id.connect(ConnParam.of(null));
            final CmEvent event = channel.getEvent(CmTestSupport.EVENT_TIMEOUT_MILLIS);
            System.out.println(event != null && event.type() == CmEventType.ESTABLISHED ? READY : "FAILED " + event);
            System.out.flush();
            Thread.sleep(LIFETIME_MILLIS);
        }
    }

    /**
     * Starts the peer with this JVM's class path.
     *
     * @param port the listener's port.
     * @return the process.
     * @throws IOException if it cannot start.
     */
    static Process start(final int port) throws IOException
    {
        final Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
        return new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
            SoftCmPeer.class.getName(), Integer.toString(port))
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    }

    /**
     * @param peer the process.
     * @return its first line of output, or null if it printed none within the event timeout.
     * @throws Exception if reading fails.
     */
    static String readLine(final Process peer) throws Exception
    {
        final BufferedReader reader =
            new BufferedReader(new InputStreamReader(peer.getInputStream(), StandardCharsets.US_ASCII));
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CmTestSupport.EVENT_TIMEOUT_MILLIS);
        final IdleStrategy idle = new SleepingMillisIdleStrategy(10);
        while (System.nanoTime() - deadline < 0)
        {
            if (reader.ready() || !peer.isAlive())
            {
                return reader.readLine();
            }
            idle.idle();
        }
        return null;
    }
}
