package io.ibex.rdma.provider.soft;

import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.AhAttr;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.Mtu;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpCapabilities;
import io.ibex.rdma.verbs.QpInitAttr;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.WorkCompletion;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Soft-provider test fixture: a context on the soft device, a PD, and QPs connected the ibv_rc_pingpong way.
 */
final class SoftFixture implements AutoCloseable
{
    static final int GID_INDEX = 1;
    static final int QKEY = 0x11111111;
    static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);

    final Context context;
    final ProtectionDomain pd;

    SoftFixture()
    {
        context = new SoftProvider().devices().get(0).open();
        pd = context.allocPd();
    }

    QueuePair qp(final QpType type, final int depth)
    {
        final CompletionQueue sendCq = context.createCq(depth * 2, null, 0);
        final CompletionQueue recvCq = context.createCq(depth * 2, null, 0);
        return pd.createQp(new QpInitAttr(type, sendCq, recvCq, new QpCapabilities(depth, depth, 2, 2, 64), false));
    }

    MemoryRegion register(final int size)
    {
        return pd.registerMemory(ByteBuffer.allocateDirect(size), AccessFlags.ALL);
    }

    /**
     * Brings {@code qp} to RTS: UD on its own, RC and UC connected to QP {@code dstQpn} at {@code remote}.
     */
    static void connect(final QueuePair qp, final AhAttr remote, final int dstQpn, final int rnrRetry)
    {
        if (qp.type() == QpType.UD)
        {
            qp.modify(QpAttr.initUd(1, QKEY));
            qp.modify(QpAttr.to(QpState.RTR));
            qp.modify(QpAttr.to(QpState.RTS).sqPsn(0));
            return;
        }
        qp.modify(QpAttr.init(1, AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC));
        if (qp.type() == QpType.UC)
        {
            qp.modify(new QpAttr().state(QpState.RTR).ahAttr(remote).destQpNum(dstQpn).rqPsn(0)
                .pathMtu(Mtu.MTU_4096));
            qp.modify(QpAttr.to(QpState.RTS).sqPsn(0));
            return;
        }
        qp.modify(QpAttr.rtr(remote, dstQpn, 0, Mtu.MTU_4096).minRnrTimer(1));
        qp.modify(QpAttr.rts(0).rnrRetry(rnrRetry));
    }

    AhAttr address()
    {
        return AhAttr.global(1, context.queryGid(1, GID_INDEX), GID_INDEX);
    }

    void pair(final QueuePair a, final QueuePair b, final int rnrRetry)
    {
        connect(a, address(), b.qpNum(), rnrRetry);
        connect(b, address(), a.qpNum(), rnrRetry);
    }

    static WorkCompletion await(final CompletionQueue cq)
    {
        final WorkCompletion[] wcs = {new WorkCompletion()};
        final long deadline = System.nanoTime() + WAIT_NANOS;
        while (System.nanoTime() - deadline < 0)
        {
            if (cq.poll(wcs) == 1)
            {
                return wcs[0];
            }
        }
        return fail("no completion on " + cq + " within 10 s");
    }

    @Override
    public void close()
    {
        context.close();
    }
}
