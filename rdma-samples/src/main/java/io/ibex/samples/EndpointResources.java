package io.ibex.samples;

import io.ibex.rdma.verbs.CompletionChannel;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.Device;
import io.ibex.rdma.verbs.Gid;
import io.ibex.rdma.verbs.LinkLayer;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.PortAttributes;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.VerbsException;
import org.agrona.CloseHelper;

/**
 * What an out-of-band endpoint opens before its queue pair, as the {@code pp_init_ctx} of the rdma-core
 * ping-pong examples: the device context, a completion channel when completions are awaited as events, a
 * protection domain, one registered buffer, and one completion queue for sends and receives (or, as perftest's
 * SEND tests have, one for each). Opening checks the port and the GID index up front, so a bad {@code -i} or
 * {@code -g} fails with a message that names it.
 * <p>
 * Not thread safe. Closing the context releases everything, children first.
 */
public final class EndpointResources implements AutoCloseable
{
    /** The GID index that means "address by LID, send no GID", as the C tools' default {@code -g} of -1. */
    public static final int NO_GID = -1;

    private final Context context;
    private final CompletionChannel channel;
    private final ProtectionDomain pd;
    private final MemoryRegion mr;
    private final CompletionQueue cq;
    private final CompletionQueue recvCq;
    private final int portNum;
    private final int gidIndex;
    private final PortAttributes port;
    private final Gid gid;

    private EndpointResources(
        final Context context,
        final CompletionChannel channel,
        final ProtectionDomain pd,
        final MemoryRegion mr,
        final CompletionQueue cq,
        final CompletionQueue recvCq,
        final int portNum,
        final int gidIndex,
        final PortAttributes port,
        final Gid gid)
    {
        this.context = context;
        this.channel = channel;
        this.pd = pd;
        this.mr = mr;
        this.cq = cq;
        this.recvCq = recvCq;
        this.portNum = portNum;
        this.gidIndex = gidIndex;
        this.port = port;
        this.gid = gid;
    }

    /**
     * Opens the device and creates the resources, with one completion queue for sends and receives.
     *
     * @param device       the device to open.
     * @param portNum      the port, from 1.
     * @param gidIndex     the GID-table index to address by, or {@link #NO_GID} to address by LID.
     * @param bufferLength bytes of the registered buffer, 1 or more.
     * @param mrAccess     the {@link io.ibex.rdma.verbs.AccessFlags} of the registered buffer.
     * @param cqe          entries of the completion queue.
     * @param events       whether to create a completion channel for the completion queue.
     * @return the resources; close them to release everything.
     * @throws IllegalArgumentException for a port or GID index the device does not have, or a LID-addressed
     *                                  endpoint on an Ethernet port.
     */
    public static EndpointResources open(
        final Device device,
        final int portNum,
        final int gidIndex,
        final int bufferLength,
        final int mrAccess,
        final int cqe,
        final boolean events)
    {
        return open(device, portNum, gidIndex, bufferLength, mrAccess, cqe, 0, events);
    }

    /**
     * Opens the device and creates the resources, with a completion queue of receives of its own when
     * {@code recvCqe} is not 0.
     *
     * @param device       the device to open.
     * @param portNum      the port, from 1.
     * @param gidIndex     the GID-table index to address by, or {@link #NO_GID} to address by LID.
     * @param bufferLength bytes of the registered buffer, 1 or more.
     * @param mrAccess     the {@link io.ibex.rdma.verbs.AccessFlags} of the registered buffer.
     * @param cqe          entries of the completion queue of sends (and of receives when {@code recvCqe} is 0).
     * @param recvCqe      entries of a separate completion queue of receives, or 0 for none.
     * @param events       whether to create a completion channel for the completion queues.
     * @return the resources; close them to release everything.
     * @throws IllegalArgumentException for a port or GID index the device does not have, or a LID-addressed
     *                                  endpoint on an Ethernet port.
     */
    public static EndpointResources open(
        final Device device,
        final int portNum,
        final int gidIndex,
        final int bufferLength,
        final int mrAccess,
        final int cqe,
        final int recvCqe,
        final boolean events)
    {
        final Context context = device.open();
        try
        {
            DeviceOptions.checkPort(context, portNum);
            final PortAttributes port = context.queryPort(portNum);
            final Gid gid = localGid(context, portNum, port, gidIndex);
            final CompletionChannel channel = events ? context.createCompChannel() : null;
            final ProtectionDomain pd = context.allocPd();
            final MemoryRegion mr = allocate(pd, bufferLength, mrAccess);
            final CompletionQueue cq = context.createCq(cqe, channel, 0);
            final CompletionQueue recvCq = recvCqe == 0 ? cq : context.createCq(recvCqe, channel, 0);
            return new EndpointResources(context, channel, pd, mr, cq, recvCq, portNum, gidIndex, port, gid);
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietClose(context); // closing the context closes what was created from it
            throw ex;
        }
    }

