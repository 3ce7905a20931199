package io.ibex.benchmarks;

import io.ibex.rdma.Providers;
import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpState;
import io.ibex.samples.EndpointAddress;
import io.ibex.samples.RcEndpoint;
import org.agrona.CloseHelper;
import org.agrona.concurrent.IdleStrategy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;

/**
 * An RC SEND/RECV ping-pong on the soft provider between this JVM and an {@link RcEchoProcess} on this host: over
 * the shared-memory link the two devices negotiate, or over TCP when the echo process declines it
 * ({@code ibex.soft.sharedMemory=off}).
 */
final class RcProcessPingPong implements PingPong
{
    private static final int QUEUE_DEPTH = 16;
    private static final int PORT_NUM = 1;
    private static final int GID_INDEX = 1;
    /** Polls between looks at whether the echo process still lives (a look is a system call). */
    private static final int POLLS_PER_LIVENESS_CHECK = 1 << 20;

    private final Process echo;
    private final Writer toEcho;
    private final RcEndpoint endpoint;
    private final RcMessenger messenger;
    private final IdleStrategy idle;

    /**
     * Starts the echo process, connects to its queue pair and waits until it echoes.
     *
     * @param sharedMemory  whether the echo process takes the shared-memory link (else it declines: TCP).
     * @param messageLength bytes of the message each way.
     * @param yield         whether both sides yield the core on an empty poll rather than spin: for a test on a
     *                      loaded machine, where two spinning processes starve each other past RC's retry limit.
     */
    RcProcessPingPong(final boolean sharedMemory, final int messageLength, final boolean yield) throws IOException
    {
        idle = RcEchoProcess.idleStrategy(yield);
        final String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        echo = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
            "-Dibex.soft.sharedMemory=" + (sharedMemory ? "on" : "off"), RcEchoProcess.class.getName(),
            Integer.toString(messageLength), Boolean.toString(yield)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        RcEndpoint opened = null;
        try
        {
            final BufferedReader fromEcho =
                new BufferedReader(new InputStreamReader(echo.getInputStream(), StandardCharsets.US_ASCII));
            toEcho = new OutputStreamWriter(echo.getOutputStream(), StandardCharsets.US_ASCII);
            opened = RcEndpoint.open(Providers.select(Transports.SOFT).devices().get(0), PORT_NUM, GID_INDEX,
                RcMessenger.bufferLength(messageLength, messageLength), QUEUE_DEPTH);
            final EndpointAddress own = opened.address();
            toEcho.write(RcEchoProcess.addressLine(own));
            toEcho.flush();
            final EndpointAddress remote = RcEchoProcess.parseAddress(fromEcho.readLine());
            opened.connect(remote);
            messenger = new RcMessenger(opened, QUEUE_DEPTH, messageLength, messageLength);
            final String ready = fromEcho.readLine();
            if (!RcEchoProcess.READY.equals(ready))
            {
                throw new IllegalStateException("the echo process said '" + ready + "', not " + RcEchoProcess.READY);
            }
            endpoint = opened;
        }
        catch (final IOException | RuntimeException ex)
        {
            echo.destroyForcibly();
            CloseHelper.quietClose(opened);
            throw ex;
        }
    }

    @Override
    public void roundTrip()
    {
        messenger.send();
        int polls = 0;
        idle.reset();
        while (messenger.poll() == 0)
        {
            idle.idle();
            if (++polls == POLLS_PER_LIVENESS_CHECK)
            {
                polls = 0;
                if (!echo.isAlive())
                {
                    throw new IllegalStateException("the echo process ended with exit code " + echo.exitValue());
                }
            }
        }
    }

    /**
     * Ends the echo process (closing its input ends it), then moves the queue pair to ERR and closes it.
     */
    @Override
    public void close()
    {
        try
        {
            toEcho.close();
            if (!echo.waitFor(10, TimeUnit.SECONDS))
            {
                echo.destroyForcibly();
            }
        }
        catch (final IOException | InterruptedException ex)
        {
            echo.destroyForcibly();
        }
        finally
        {
            try
            {
                endpoint.qp().modify(QpAttr.to(QpState.ERR));
            }
            finally
            {
                endpoint.close();
            }
        }
    }
}
