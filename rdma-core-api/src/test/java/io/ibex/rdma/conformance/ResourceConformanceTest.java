package io.ibex.rdma.conformance;

import io.ibex.rdma.Providers;
import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.AddressHandle;
import io.ibex.rdma.verbs.AhAttr;
import io.ibex.rdma.verbs.CompletionChannel;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpInitAttr;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.RdmaResource;
import io.ibex.rdma.verbs.VerbsException;
import io.ibex.rdma.verbs.WorkCompletion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Resource lifetimes: closing children before parents, EBUSY for a parent with live children, idempotent
 * close, IllegalStateException on use after close, and Context.close closing everything.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ResourceConformanceTest
{
    private static final int SIZE = 4096;

    private Context context;
    private ProtectionDomain pd;
    private CompletionChannel channel;
    private CompletionQueue cq;
    private MemoryRegion mr;
    private QueuePair qp;
    private AddressHandle ah;

    @BeforeEach
    void open()
    {
        context = Loopback.findDevice(Providers.select()).open();
        pd = context.allocPd();
        channel = context.createCompChannel();
        cq = context.createCq(Loopback.DEPTH, channel, 0);
        mr = pd.registerMemory(ByteBuffer.allocateDirect(SIZE), AccessFlags.LOCAL_WRITE);
        qp = pd.createQp(new QpInitAttr(QpType.RC, cq, cq, Loopback.CAPS, false));
        ah = pd.createAh(AhAttr.global(Loopback.PORT, context.queryGid(Loopback.PORT, Loopback.GID_INDEX),
            Loopback.GID_INDEX));
    }

    @AfterEach
    void close()
    {
        context.close();
    }

    @Test
    void childrenFirstThenParentsCloses()
    {
        for (final RdmaResource resource : List.of(qp, ah, mr, cq, channel, pd, context))
        {
            resource.close();
            assertTrue(resource.isClosed(), resource + " not closed");
        }
    }

    @Test
    void pdWithALiveMrIsBusy()
    {
        qp.close();
        ah.close();
        assertBusy(pd);
        mr.close();
        pd.close();
        assertTrue(pd.isClosed());
    }

    @Test
    void pdWithALiveQpIsBusy()
    {
        mr.close();
        ah.close();
        assertBusy(pd);
        qp.close();
        pd.close();
        assertTrue(pd.isClosed());
    }

    @Test
    void pdWithALiveAddressHandleIsBusy()
    {
        mr.close();
        qp.close();
        assertBusy(pd);
        ah.close();
        pd.close();
        assertTrue(pd.isClosed());
    }

    @Test
    void cqWithALiveQpIsBusy()
    {
        assertBusy(cq);
        qp.close();
        cq.close();
        assertTrue(cq.isClosed());
    }

    @Test
    void channelWithALiveCqIsBusy()
    {
        qp.close();
        assertBusy(channel);
        cq.close();
        channel.close();
        assertTrue(channel.isClosed());
    }

    enum Kind
    {
        QP, AH, MR, CQ, CHANNEL, PD, CONTEXT
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Kind.class)
    void closingTwiceIsANoOp(final Kind kind)
    {
        final List<RdmaResource> order = List.of(qp, ah, mr, cq, channel, pd, context);
        for (final RdmaResource resource : order.subList(0, kind.ordinal() + 1))
        {
            resource.close();
        }
        final RdmaResource resource = order.get(kind.ordinal());
        resource.close();
        assertTrue(resource.isClosed());
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Kind.class, names = {"QP", "CQ", "CHANNEL", "PD", "CONTEXT"})
    void useAfterCloseIsIllegalState(final Kind kind)
    {
        final Executable use = switch (kind)
        {
            case QP ->
            {
                qp.close();
                yield () -> qp.modify(QpAttr.to(QpState.ERR));
            }
            case CQ ->
            {
                qp.close();
                cq.close();
                yield () -> cq.poll(new WorkCompletion[]{new WorkCompletion()});
            }
            case CHANNEL ->
            {
                qp.close();
                cq.close();
                channel.close();
                yield () -> channel.getEvent(0);
            }
            case PD ->
            {
                qp.close();
                ah.close();
                mr.close();
                pd.close();
                yield () -> pd.registerMemory(ByteBuffer.allocateDirect(SIZE), AccessFlags.LOCAL_WRITE);
            }
            default ->
            {
                context.close();
                yield () -> context.allocPd();
            }
        };

        assertThrows(IllegalStateException.class, use);
    }

    @Test
    void contextCloseClosesEverythingCreatedFromIt()
    {
        context.close();

        for (final RdmaResource resource : List.of(qp, ah, mr, cq, channel, pd, context))
        {
            assertTrue(resource.isClosed(), resource + " still open after Context.close");
        }
    }

    private static void assertBusy(final RdmaResource resource)
    {
        final VerbsException ex = assertThrows(VerbsException.class, resource::close);
        assertEquals(VerbsException.EBUSY, ex.errno(), ex.getMessage());
        assertFalse(resource.isClosed());
    }
}
