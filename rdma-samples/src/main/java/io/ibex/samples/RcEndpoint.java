package io.ibex.samples;

import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.AhAttr;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.Device;
import io.ibex.rdma.verbs.Gid;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.PortAttributes;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpCapabilities;
import io.ibex.rdma.verbs.QpInitAttr;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.WorkCompletion;
import org.agrona.CloseHelper;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.nio.ByteBuffer;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * One end of a reliable connection set up out of band, the way {@code ibv_rc_pingpong} does it: its own
 * context, protection domain, one completion queue for sends and receives, an RC queue pair in INIT, and one
 * registered buffer that peers may RDMA WRITE into. Exchange {@link #address()}es, then {@link #connect} each
 * side to the other to move both queue pairs through RTR to RTS.
 * <p>
 * Not thread safe: one thread sets it up, afterwards the rules of {@link QueuePair} apply.
 */
public final class RcEndpoint implements AutoCloseable
{
    /** What the buffer and the queue pair allow: local receives and remote RDMA WRITE. */
    public static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE;

    private static final int PSN_MASK = 0xffffff;
    private static final int SGES_PER_REQUEST = 1;

    private final Context context;
    private final ProtectionDomain pd;
    private final CompletionQueue cq;
    private final QueuePair qp;
    private final MemoryRegion mr;
    private final int portNum;
    private final int gidIndex;
    private final int psn;
    private final WorkCompletion[] awaited = { new WorkCompletion() };

    private RcEndpoint(
        final Context context,
        final ProtectionDomain pd,
        final CompletionQueue cq,
        final QueuePair qp,
        final MemoryRegion mr,
        final int portNum,
        final int gidIndex)
    {
        this.context = context;
        this.pd = pd;
        this.cq = cq;
        this.qp = qp;
        this.mr = mr;
        this.portNum = portNum;
        this.gidIndex = gidIndex;
        this.psn = ThreadLocalRandom.current().nextInt() & PSN_MASK; // a random start PSN, as ibv_rc_pingpong
    }

    /**
     * Opens the device and creates the endpoint's resources; its queue pair ends in INIT.
     *
     * @param device       the device to open.
     * @param portNum      the port, from 1.
     * @param gidIndex     the GID-table index to address by (1 is the IPv4-mapped GID on RoCE).
     * @param bufferLength bytes of the registered buffer.
     * @param queueDepth   outstanding sends and outstanding receives the queue pair must hold.
     * @return the endpoint; close it to release everything.
     */
    public static RcEndpoint open(
        final Device device,
        final int portNum,
        final int gidIndex,
        final int bufferLength,
        final int queueDepth)
    {
        final Context context = device.open();
        try
        {
            final ProtectionDomain pd = context.allocPd();
            final CompletionQueue cq = context.createCq(2 * queueDepth, null, 0);
            final QpCapabilities cap = new QpCapabilities(
                queueDepth, queueDepth, SGES_PER_REQUEST, SGES_PER_REQUEST, 0);
            final QueuePair qp = pd.createQp(new QpInitAttr(QpType.RC, cq, cq, cap, false));
            final MemoryRegion mr = pd.registerMemory(ByteBuffer.allocateDirect(bufferLength), ACCESS);
            qp.modify(QpAttr.init(portNum, ACCESS));
            return new RcEndpoint(context, pd, cq, qp, mr, portNum, gidIndex);
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietClose(context); // closing the context closes what was created from it
            throw ex;
        }
    }

    /**
     * @return what the peer needs to connect to this endpoint.
     */
    public EndpointAddress address()
    {
        final PortAttributes port = context.queryPort(portNum);
        return new EndpointAddress(port.lid(), qp.qpNum(), psn, context.queryGid(portNum, gidIndex));
    }

    /**
     * Moves the queue pair to RTR towards the peer, then to RTS, as {@code ibv_rc_pingpong}'s
     * {@code pp_connect_ctx}: by GID when the peer has one, else by LID; path MTU is the port's active MTU.
     *
     * @param remote the peer's address.
     */
    public void connect(final EndpointAddress remote)
    {
        final AhAttr ah = Gid.ZERO.equals(remote.gid()) ?
            AhAttr.local(portNum, remote.lid()) : AhAttr.global(portNum, remote.gid(), gidIndex);
        qp.modify(QpAttr.rtr(ah, remote.qpNum(), remote.psn(), context.queryPort(portNum).activeMtu()));
        qp.modify(QpAttr.rts(psn));
    }

    /**
     * Polls the completion queue until one completion arrives, backing off while it is empty.
     *
     * @param timeoutMillis how long to wait.
     * @param awaitedWork   what the caller waits for, for the error message.
     * @return the completion (successful or not); reused by the next call.
     * @throws IllegalStateException if none arrived in time.
     */
    public WorkCompletion awaitCompletion(final long timeoutMillis, final String awaitedWork)
    {
        final IdleStrategy idle = new BackoffIdleStrategy();
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (cq.poll(awaited, 1) == 0)
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new IllegalStateException(String.format(
                    "no completion for %s on the CQ of QP 0x%06x within %d ms (QP state %s)",
                    awaitedWork, qp.qpNum(), timeoutMillis, qp.state()));
            }
            idle.idle();
        }
        return awaited[0];
    }

    /** @return the opened device context. */
    public Context context()
    {
        return context;
    }

    /** @return the completion queue of both sends and receives. */
    public CompletionQueue cq()
    {
        return cq;
    }

    /** @return the RC queue pair. */
    public QueuePair qp()
    {
        return qp;
    }

    /** @return the registered buffer's memory region ({@link MemoryRegion#buffer()} is the buffer). */
    public MemoryRegion mr()
    {
        return mr;
    }

    /**
     * Releases the buffer, queue pair, completion queue, protection domain and context, in that order.
     */
    @Override
    public void close()
    {
        CloseHelper.closeAll(mr, qp, cq, pd, context);
    }
}
