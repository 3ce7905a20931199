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
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.WorkCompletion;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

import static io.ibex.transport.channel.TestChannels.WAIT_MILLIS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * A peer that is not a channel: connects over RC with the verbs API and sends whatever bytes a test wants, to
 * show what a channel does with data that is not a sample, or reaches for a channel's memory with RDMA.
 */
final class RawSender implements AutoCloseable
{
    private final EventChannel events;
    private final CmId id;
    private final ProtectionDomain pd;
    private final CompletionQueue cq;
    private final MemoryRegion mr;
    private final UnsafeBuffer buffer;
    private final SendWorkRequest wr = new SendWorkRequest(1).numSge(1).sendFlags(SendFlags.SIGNALED);
    private final WorkCompletion[] wc = {new WorkCompletion()};

    RawSender(final InetSocketAddress target)
    {
        events = Providers.select().createEventChannel();
        id = events.createId(PortSpace.TCP);
        id.resolveAddr(null, target, (int)WAIT_MILLIS);
        expect(CmEventType.ADDR_RESOLVED);
        id.resolveRoute((int)WAIT_MILLIS);
        expect(CmEventType.ROUTE_RESOLVED);
        pd = id.context().allocPd();
        cq = id.context().createCq(16, null, 0);
        id.createQp(pd, new QpInitAttr(QpType.RC, cq, cq, new QpCapabilities(16, 16, 1, 1, 0), false));
        id.connect(ConnParam.of(null));
        expect(CmEventType.ESTABLISHED);
        final ByteBuffer memory = ByteBuffer.allocateDirect(4096);
        mr = pd.registerMemory(memory, AccessFlags.LOCAL_WRITE);
        buffer = new UnsafeBuffer(memory);
    }

    /** @return the bytes the next send carries. */
    UnsafeBuffer buffer()
    {
        return buffer;
    }

    /** Sends the first {@code length} bytes of the buffer and waits for the completion. */
    WorkCompletion send(final int length)
    {
        return post(wr.opcode(SendOpcode.SEND), length);
    }

    /**
     * Posts an RDMA WRITE or READ between the first {@code length} bytes of the buffer and {@code remoteAddr}
     * with {@code rkey}, and waits for the completion.
     */
    WorkCompletion rdma(final SendOpcode opcode, final int length, final long remoteAddr, final int rkey)
    {
        return post(wr.opcode(opcode).remote(remoteAddr, rkey), length);
    }

    private WorkCompletion post(final SendWorkRequest wr, final int length)
    {
        wr.sge(0).set(mr, 0, length);
        id.qp().postSend(wr);
        final long deadline = System.currentTimeMillis() + WAIT_MILLIS;
        while (cq.poll(wc) == 0)
        {
            if (System.currentTimeMillis() > deadline)
            {
                throw new AssertionError("no completion for a send of " + length + " bytes");
            }
            Thread.onSpinWait();
        }
        return wc[0];
    }

    private void expect(final CmEventType type)
    {
        final CmEvent event = events.getEvent(WAIT_MILLIS);
        assertNotNull(event, "no " + type);
        assertEquals(type, event.type(), event.toString());
    }

    @Override
    public void close()
    {
        id.close();
        mr.close();
        cq.close();
        pd.close();
        events.close();
    }
}
