package io.ibex.benchmarks;

import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpState;
import io.ibex.samples.RcEndpoint;
import org.agrona.CloseHelper;
import org.agrona.concurrent.IdleStrategy;

import java.io.IOException;

/**
 * An RC SEND/RECV ping-pong on the soft provider between this JVM and an {@link RcEchoProcess} on this host: over
 * the shared-memory link the two devices negotiate, or over TCP when the echo process declines it.
 */
final class RcProcessPingPong implements PingPong
{
    private final EchoProcess echo;
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
        idle = EchoProcess.idleStrategy(yield);
        echo = new EchoProcess(RcEchoProcess.class, sharedMemory, yield, Integer.toString(messageLength));
        RcEndpoint opened = null;
        try
        {
            opened = RcEchoProcess.open(messageLength);
            echo.writeLine(RcEchoProcess.addressLine(opened.address()));
            opened.connect(RcEchoProcess.parseAddress(echo.readLine()));
            messenger = new RcMessenger(opened, RcEchoProcess.QUEUE_DEPTH, messageLength, messageLength);
            echo.awaitReady();
            endpoint = opened;
        }
        catch (final IOException | RuntimeException ex)
        {
            CloseHelper.quietCloseAll(echo, opened);
            throw ex;
        }
    }

    @Override
    public void roundTrip()
    {
        messenger.send();
        idle.reset();
        while (messenger.poll() == 0)
        {
            echo.checkAlive();
            idle.idle();
        }
    }

    /**
     * Ends the echo process, then moves the queue pair to ERR and closes it.
     */
    @Override
    public void close()
    {
        try
        {
            echo.close();
            endpoint.qp().modify(QpAttr.to(QpState.ERR));
        }
        finally
        {
            endpoint.close();
        }
    }
}
