package io.ibex.benchmarks;

import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpState;
import io.ibex.samples.RcEndpoint;
import org.agrona.CloseHelper;
import org.agrona.concurrent.IdleStrategy;

import java.io.IOException;

/**
 * An RC ping-pong on the soft provider between this JVM and an {@link RcEchoProcess} on this host, of SENDs or of
 * RDMA WRITEs (as {@code ib_write_lat}): over the shared-memory link the two devices negotiate, where a WRITE is a
 * copy into the peer's buffer, or over TCP when the echo process declines it.
 */
final class RcProcessPingPong implements PingPong
{
    private final EchoProcess echo;
    private final RcEndpoint endpoint;
    private final RcMessenger messenger;
    private final RcWriter writer;
    private final IdleStrategy idle;
    private long sequence;

    /**
     * Starts the echo process, connects to its queue pair and waits until it echoes.
     *
     * @param write         whether the messages are RDMA WRITEs (else SENDs).
     * @param sharedMemory  whether the echo process takes the shared-memory link (else it declines: TCP).
     * @param messageLength bytes of the message each way (at least 8 for WRITEs: they carry a sequence).
     * @param yield         whether both sides yield the core on an empty poll rather than spin: for a test on a
     *                      loaded machine, where two spinning processes starve each other past RC's retry limit.
     */
    RcProcessPingPong(final boolean write, final boolean sharedMemory, final int messageLength, final boolean yield)
        throws IOException
    {
        idle = EchoProcess.idleStrategy(yield);
        echo = new EchoProcess(RcEchoProcess.class, sharedMemory, yield,
            write ? RcEchoProcess.WRITE : RcEchoProcess.SEND, Integer.toString(messageLength));
        RcEndpoint opened = null;
        try
        {
            opened = RcEchoProcess.open(write, messageLength);
            echo.writeLine(RcPeer.line(opened));
            final RcPeer peer = RcPeer.parse(echo.readLine());
            opened.connect(peer.address());
            messenger = write ? null : new RcMessenger(opened, RcEchoProcess.QUEUE_DEPTH, messageLength, messageLength);
            writer = write ? new RcWriter(opened, RcEchoProcess.QUEUE_DEPTH, messageLength, peer) : null;
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
        idle.reset();
        if (writer != null)
        {
            writer.write(++sequence);
            while (writer.landed() != sequence)
            {
                echo.checkAlive();
                idle.idle();
            }
            return;
        }
        messenger.send();
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
