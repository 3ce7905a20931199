package io.ibex.samples;

import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.AhAttr;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.Device;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.Mtu;
import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpCapabilities;
import io.ibex.rdma.verbs.QpInitAttr;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.WorkCompletion;
import org.agrona.CloseHelper;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * One end of a reliable connection set up out of band, the way {@code ibv_rc_pingpong} does it: the
 * {@link EndpointResources} (context, protection domain, one completion queue for sends and receives, one
 * registered buffer) and an RC queue pair in INIT. Exchange {@link #address()}es, then {@link #connect} each
 * side to the other to move both queue pairs through RTR to RTS.
 * <p>
 * Not thread safe: one thread sets it up, afterwards the rules of {@link QueuePair} apply.
 */
public final class RcEndpoint implements AutoCloseable
{
    /** What the buffer and the queue pair allow in the demo and rdma-write: local receives and remote WRITE. */
    public static final int ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE;

    private static final int PSN_MASK = 0xffffff;
    private static final int SGES_PER_REQUEST = 1;

    private final EndpointResources resources;
    private final QueuePair qp;
    private final int psn;
    private final WorkCompletion[] awaited = { new WorkCompletion() };

    private RcEndpoint(final EndpointResources resources, final QueuePair qp)
    {
        this.resources = resources;
        this.qp = qp;
        this.psn = ThreadLocalRandom.current().nextInt() & PSN_MASK; // a random start PSN, as ibv_rc_pingpong
    }

    /**
     * Opens the device and creates an endpoint whose buffer and queue pair allow remote RDMA WRITE
     * ({@link #ACCESS}), with as many sends as receives outstanding; its queue pair ends in INIT.
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
        final EndpointResources resources =
            EndpointResources.open(device, portNum, gidIndex, bufferLength, ACCESS, 2 * queueDepth, false);
        return open(resources, queueDepth, queueDepth, ACCESS);
    }

    /**
     * Creates the RC queue pair on opened resources and moves it to INIT; the endpoint owns the resources
     * from here on, and closes them on failure.
     *
     * @param resources the opened resources.
     * @param sendDepth outstanding sends the queue pair must hold.
     * @param recvDepth outstanding receives the queue pair must hold.
     * @param qpAccess  the remote access the queue pair allows ({@link AccessFlags}).
     * @return the endpoint.
     */
    public static RcEndpoint open(
        final EndpointResources resources, final int sendDepth, final int recvDepth, final int qpAccess)
    {
        return open(resources, new QpCapabilities(sendDepth, recvDepth, SGES_PER_REQUEST, SGES_PER_REQUEST, 0),
            qpAccess);
    }

    /**
     * Creates the RC queue pair with the given capabilities on opened resources (sends completing on
     * {@link EndpointResources#cq()}, receives on {@link EndpointResources#recvCq()}) and moves it to INIT; the
     * endpoint owns the resources from here on, and closes them on failure.
     *
     * @param resources the opened resources.
     * @param cap       what the queue pair must hold: outstanding requests, SGEs, inline data.
     * @param qpAccess  the remote access the queue pair allows ({@link AccessFlags}).
     * @return the endpoint.
     */
    public static RcEndpoint open(final EndpointResources resources, final QpCapabilities cap, final int qpAccess)
    {
        try
        {
            final QueuePair qp = resources.pd().createQp(
                new QpInitAttr(QpType.RC, resources.cq(), resources.recvCq(), cap, false));
            final RcEndpoint endpoint = new RcEndpoint(resources, qp);
            qp.modify(QpAttr.init(resources.portNum(), qpAccess));
            return endpoint;
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietClose(resources);
            throw ex;
        }
    }

    /**
     * @return what the peer needs to connect to this endpoint.
     */
    public EndpointAddress address()
    {
        return new EndpointAddress(resources.port().lid(), qp.qpNum(), psn, resources.gid());
    }

    /**
     * Moves the queue pair to RTR towards the peer, then to RTS, with the port's active MTU as path MTU and
     * service level 0.
     *
     * @param remote the peer's address.
     */
    public void connect(final EndpointAddress remote)
    {
        connect(remote, resources.port().activeMtu(), 0);
    }

    /**
     * Moves the queue pair to RTR towards the peer, then to RTS, as {@code ibv_rc_pingpong}'s
     * {@code pp_connect_ctx}: through a GRH when the peer sent a GID (a non-zero interface id), else by LID.
     *
     * @param remote  the peer's address.
     * @param pathMtu the path MTU.
     * @param sl      the service level.
     */
    public void connect(final EndpointAddress remote, final Mtu pathMtu, final int sl)
    {
        qp.modify(QpAttr.rtr(ahAttr(resources, remote, sl), remote.qpNum(), remote.psn(), pathMtu));
        qp.modify(QpAttr.rts(psn));
    }

    /**
     * The address of a peer's port as the rdma-core ping-pong examples build it: global (hop limit 1, the local
     * GID index) when the peer's GID has a non-zero interface id, else by LID alone.
     *
     * @param resources the local endpoint's resources.
     * @param remote    the peer's address.
     * @param sl        the service level.
     * @return the attributes.
     */
    public static AhAttr ahAttr(final EndpointResources resources, final EndpointAddress remote, final int sl)
    {
        final boolean global = remote.gid().interfaceId() != 0;
        return new AhAttr(remote.lid(), sl, resources.portNum(), global, global ? remote.gid() : null,
            global ? resources.gidIndex() : 0, global ? 1 : 0, 0, 0);
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
        while (resources.cq().poll(awaited, 1) == 0)
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

    /** @return the resources: context, channel, protection domain, completion queue, buffer. */
    public EndpointResources resources()
    {
        return resources;
    }

    /** @return the opened device context. */
    public Context context()
    {
        return resources.context();
    }

    /** @return the completion queue of sends, and of receives unless they have one of their own. */
    public CompletionQueue cq()
    {
        return resources.cq();
    }

    /** @return the RC queue pair. */
    public QueuePair qp()
    {
        return qp;
    }

    /** @return the registered buffer's memory region ({@link MemoryRegion#buffer()} is the buffer). */
    public MemoryRegion mr()
    {
        return resources.mr();
    }

    /**
     * Releases the queue pair, then the resources.
     */
    @Override
    public void close()
    {
        CloseHelper.closeAll(qp, resources);
    }
}