    private static Gid localGid(final Context context, final int portNum, final PortAttributes port, final int index)
    {
        final String where = context.device().name() + " port " + portNum;
        if (index == NO_GID)
        {
            if (port.linkLayer() == LinkLayer.ETHERNET)
            {
                throw new IllegalArgumentException(where + " has an Ethernet link layer, where queue pairs are " +
                    "addressed by GID: give a GID index with -g (-x in send-lat and send-bw; 1 is the IPv4-mapped " +
                    "GID on RoCE and soft)");
            }
            if (port.lid() == 0)
            {
                throw new IllegalArgumentException(where + " has no LID (is the subnet manager running?): " +
                    "give a GID index with -g (-x in send-lat and send-bw) to address by GID");
            }
            return Gid.ZERO;
        }
        if (index < 0 || index >= port.gidTblLen())
        {
            throw new IllegalArgumentException("GID index " + index + " out of range: " + where + " has a GID " +
                "table of " + port.gidTblLen() + " entries (0.." + (port.gidTblLen() - 1) + ")");
        }
        final Gid gid;
        try
        {
            gid = context.queryGid(portNum, index);
        }
        catch (final VerbsException ex)
        {
            throw new IllegalArgumentException("cannot read GID index " + index + " of " + where, ex);
        }
        if (Gid.ZERO.equals(gid))
        {
            throw new IllegalArgumentException("GID index " + index + " of " + where + " is empty");
        }
        return gid;
    }

    /**
     * The provider allocates the buffer: on the soft provider, one peers may access lives in shared memory, where a
     * peer process of this host copies RDMA WRITEs and READs into it directly, as an HCA would.
     */
    private static MemoryRegion allocate(final ProtectionDomain pd, final int length, final int access)
    {
        try
        {
            return pd.allocateMemory(length, access);
        }
        catch (final OutOfMemoryError ex)
        {
            throw new IllegalArgumentException("cannot allocate a buffer of " + length + " bytes: " +
                ex.getMessage(), ex);
        }
    }

    /** @return the opened device context. */
    public Context context()
    {
        return context;
    }

    /** @return the completion channel of the completion queue, or null when completions are polled. */
    public CompletionChannel channel()
    {
        return channel;
    }

    /** @return the protection domain. */
    public ProtectionDomain pd()
    {
        return pd;
    }

    /** @return the registered buffer's memory region ({@link MemoryRegion#buffer()} is the buffer). */
    public MemoryRegion mr()
    {
        return mr;
    }

    /** @return the completion queue of sends, and of receives unless they have {@link #recvCq()} of their own. */
    public CompletionQueue cq()
    {
        return cq;
    }

    /** @return the completion queue of receives: {@link #cq()}, or a queue of their own. */
    public CompletionQueue recvCq()
    {
        return recvCq;
    }

    /** @return the port, from 1. */
    public int portNum()
    {
        return portNum;
    }

    /** @return the GID-table index addressed by, or {@link #NO_GID}. */
    public int gidIndex()
    {
        return gidIndex;
    }

    /** @return the port's attributes, as queried when opening. */
    public PortAttributes port()
    {
        return port;
    }

    /** @return the port's GID at {@link #gidIndex()}, or {@link Gid#ZERO} when addressing by LID. */
    public Gid gid()
    {
        return gid;
    }

    /**
     * Releases the context and everything created from it.
     */
    @Override
    public void close()
    {
        CloseHelper.closeAll(mr, recvCq == cq ? null : recvCq, cq, pd, channel, context);
    }
}
