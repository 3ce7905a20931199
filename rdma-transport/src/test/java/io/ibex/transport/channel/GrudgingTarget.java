package io.ibex.transport.channel;

import io.ibex.rdma.Providers;
import io.ibex.rdma.cm.CmEvent;
import io.ibex.rdma.cm.CmEventType;
import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.cm.ConnParam;
import io.ibex.rdma.cm.EventChannel;
import io.ibex.rdma.cm.PortSpace;
import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.QpCapabilities;
import io.ibex.rdma.verbs.QpInitAttr;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.WorkCompletion;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static io.ibex.transport.channel.TestChannels.WAIT_MILLIS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An RC target as VILLASnode's infiniband node-type is one, written with the verbs API: it accepts with an
 * all-zero {@code rdma_conn_param} (so it grants its source no RNR retries) and posts its receives only some time
 * after the connection is established. It reads the samples' sequence numbers off the wire (the first 8 bytes).
 */
final class GrudgingTarget implements AutoCloseable
{
    private static final int SLOT = 1024; // a sample of the default 64 values takes 536 bytes
    private final EventChannel events;
    private final CmId listening;
    private CmId child;
    private ProtectionDomain pd;
    private CompletionQueue cq;
    private MemoryRegion mr;
    private UnsafeBuffer buffer;

    /** Listens on the address. */
    GrudgingTarget(final InetSocketAddress address)
    {
        events = Providers.select().createEventChannel();
        listening = events.createId(PortSpace.TCP);
        listening.bindAddr(address);
        listening.listen(1);
    }

    /** Accepts the next connection request with no retries granted, and waits until it is established. */
    void acceptGrantingNothing(final int receives)
    {
        final CmEvent request = expect(CmEventType.CONNECT_REQUEST);
        child = request.id();
        pd = child.context().allocPd();
        cq = child.context().createCq(2 * receives, null, 0);
        child.createQp(pd, new QpInitAttr(QpType.RC, cq, cq, new QpCapabilities(4, receives, 1, 1, 0), false));
        final ByteBuffer memory = ByteBuffer.allocateDirect(receives * SLOT).order(ByteOrder.nativeOrder());
        mr = pd.registerMemory(memory, AccessFlags.LOCAL_WRITE);
        buffer = new UnsafeBuffer(memory);
        child.accept(new ConnParam(null, 0, 0, 0, 0));
        expect(CmEventType.ESTABLISHED);
    }

    /** Posts receives only now, then reads {@code count} samples and returns their sequence numbers. */
    List<Long> postReceivesAndRead(final int count)
    {
        final ReceiveWorkRequest wr = new ReceiveWorkRequest(1).numSge(1);
        for (int i = 0; i < count; i++)
        {
            wr.wrId(i).sge(0).set(mr, (long)i * SLOT, SLOT);
            child.qp().postRecv(wr);
        }
        final List<Long> sequences = new ArrayList<>();
        final WorkCompletion[] wc = {new WorkCompletion()};
        final long deadline = System.currentTimeMillis() + WAIT_MILLIS;
        while (sequences.size() < count)
        {
            if (cq.poll(wc) == 0)
            {
                assertTrue(System.currentTimeMillis() < deadline, "only " + sequences.size() + " of " + count +
                    " samples arrived: " + sequences);
                Thread.onSpinWait();
                continue;
            }
            assertTrue(wc[0].isSuccess(), "receive completed " + wc[0].status());
            sequences.add(buffer.getLong((int)wc[0].wrId() * SLOT));
        }
        return sequences;
    }

    private CmEvent expect(final CmEventType type)
    {
        final CmEvent event = events.getEvent(WAIT_MILLIS);
        assertNotNull(event, "no " + type);
        assertEquals(type, event.type(), event.toString());
        return event;
    }

    @Override
    public void close()
    {
        if (child != null)
        {
            child.close();
            mr.close();
            cq.close();
            pd.close();
        }
        listening.close();
        events.close();
    }
}
