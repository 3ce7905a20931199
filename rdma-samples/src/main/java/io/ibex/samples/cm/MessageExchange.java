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

import java.io.PrintWriter;
import java.nio.ByteBuffer;

/**
 * One side of {@code rdma_server} / {@code rdma_client}: the queue pair {@code rdma_create_ep} creates for them
 * (one send and one receive of one SGE each, 16 bytes of inline data, every send signaled), and the exchange
 * of one 16-byte message each way. Both C tools send their zero-initialised 16-byte buffer, so that is what is
 * sent and what a receive must deliver; the receive slot is filled with a marker first, so only a delivered
 * message can pass the check.
 */
final class MessageExchange
{
    /** Bytes of each message, as both C tools send and receive. */
    static final int MESSAGE_LENGTH = 16;

    private static final int RECV_OFFSET = 0;
    private static final int SEND_OFFSET = RECV_OFFSET + MESSAGE_LENGTH;
    private static final int BUFFER_LENGTH = SEND_OFFSET + MESSAGE_LENGTH;
    private static final byte NOT_RECEIVED = (byte)0xa5;
    private static final int QUEUE_DEPTH = 1;
    private static final long RECV_WR_ID = 1;
    private static final long SEND_WR_ID = 2;

    private final QueuePair qp;
    private final MemoryRegion mr;
    private final CompletionWatch watch;
    private final ReceiveWorkRequest recv = new ReceiveWorkRequest().wrId(RECV_WR_ID);
    private final SendWorkRequest send = new SendWorkRequest().wrId(SEND_WR_ID).opcode(SendOpcode.SEND);

    /**
     * One side of the exchange, given its connection manager.
     */
    @FunctionalInterface
    interface Side
    {
        /**
         * @param cm        the connection manager.
         * @param resources where to put every resource created.
         * @return what was exchanged with whom, for the output.
         */
        String run(CmSequence cm, ResourceStack resources);
    }

    private MessageExchange(final QueuePair qp, final MemoryRegion mr, final CompletionWatch watch)
    {
        this.qp = qp;
        this.mr = mr;
        this.watch = watch;
        recv.sge(0).set(mr, RECV_OFFSET, MESSAGE_LENGTH);
        send.sge(0).set(mr, SEND_OFFSET, MESSAGE_LENGTH);
        // as the C tools: inline when the QP took 16 bytes of inline data, else from the registered buffer
        send.sendFlags(SendFlags.SIGNALED |
            (qp.capabilities().maxInlineData() >= MESSAGE_LENGTH ? SendFlags.INLINE : 0));
    }

    /**
     * Runs one side as the C tools do, between the lines {@code TOOL: start} and {@code TOOL: end 0}.
     *
     * @param tool    the tool's name, e.g. {@code rdma-server}.
     * @param options the provider and the time limit of each wait.
     * @param out     where the lines go.
     * @param side    the side.
     */
    static void run(final String tool, final CmOptions options, final PrintWriter out, final Side side)
    {
        out.println(tool + ": start");
        out.flush();
        CmProgram.run(options, event -> { }, (cm, resources) -> out.println(tool + ": " + side.run(cm, resources)));
        out.println(tool + ": end 0");
        out.flush();
    }

    /**
     * Creates the protection domain, completion queue, queue pair and message buffer on a connection id.
     *
     * @param id        the id, its address resolved or from a connection request.
     * @param cm        its connection manager.
     * @param resources where the new resources go, to be released in reverse order.
     * @return the exchange, its receive not yet posted.
     */
    static MessageExchange create(final CmId id, final CmSequence cm, final ResourceStack resources)
    {
        final ProtectionDomain pd = resources.push(id.context().allocPd());
        final CompletionQueue cq = resources.push(id.context().createCq(2 * QUEUE_DEPTH, null, 0));
        final QpCapabilities cap = new QpCapabilities(QUEUE_DEPTH, QUEUE_DEPTH, 1, 1, MESSAGE_LENGTH);
        final QueuePair qp = resources.push(id.createQp(pd, new QpInitAttr(QpType.RC, cq, cq, cap, true)));
        final MemoryRegion mr = resources.push(
            pd.registerMemory(ByteBuffer.allocateDirect(BUFFER_LENGTH), AccessFlags.LOCAL_WRITE));
        return new MessageExchange(qp, mr, new CompletionWatch(qp, cq, cm));
    }

    /**
     * Posts the receive for the peer's message, as {@code rdma_post_recv}.
     */
    void postReceive()
    {
        final ByteBuffer buffer = mr.buffer();
        for (int i = 0; i < MESSAGE_LENGTH; i++)
        {
            buffer.put(RECV_OFFSET + i, NOT_RECEIVED);
        }
        qp.postRecv(recv);
    }

    /**
     * Awaits the peer's message and checks it is the 16 zero bytes the C tools send.
     *
     * @param awaited what the message is, for error messages.
     * @return the message's length.
     */
    int awaitReceive(final String awaited)
    {
        final WorkCompletion wc = watch.await(WcOpcode.RECV, awaited);
        if (wc.byteLen() != MESSAGE_LENGTH)
        {
            throw new IllegalStateException(awaited + " has " + wc.byteLen() + " bytes, expected " + MESSAGE_LENGTH);
        }
        final ByteBuffer buffer = mr.buffer();
        for (int i = 0; i < MESSAGE_LENGTH; i++)
        {
            final byte b = buffer.get(RECV_OFFSET + i);
            if (b != 0)
            {
                throw new IllegalStateException(String.format(
                    "%s: byte %d is 0x%02x, expected 0 (rdma_server and rdma_client send 16 zero bytes)",
                    awaited, i, b & 0xff));
            }
        }
        return wc.byteLen();
    }

    /**
     * Sends this side's message, as {@code rdma_post_send}, and awaits its completion.
     *
     * @param awaited what the send is, for error messages.
     */
    void send(final String awaited)
    {
        qp.postSend(send);
        watch.await(WcOpcode.SEND, awaited);
    }
}
