package io.ibex.benchmarks;

import io.ibex.rdma.Providers;
import io.ibex.samples.RcEndpoint;
import org.agrona.concurrent.Agent;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * The echo side of a {@link RcProcessPingPong}, in a JVM of its own ({@link EchoProcess}): prints its endpoint's
 * {@link RcPeer} line, reads the other side's, connects and echoes every message until its input ends: a SEND with
 * a SEND, or a sequence RDMA-written into its buffer with an RDMA WRITE of it back.
 */
public final class RcEchoProcess
{
    static final int QUEUE_DEPTH = 16;
    /** The operation argument of an RDMA WRITE ping-pong. */
    static final String WRITE = "write";
    /** The operation argument of a SEND/RECV ping-pong. */
    static final String SEND = "send";

    private RcEchoProcess()
    {
    }

    /**
     * @param args the operation ({@value #SEND} or {@value #WRITE}), the message length in bytes, and whether to
     *             yield the core on an empty poll (else spin).
     * @throws Exception if the address exchange fails, or the echo (the connection lost, say).
     */
    public static void main(final String[] args) throws Exception
    {
        final boolean write = WRITE.equals(args[0]);
        final int messageLength = Integer.parseInt(args[1]);
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        try (RcEndpoint endpoint = open(write, messageLength))
        {
            System.out.println(RcPeer.line(endpoint));
            System.out.flush();
            final RcPeer peer = RcPeer.parse(in.readLine());
            endpoint.connect(peer.address());
            final Agent echo = write ? new RcWriteEcho(new RcWriter(endpoint, QUEUE_DEPTH, messageLength, peer)) :
                new RcEcho(new RcMessenger(endpoint, QUEUE_DEPTH, messageLength, messageLength));
            EchoProcess.echoUntilInputEnds(in, echo, args[2]);
        }
    }

    /**
     * @return an RC endpoint on the soft device for messages of {@code messageLength} bytes each way, sent or
     *         written; its buffer allows RDMA WRITE ({@link RcEndpoint#ACCESS}).
     */
    static RcEndpoint open(final boolean write, final int messageLength)
    {
        return RcEndpoint.open(Providers.select(Transports.SOFT).devices().get(0), 1, 1, write ?
            RcWriter.bufferLength(messageLength) : RcMessenger.bufferLength(messageLength, messageLength), QUEUE_DEPTH);
    }
}
