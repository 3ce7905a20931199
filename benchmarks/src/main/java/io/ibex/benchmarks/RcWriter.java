package io.ibex.benchmarks;

import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.WorkCompletion;
import io.ibex.samples.RcEndpoint;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One side of an RDMA WRITE ping-pong, as perftest's {@code ib_write_lat}: a message of a fixed length written from
 * the front of the endpoint's buffer into the slot after the front of the peer's, its last 8 bytes a sequence number
 * the peer spins on in its own memory (no receive, nothing to poll on its side). Writes are signaled and their
 * completions reaped as they come, so the send queue never fills; nothing is allocated once built.
 */
final class RcWriter
{
    private final QueuePair qp;
    private final CompletionQueue cq;
    private final int queueDepth;
    private final SendWorkRequest write = new SendWorkRequest()
        .opcode(SendOpcode.RDMA_WRITE).sendFlags(SendFlags.SIGNALED);
    private final WorkCompletion[] completions;
    private final UnsafeBuffer buffer;
    private final int sequenceOffset;
    private final int landedOffset;
    private int writesInFlight;

    /**
     * @param endpoint      a connected endpoint with a buffer of at least {@link #bufferLength(int)} bytes.
     * @param queueDepth    writes the endpoint's queue pair holds.
     * @param messageLength bytes of each message, at least 8.
     * @param peer          the peer's buffer: where its messages land.
     */
    RcWriter(final RcEndpoint endpoint, final int queueDepth, final int messageLength, final RcPeer peer)
    {
        if (messageLength < Long.BYTES)
        {
            throw new IllegalArgumentException("an RDMA WRITE ping-pong needs messages of at least 8 bytes (their " +
                "sequence), not " + messageLength);
        }
        this.qp = endpoint.qp();
        this.cq = endpoint.cq();
        this.queueDepth = queueDepth;
        final MemoryRegion mr = endpoint.mr();
        buffer = new UnsafeBuffer(mr.buffer());
        sequenceOffset = messageLength - Long.BYTES;
        landedOffset = messageLength + sequenceOffset;
        write.sge(0).set(mr, 0, messageLength);
        write.remote(peer.bufferAddress() + messageLength, peer.rkey());
        completions = new WorkCompletion[queueDepth];
        for (int i = 0; i < completions.length; i++)
        {
            completions[i] = new WorkCompletion();
        }
    }

    /**
     * @param messageLength bytes of each message.
     * @return bytes of registered buffer a writer needs: one message to write, one slot for the peer's.
     */
    static int bufferLength(final int messageLength)
    {
        return 2 * messageLength;
    }

    /**
     * Writes a message carrying {@code sequence} into the peer's slot, first reaping completions while the send
     * queue is full.
     */
    void write(final long sequence)
    {
        while (writesInFlight == queueDepth)
        {
            reap();
        }
        buffer.putLong(sequenceOffset, sequence);
        qp.postSend(write);
        writesInFlight++;
    }

    /**
     * Reaps the completions of earlier writes, then reads the sequence of the last message the peer wrote here.
     *
     * @return that sequence (0 before the first).
     * @throws IllegalStateException on an error completion.
     */
    long landed()
    {
        reap();
        return buffer.getLongVolatile(landedOffset);
    }

    private void reap()
    {
        final int count = cq.poll(completions);
        for (int i = 0; i < count; i++)
        {
            final WorkCompletion wc = completions[i];
            if (!wc.isSuccess())
            {
                throw new IllegalStateException(String.format(
                    "QP 0x%06x: error completion %s of an RDMA WRITE (vendor_err 0x%x), %d writes in flight",
                    qp.qpNum(), wc.status(), wc.vendorErr(), writesInFlight));
            }
        }
        writesInFlight -= count;
    }
}
