package io.ibex.rdma.provider.soft.cm;

import io.ibex.rdma.cm.CmEvent;
import io.ibex.rdma.cm.CmEventType;
import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.cm.EventChannel;
import io.ibex.rdma.cm.PortSpace;
import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.QpCapabilities;
import io.ibex.rdma.verbs.QpInitAttr;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.WorkCompletion;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Steps every CM test repeats: waiting for events, resolving, and a QP with a registered buffer.
 */
final class CmTestSupport
{
    static final long EVENT_TIMEOUT_MILLIS = 5_000;
    static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private CmTestSupport()
    {
    }

    static CmEvent await(final EventChannel channel, final CmEventType expected)
    {
        final CmEvent event = channel.getEvent(EVENT_TIMEOUT_MILLIS);
        assertNotNull(event, "no event within " + EVENT_TIMEOUT_MILLIS + " ms, expected " + expected);
        assertEquals(expected, event.type(), () -> "unexpected " + event);
        return event;
    }

    static CmId listen(final EventChannel channel, final PortSpace portSpace)
    {
        final CmId id = channel.createId(portSpace);
        id.bindAddr(new InetSocketAddress(LOOPBACK, 0));
        id.listen(8);
        return id;
    }

    static CmId resolve(final EventChannel channel, final PortSpace portSpace, final InetSocketAddress dst)
    {
        final CmId id = channel.createId(portSpace);
        id.resolveAddr(null, dst, 2000);
        await(channel, CmEventType.ADDR_RESOLVED);
        id.resolveRoute(2000);
        await(channel, CmEventType.ROUTE_RESOLVED);
        return id;
    }

    /**
     * A QP on a CM id, with a CQ and a registered buffer; closing it releases all but the QP, which its id
     * destroys.
     */
    static final class Endpoint implements AutoCloseable
    {
        static final int BUFFER_LENGTH = 4096;

        final ProtectionDomain pd;
        final CompletionQueue cq;
        final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_LENGTH);
        final MemoryRegion mr;
        final QueuePair qp;
        private final WorkCompletion[] wcs = { new WorkCompletion() };

        Endpoint(final CmId id)
        {
            pd = id.context().allocPd();
            cq = id.context().createCq(16, null, 0);
            mr = pd.registerMemory(buffer, AccessFlags.LOCAL_WRITE);
            qp = id.createQp(pd, new QpInitAttr(id.portSpace().qpType(), cq, cq,
                new QpCapabilities(8, 8, 1, 1, 0), true));
        }

        void postRecv(final long wrId, final int offset, final int length)
        {
            final ReceiveWorkRequest wr = new ReceiveWorkRequest(1).wrId(wrId).numSge(1);
            wr.sge(0).set(mr, offset, length);
            qp.postRecv(wr);
        }

        SendWorkRequest send(final long wrId, final int offset, final int length)
        {
            final SendWorkRequest wr = new SendWorkRequest(1).wrId(wrId).numSge(1).opcode(SendOpcode.SEND);
            wr.sge(0).set(mr, offset, length);
            return wr;
        }

        WorkCompletion poll()
        {
            final long deadline = System.nanoTime() + EVENT_TIMEOUT_MILLIS * 1_000_000L;
            final IdleStrategy idle = new YieldingIdleStrategy();
            while (System.nanoTime() - deadline < 0)
            {
                if (cq.poll(wcs) == 1)
                {
                    return wcs[0];
                }
                idle.idle();
            }
            return fail("no completion within " + EVENT_TIMEOUT_MILLIS + " ms on QP " + qp.qpNum());
        }

        @Override
        public void close()
        {
            mr.close();
            cq.close();
            pd.close();
        }
    }
}
