package io.ibex.benchmarks;

import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.WcOpcode;
import io.ibex.rdma.verbs.WorkCompletion;
import io.ibex.samples.RcEndpoint;

/**
 * One side of an RC SEND/RECV exchange: signaled SENDs of a fixed length from the front of the endpoint's
 * buffer, and receives kept posted into the slot after it (every receive into the same slot: the benchmarks count
 * messages, they do not read them). The work requests and completions are built once and
 * re-posted, so sending and polling allocate nothing.
 */
final class RcMessenger
{
    private final QueuePair qp;
    private final CompletionQueue cq;
    private final int queueDepth;
    private final SendWorkRequest send = new SendWorkRequest()
        .opcode(SendOpcode.SEND).sendFlags(SendFlags.SIGNALED);
    private final ReceiveWorkRequest receive = new ReceiveWorkRequest();
    private final WorkCompletion[] completions;
    private int sendsInFlight;
    private int receivedWhileSending;

    /**
     * Builds the work requests and fills the receive queue.
     *
     * @param endpoint      a connected endpoint with a buffer of at least {@link #bufferLength(int, int)} bytes.
     * @param queueDepth    sends and receives the endpoint's queue pair holds.
     * @param sendLength    bytes of each message sent.
     * @param receiveLength bytes of the largest message received.
     */
    RcMessenger(final RcEndpoint endpoint, final int queueDepth, final int sendLength, final int receiveLength)
    {
        this.qp = endpoint.qp();
        this.cq = endpoint.cq();
        this.queueDepth = queueDepth;
        final MemoryRegion mr = endpoint.mr();
        send.sge(0).set(mr, 0, sendLength);
        receive.sge(0).set(mr, sendLength, receiveLength);
        completions = new WorkCompletion[2 * queueDepth];
        for (int i = 0; i < completions.length; i++)
        {
            completions[i] = new WorkCompletion();
        }
        for (int i = 0; i < queueDepth; i++)
        {
            qp.postRecv(receive);
        }
    }

    /**
     * @param sendLength    bytes of each message sent.
     * @param receiveLength bytes of the largest message received.
     * @return bytes of registered buffer a messenger needs: one message to send, one to receive.
     */
    static int bufferLength(final int sendLength, final int receiveLength)
    {
        return sendLength + receiveLength;
    }

    /**
     * Posts one SEND, first polling for send completions while the send queue is full (messages that arrive
     * meanwhile are counted by the next {@link #poll()}).
     */
    void send()
    {
        while (sendsInFlight == queueDepth)
        {
            receivedWhileSending += pollCompletions();
        }
        qp.postSend(send);
        sendsInFlight++;
    }

    /**
     * Polls the completion queue once: a completed send frees its slot, a completed receive is re-posted.
     *
     * @return how many messages arrived since the last call.
     * @throws IllegalStateException on an error completion.
     */
    int poll()
    {
        final int received = receivedWhileSending + pollCompletions();
        receivedWhileSending = 0;
        return received;
    }

    private int pollCompletions()
    {
        final int count = cq.poll(completions);
        int received = 0;
        for (int i = 0; i < count; i++)
        {
            final WorkCompletion wc = completions[i];
            if (!wc.isSuccess())
            {
                throw new IllegalStateException(String.format(
                    "QP 0x%06x: error completion %s (vendor_err 0x%x), %d sends in flight",
                    qp.qpNum(), wc.status(), wc.vendorErr(), sendsInFlight));
            }
            if (wc.opcode() == WcOpcode.RECV)
            {
                qp.postRecv(receive);
                received++;
            }
            else
            {
                sendsInFlight--;
            }
        }
        return received;
    }
}
