package io.ibex.transport.channel;

import io.ibex.rdma.Providers;
import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.AhAttr;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.Mtu;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpCapabilities;
import io.ibex.rdma.verbs.QpInitAttr;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.WcOpcode;
import io.ibex.rdma.verbs.WcStatus;
import io.ibex.rdma.verbs.WorkCompletion;
import io.ibex.transport.sample.Sample;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class SamplePoolTest
{
    private static final int GID_INDEX = 1;

    private Context context;
    private ProtectionDomain pd;

    /** Opens the device inside the test, so kernel resource checks around each test see all of it. */
    @BeforeEach
    void open()
    {
        context = Providers.select().devices().get(0).open();
        pd = context.allocPd();
    }

    @AfterEach
    void close()
    {
        context.close();
    }

    @Test
    void aSampleTravelsFromASendSlotStraightIntoAReceiveSlot()
    {
        final CompletionQueue cq = context.createCq(8, null, 0);
        final QueuePair a = rcQp(cq);
        final QueuePair b = rcQp(cq);
        connect(a, b);
        connect(b, a);
        try (SamplePool out = new SamplePool(pd, 4, 8, AccessFlags.LOCAL_WRITE);
            SamplePool in = new SamplePool(pd, 4, 8, AccessFlags.LOCAL_WRITE))
        {
            final int rx = in.acquire();
            final ReceiveWorkRequest recv = new ReceiveWorkRequest().wrId(rx);
            recv.sge(0).set(in.wireAddress(rx), Sample.wireLength(in.capacity()), in.mr().lkey());
            b.postRecv(recv);
            final int tx = out.acquire();
            final Sample sent = out.sample(tx, new Sample()).sequence(42).origin(7, 8).length(3)
                .floatValue(0, 1.25).integerValue(1, -9).booleanValue(2, true);
            final SendWorkRequest send = new SendWorkRequest().wrId(tx).sendFlags(SendFlags.SIGNALED);
            send.sge(0).set(out.wireAddress(tx), Sample.wireLength(sent.length()), out.mr().lkey());
            a.postSend(send);

            final WorkCompletion[] wcs = { new WorkCompletion() };
            final WorkCompletion received = awaitRecv(cq, wcs);
            assertEquals(rx, received.wrId());
            final Sample got = in.sample((int)received.wrId(), new Sample());
            assertTrue(SampleWire.accept(got, received.byteLen(), false, 100, 200));
            assertEquals(42, got.sequence());
            assertEquals(7, got.originSeconds());
            assertEquals(8, got.originNanos());
            assertEquals(3, got.length());
            assertEquals(1.25, got.floatValue(0));
            assertEquals(-9, got.integerValue(1));
            assertTrue(got.booleanValue(2));
            assertEquals(100, got.receivedSeconds());
        }
    }

    @Test
    void slotsAreHandedOutOnceUntilReleased()
    {
        try (SamplePool pool = new SamplePool(pd, 2, 1, AccessFlags.LOCAL_WRITE))
        {
            final int first = pool.acquire();
            final int second = pool.acquire();
            assertEquals(0, first);
            assertEquals(1, second);
            assertEquals(-1, pool.acquire(), "every slot is taken");
            pool.release(first);
            assertEquals(1, pool.freeSlots());
            assertEquals(first, pool.acquire());
            pool.release(second);
            assertEquals("sample slot 1 is not taken: released twice or never acquired (pool of 2)",
                assertThrows(IllegalStateException.class, () -> pool.release(second)).getMessage());
            assertThrows(IllegalStateException.class, () -> pool.release(5));
            assertThrows(IndexOutOfBoundsException.class, () -> pool.wireAddress(2));
            assertEquals(Sample.slotLength(1), pool.wireAddress(1) - pool.wireAddress(0), "slots are adjacent");
            assertEquals(0, pool.grhAddress(0) % 4096 - Sample.GRH_OFFSET, "the region starts on a page");
        }
    }

    @Test
    void closingThePoolDeregistersItsMemory()
    {
        final SamplePool pool = new SamplePool(pd, 2, 1, AccessFlags.LOCAL_WRITE);
        pool.close();

        assertTrue(pool.mr().isClosed());
        pd.close(); // fails with EBUSY if the region were still registered
    }

    private QueuePair rcQp(final CompletionQueue cq)
    {
        return pd.createQp(new QpInitAttr(QpType.RC, cq, cq, new QpCapabilities(4, 4, 1, 1, 0), false));
    }

    private void connect(final QueuePair qp, final QueuePair peer)
    {
        qp.modify(QpAttr.init(1, AccessFlags.LOCAL_WRITE));
        qp.modify(QpAttr.rtr(AhAttr.global(1, context.queryGid(1, GID_INDEX), GID_INDEX), peer.qpNum(), 0,
            Mtu.MTU_1024));
        qp.modify(QpAttr.rts(0));
    }

    /** Polls the SEND's and the receive's completions; returns a copy of the receive's. */
    private static WorkCompletion awaitRecv(final CompletionQueue cq, final WorkCompletion[] wcs)
    {
        WorkCompletion recv = null;
        int seen = 0;
        while (seen < 2)
        {
            final int n = cq.poll(wcs, 1);
            if (n == 1)
            {
                assertEquals(WcStatus.SUCCESS, wcs[0].status(), wcs[0].toString());
                seen++;
                if (wcs[0].opcode() == WcOpcode.RECV)
                {
                    recv = new WorkCompletion().copyFrom(wcs[0]);
                }
            }
        }
        return recv;
    }
}
