package io.ibex.rdma.provider.soft;

import io.ibex.rdma.verbs.AddressHandle;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.WcStatus;
import io.ibex.rdma.verbs.WorkCompletion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * UD rides on UDP, so its loss is real: a flood overruns the receiving socket's buffer and datagrams are lost
 * silently (a receive is posted for every one of them), while every send still completes successfully.
 */
@Timeout(60)
class SoftUdLossTest
{
    private static final int FLOOD = 10_000;
    private static final int DEPTH = FLOOD;
    private static final int SIZE = 2000;

    private final SoftFixture fixture = new SoftFixture();

    @AfterEach
    void close()
    {
        fixture.close();
    }

    @Test
    void floodingTheUdpSocketLosesDatagramsSilently()
    {
        final QueuePair sender = fixture.qp(QpType.UD, DEPTH);
        final QueuePair receiver = fixture.qp(QpType.UD, DEPTH);
        SoftFixture.connect(sender, null, 0, 0);
        SoftFixture.connect(receiver, null, 0, 0);
        final MemoryRegion mr = fixture.register(SIZE + (SIZE + 40) * DEPTH);
        final AddressHandle ah = fixture.pd.createAh(fixture.address());
        for (int i = 0; i < DEPTH; i++)
        {
            final ReceiveWorkRequest recv = new ReceiveWorkRequest().wrId(i);
            recv.sge(0).set(mr, SIZE + (long)(SIZE + 40) * i, SIZE + 40);
            receiver.postRecv(recv);
        }
        final SendWorkRequest send = new SendWorkRequest().ud(ah, receiver.qpNum(), SoftFixture.QKEY);
        send.sge(0).set(mr, 0, SIZE);
        final WorkCompletion[] wcs = new WorkCompletion[64];
        for (int i = 0; i < wcs.length; i++)
        {
            wcs[i] = new WorkCompletion();
        }
        for (int i = 0; i < FLOOD; i++)
        {
            send.wrId(i).sendFlags(i % 64 == 63 ? io.ibex.rdma.verbs.SendFlags.SIGNALED : 0);
            sender.postSend(send);
            if (i % 64 == 63)
            {
                final WorkCompletion wc = SoftFixture.await(sender.sendCq());
                assertEquals(WcStatus.SUCCESS, wc.status());
            }
        }
        int received = 0;
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (System.nanoTime() - deadline < 0)
        {
            final int n = receiver.recvCq().poll(wcs);
            for (int i = 0; i < n; i++)
            {
                assertEquals(WcStatus.SUCCESS, wcs[i].status());
                assertEquals(SIZE + 40, wcs[i].byteLen());
            }
            received += n;
        }
        assertTrue(received > 0, "some datagrams arrive");
        assertTrue(received < FLOOD, "a flood of " + FLOOD + " x " + SIZE + " bytes overruns the UDP socket, yet " +
            received + " of " + FLOOD + " datagrams arrived");
    }
}
