package io.ibex.rdma.provider.soft;

import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.AhAttr;
import io.ibex.rdma.verbs.Gid;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.WorkCompletion;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The second process of {@link SoftCrossProcessTest}: prints its QP's GID and number and its region's rkey and
 * address (a region it allocated, so in shared memory where the device shares any), reads the parent's, and echoes
 * every message it receives until it is killed or a minute has passed; a line {@value #DEREGISTER} on its input has
 * it deregister the region and answer {@value #DEREGISTERED}.
 */
public final class SoftPeerProcess
{
    /** The line prefix of the address exchange. */
    static final String QP_LINE = "QP ";
    /** Bytes per echoed message. */
    static final int MESSAGE = 64;
    /** Asks the peer to deregister its region. */
    static final String DEREGISTER = "DEREGISTER";
    /** The peer's answer once it has. */
    static final String DEREGISTERED = "DEREGISTERED";

    private SoftPeerProcess()
    {
    }

    /**
     * @param args unused.
     * @throws Exception on any failure (the parent then sees the process die).
     */
    public static void main(final String[] args) throws Exception
    {
        try (SoftFixture fixture = new SoftFixture())
        {
            final QueuePair qp = fixture.qp(QpType.RC, 16);
            final MemoryRegion mr = fixture.pd.allocateMemory(MESSAGE * 2, AccessFlags.ALL);
            System.out.println(QP_LINE + fixture.address().dgid() + " " + qp.qpNum() + " " + mr.rkey() + " " +
                mr.address());
            System.out.flush();
            final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
            final String[] peer = in.readLine().substring(QP_LINE.length()).split(" ");
            final Thread commands = new Thread(() -> deregisterWhenAsked(in, mr));
            commands.setDaemon(true);
            commands.start();
            final ReceiveWorkRequest recv = new ReceiveWorkRequest().wrId(1);
            recv.sge(0).set(mr, 0, MESSAGE);
            SoftFixture.connect(qp, AhAttr.global(1, Gid.parse(peer[0]), SoftFixture.GID_INDEX),
                Integer.parseInt(peer[1]), 7);
            qp.postRecv(recv);
            final SendWorkRequest echo = new SendWorkRequest().wrId(2);
            echo.sge(0).set(mr, MESSAGE, MESSAGE);
            final WorkCompletion[] wcs = {new WorkCompletion()};
            final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            while (System.nanoTime() - deadline < 0)
            {
                if (qp.recvCq().poll(wcs) == 1)
                {
                    if (!wcs[0].isSuccess())
                    {
                        return;
                    }
                    mr.buffer().put(MESSAGE, mr.buffer(), 0, MESSAGE);
                    qp.postRecv(recv);
                    qp.postSend(echo);
                }
                qp.sendCq().poll(wcs);
            }
        }
    }

    private static void deregisterWhenAsked(final BufferedReader in, final MemoryRegion mr)
    {
        try
        {
            if (DEREGISTER.equals(in.readLine()))
            {
                mr.close();
                System.out.println(DEREGISTERED);
                System.out.flush();
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
