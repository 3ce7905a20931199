package io.ibex.samples.cm;

import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.QpCapabilities;
import io.ibex.rdma.verbs.QpInitAttr;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.WcOpcode;
import io.ibex.rdma.verbs.WorkCompletion;

import java.nio.ByteBuffer;
import java.util.function.Consumer;

/**
 * One side of an rping connection, with the resources {@code rping_setup_qp} and {@code rping_setup_buffers}
 * create: a protection domain, one completion queue of 32 entries, an RC queue pair of 16 sends and 2
 * receives, a 16-byte receive buffer and a 16-byte send buffer for {@link RpingInfo} messages, and the
 * {@code size}-byte RDMA buffer (the client's sink, the server's copy of the ping data). Every send is
 * signaled, and a receive is re-posted as soon as its message is read, as rping's completion handler does.
 */
final class RpingEndpoint
{
    /** Send queue depth, as RPING_SQ_DEPTH. */
    static final int SQ_DEPTH = 16;
    /** Access of the RDMA buffers: the peer may read and write them. */
    static final int RDMA_ACCESS = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE;

    private static final int RQ_DEPTH = 2;
    private static final int RECV_OFFSET = 0;
    private static final int SEND_OFFSET = RECV_OFFSET + RpingInfo.LENGTH;
    private static final int MESSAGE_BUFFER_LENGTH = SEND_OFFSET + RpingInfo.LENGTH;
    private static final long RECV_WR_ID = 1;
    private static final long SEND_WR_ID = 2;
    private static final long RDMA_WR_ID = 3;

    private final ProtectionDomain pd;
    private final QueuePair qp;
    private final MemoryRegion rdmaBuffer;
    private final CompletionWatch watch;
    private final Consumer<String> debug;
    private final RpingInfo received = new RpingInfo();
    private final RpingInfo toSend = new RpingInfo();
    private final ReceiveWorkRequest recv = new ReceiveWorkRequest().wrId(RECV_WR_ID);
    private final SendWorkRequest send = new SendWorkRequest().wrId(SEND_WR_ID)
        .opcode(SendOpcode.SEND).sendFlags(SendFlags.SIGNALED);
    private final SendWorkRequest rdma = new SendWorkRequest().wrId(RDMA_WR_ID).sendFlags(SendFlags.SIGNALED);
    private long remoteAddress;
    private int remoteRkey;
    private long remoteLength;

    private RpingEndpoint(
        final ProtectionDomain pd,
        final QueuePair qp,
        final MemoryRegion messages,
        final MemoryRegion rdmaBuffer,
        final CompletionWatch watch,
        final Consumer<String> debug)
    {
        this.pd = pd;
        this.qp = qp;
        this.rdmaBuffer = rdmaBuffer;
        this.watch = watch;
        this.debug = debug;
        received.wrap(messages.buffer(), RECV_OFFSET);
        toSend.wrap(messages.buffer(), SEND_OFFSET);
        recv.sge(0).set(messages, RECV_OFFSET, RpingInfo.LENGTH);
        send.sge(0).set(messages, SEND_OFFSET, RpingInfo.LENGTH);
        rdma.sge(0).set(rdmaBuffer, 0, 0);
    }

    /**
     * Creates the resources on a connection id.
     *
     * @param id        the id, its route resolved (client) or from a connection request (server).
     * @param size      bytes of the RDMA buffer (rping's {@code -S}).
     * @param cm        the id's connection manager.
     * @param resources where the new resources go, to be released in reverse order.
     * @param debug     takes rping's debug lines, or ignores them.
     * @return the endpoint, its receive not yet posted.
     */
    static RpingEndpoint create(
        final CmId id,
        final int size,
        final CmSequence cm,
        final ResourceStack resources,
        final Consumer<String> debug)
    {
        final ProtectionDomain pd = resources.push(id.context().allocPd());
        final CompletionQueue cq = resources.push(id.context().createCq(2 * SQ_DEPTH, null, 0));
        final QpCapabilities cap = new QpCapabilities(SQ_DEPTH, RQ_DEPTH, 1, 1, 0);
        final QueuePair qp = resources.push(id.createQp(pd, new QpInitAttr(QpType.RC, cq, cq, cap, false)));
        final MemoryRegion messages = resources.push(
            pd.registerMemory(ByteBuffer.allocateDirect(MESSAGE_BUFFER_LENGTH), AccessFlags.LOCAL_WRITE));
        final MemoryRegion rdmaBuffer = resources.push(pd.registerMemory(ByteBuffer.allocateDirect(size), RDMA_ACCESS));
        return new RpingEndpoint(pd, qp, messages, rdmaBuffer, new CompletionWatch(qp, cq, cm), debug);
    }

