package io.ibex.samples.perf;

import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.Device;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.PortAttributes;
import io.ibex.rdma.verbs.QpCapabilities;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.samples.EndpointAddress;
import io.ibex.samples.EndpointResources;
import io.ibex.samples.RcEndpoint;
import org.agrona.BitUtil;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One side of a perftest SEND or RDMA WRITE test, set up as perftest's {@code ctx_init} does: a send completion
 * queue, a receive completion queue of its own, an RC queue pair of {@code tx-depth} sends and {@code rx-depth}
 * receives, and one registered buffer with a send slot and a receive slot (the slot the peer's WRITEs land in).
 * Connected out of band with the exchange of the rdma-core ping-pongs.
 */
final class PerfEndpoint implements AutoCloseable
{
    private static final int SGES_PER_REQUEST = 1;

    private final RcEndpoint endpoint;
    private final UnsafeBuffer buffer;
    private final int size;
    private final int slot;
    private final int inlineSize;

    private PerfEndpoint(final RcEndpoint endpoint, final int size, final int slot, final int inlineSize)
    {
        this.endpoint = endpoint;
        this.buffer = new UnsafeBuffer(endpoint.mr().buffer());
        this.size = size;
        this.slot = slot;
        this.inlineSize = inlineSize;
    }

    /**
     * Opens the device and creates the endpoint, its queue pair in INIT.
     *
     * @param device     the device.
     * @param portNum    the port, from 1.
     * @param gidIndex   the GID index, or {@link EndpointResources#NO_GID}.
     * @param size       bytes of each message.
     * @param txDepth    outstanding sends.
     * @param rxDepth    outstanding receives.
     * @param inlineSize the largest message sent inline (0 for none).
     * @param remote     what the peer may do to the buffer: 0, or {@link AccessFlags#REMOTE_WRITE} for the
     *                   WRITE tests.
     * @return the endpoint; close it to release everything.
     * @throws IllegalArgumentException if the port cannot carry messages of that size.
     */
    static PerfEndpoint open(
        final Device device,
        final int portNum,
        final int gidIndex,
        final int size,
        final int txDepth,
        final int rxDepth,
        final int inlineSize,
        final int remote)
    {
        final int slot = BitUtil.align(size, BitUtil.CACHE_LINE_LENGTH);
        final EndpointResources resources = EndpointResources.open(
            device, portNum, gidIndex, 2 * slot, AccessFlags.LOCAL_WRITE | remote, txDepth, rxDepth, false);
        final long maxMessage = resources.port().maxMsgSz();
        if (size > maxMessage)
        {
            resources.close();
            throw new IllegalArgumentException("-s/--size " + size + " is larger than the largest message of " +
                device.name() + " port " + portNum + " (" + maxMessage + " bytes)");
        }
        final QpCapabilities cap =
            new QpCapabilities(txDepth, rxDepth, SGES_PER_REQUEST, SGES_PER_REQUEST, inlineSize);
        return new PerfEndpoint(RcEndpoint.open(resources, cap, remote), size, slot, inlineSize);
    }

    /**
     * @return a SEND of one message from the send slot, unsignaled, inline when the message fits {@code -I}.
     */
    SendWorkRequest newSend()
    {
        final SendWorkRequest send = new SendWorkRequest().opcode(SendOpcode.SEND)
            .sendFlags(size <= inlineSize ? SendFlags.INLINE : 0);
        send.sge(0).set(endpoint.mr(), 0, size);
        return send;
    }

    /**
     * @param target the peer's receive slot.
     * @return an RDMA WRITE of one message from the send slot into the peer's receive slot, unsignaled, inline
     *         when the message fits {@code -I}.
     */
    SendWorkRequest newWrite(final RemoteSlot target)
    {
        return newSend().opcode(SendOpcode.RDMA_WRITE).remote(target.address(), target.rkey());
    }

    /**
     * @return this side's receive slot, for the peer's WRITEs.
     */
    RemoteSlot receiveSlot()
    {
        final MemoryRegion mr = endpoint.mr();
        return new RemoteSlot(mr.address() + slot, mr.rkey(), size);
    }

    /** @return the registered buffer: the send slot at 0, the receive slot after it. */
    UnsafeBuffer buffer()
    {
        return buffer;
    }

    /** @return the index in {@link #buffer()} of the last byte of the message in the send slot. */
    int lastSentByte()
    {
        return size - 1;
    }

    /** @return the index in {@link #buffer()} of the last byte of a message in the receive slot. */
    int lastReceivedByte()
    {
        return slot + size - 1;
    }

    /**
     * @return a receive of one message into the receive slot.
     */
    ReceiveWorkRequest newReceive()
    {
        final ReceiveWorkRequest recv = new ReceiveWorkRequest();
        recv.sge(0).set(endpoint.mr(), slot, size);
        return recv;
    }

    /** @return the queue pair. */
    QueuePair qp()
    {
        return endpoint.qp();
    }

    /** @return the completion queue of sends. */
    CompletionQueue sendCq()
    {
        return endpoint.cq();
    }

    /** @return the completion queue of receives. */
    CompletionQueue recvCq()
    {
        return endpoint.resources().recvCq();
    }

    /** @return the port's attributes. */
    PortAttributes port()
    {
        return endpoint.resources().port();
    }

    /** @return what the peer needs to connect to this side. */
    EndpointAddress address()
    {
        return endpoint.address();
    }

    /**
     * Moves the queue pair through RTR to RTS towards the peer, at the port's active MTU.
     *
     * @param remote the peer's address.
     */
    void connect(final EndpointAddress remote)
    {
        endpoint.connect(remote);
    }

    /**
     * Releases the queue pair, the completion queues, the buffer and the device context.
     */
    @Override
    public void close()
    {
        CloseHelper.close(endpoint);
    }
}