    /**
     * Registers one more buffer the peer may read and write (the client's source buffer).
     *
     * @param size      its length.
     * @param resources where it goes, to be released in reverse order.
     * @return its memory region.
     */
    MemoryRegion registerBuffer(final int size, final ResourceStack resources)
    {
        return resources.push(pd.registerMemory(ByteBuffer.allocateDirect(size), RDMA_ACCESS));
    }

    /** @return the RDMA buffer: the client's sink, the server's copy of the ping data. */
    MemoryRegion rdmaBuffer()
    {
        return rdmaBuffer;
    }

    /**
     * Posts the receive for the peer's next message.
     */
    void postReceive()
    {
        qp.postRecv(recv);
    }

    /**
     * Awaits the peer's next 16-byte message, notes the buffer it advertises and re-posts the receive.
     *
     * @param awaited what the message is, for error messages.
     * @throws IllegalStateException if the message is not 16 bytes long.
     */
    void awaitMessage(final String awaited)
    {
        final WorkCompletion wc = watch.await(WcOpcode.RECV, awaited);
        debug.accept("recv completion");
        if (wc.byteLen() != RpingInfo.LENGTH)
        {
            throw new IllegalStateException("received bogus data while awaiting " + awaited + ": " + wc.byteLen() +
                " bytes, where rping's message has " + RpingInfo.LENGTH);
        }
        remoteAddress = received.buf();
        remoteRkey = received.rkey();
        remoteLength = received.size();
        postReceive();
    }

    /** @return the buffer address of the last message received. */
    long remoteAddress()
    {
        return remoteAddress;
    }

    /** @return the rkey of the last message received. */
    int remoteRkey()
    {
        return remoteRkey;
    }

    /** @return the buffer length of the last message received. */
    long remoteLength()
    {
        return remoteLength;
    }

    /**
     * Sends the 16-byte message advertising a buffer, as the client does.
     *
     * @param mr   the buffer's memory region.
     * @param size the length to advertise.
     */
    void advertise(final MemoryRegion mr, final int size)
    {
        toSend.set(mr.address(), mr.rkey(), size);
        debug.accept(String.format("RDMA addr %x rkey %x len %d", mr.address(), mr.rkey(), size));
        qp.postSend(send);
    }

    /**
     * Sends the 16-byte "go ahead" message, as the server does (its send buffer is never written: zeros).
     */
    void goAhead()
    {
        qp.postSend(send);
    }

    /**
     * RDMA READs {@code length} bytes of the advertised buffer into the RDMA buffer and awaits the completion.
     *
     * @param length  bytes to read.
     * @param awaited what the read is, for error messages.
     */
    void read(final int length, final String awaited)
    {
        post(SendOpcode.RDMA_READ, length);
        watch.await(WcOpcode.RDMA_READ, awaited);
        debug.accept("rdma read completion");
    }

    /**
     * RDMA WRITEs the first {@code length} bytes of the RDMA buffer into the advertised buffer and awaits the
     * completion.
     *
     * @param length  bytes to write.
     * @param awaited what the write is, for error messages.
     */
    void write(final int length, final String awaited)
    {
        post(SendOpcode.RDMA_WRITE, length);
        watch.await(WcOpcode.RDMA_WRITE, awaited);
        debug.accept("rdma write completion");
    }

    private void post(final SendOpcode opcode, final int length)
    {
        rdma.opcode(opcode).remote(remoteAddress, remoteRkey);
        rdma.sge(0).length(length);
        qp.postSend(rdma);
    }
}
