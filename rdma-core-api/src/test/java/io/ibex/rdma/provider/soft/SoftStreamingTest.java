package io.ibex.rdma.provider.soft;

import io.ibex.rdma.provider.soft.qp.SoftAcks;
import io.ibex.rdma.provider.soft.qp.SoftQueuePair;
import io.ibex.rdma.provider.soft.wire.SoftFrameDescriptor;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.QpAttr;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.WcStatus;
import io.ibex.rdma.verbs.WorkCompletion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What keeps a stream of messages cheap on the soft wire, checked on the wire itself: requesters ask for a prompt
 * ACK only when the application will wait for one, responders acknowledge the other messages in bulk, and a QP whose
 * application posts but never polls (so no other thread drives it) still serves its peer. An ACK in bulk may still
 * be unread when the QP goes to ERR, so going there takes what arrived first.
 */
@Timeout(30)
class SoftStreamingTest
{
    private static final int WARM_UP = 3000;
    private static final int STREAM = 100;

    private final SoftFixture fixture = new SoftFixture();
    private final WorkCompletion[] wcs = {new WorkCompletion()};
    private int acks;
    private int lastAckPsn;

    @AfterEach
    void close()
    {
        fixture.close();
    }

    @Test
    void aRequesterAsksForAPromptAckOnlyForASignaledSendOrAHalfFullSendQueue() throws Exception
    {
        final int depth = 16;
        final QueuePair qp = fixture.qp(QpType.RC, depth);
        SoftFixture.connect(qp, SoftWirePeer.address(), SoftWirePeer.QPN, 7);
        final MemoryRegion mr = fixture.register(64);
        final SendWorkRequest send = new SendWorkRequest().opcode(SendOpcode.SEND);
        send.sge(0).set(mr, 0, 8);
        try (SoftWirePeer peer = new SoftWirePeer((SoftDevice)fixture.context.device(), qp.qpNum()))
        {
            qp.postSend(send.wrId(0).sendFlags(SendFlags.SIGNALED));
            assertEquals(SoftFrameDescriptor.FLAG_ACK_REQUEST, flags(peer.readFrame()), "signaled SEND");
            peer.writeHeader(SoftFrameDescriptor.OP_ACK, 0, 0, 0, 0, 0);
            assertEquals(WcStatus.SUCCESS, SoftFixture.await(qp.sendCq()).status());

            for (int outstanding = 1; outstanding <= depth / 2; outstanding++)
            {
                qp.postSend(send.wrId(outstanding).sendFlags(0));
                final int expected = outstanding == depth / 2 ? SoftFrameDescriptor.FLAG_ACK_REQUEST : 0;
                assertEquals(expected, flags(peer.readFrame()), "unsignaled SEND with " + outstanding +
                    " of " + depth + " send queue entries in use");
            }
        }
    }

    @Test
    void aStreamOfMessagesNobodyAskedToAcknowledgePromptlyIsAcknowledgedInBulk() throws Exception
    {
        final QueuePair qp = fixture.qp(QpType.RC, 16);
        SoftFixture.connect(qp, SoftWirePeer.address(), SoftWirePeer.QPN, 7);
        final MemoryRegion mr = fixture.register(64);
        final ReceiveWorkRequest recv = new ReceiveWorkRequest();
        recv.sge(0).set(mr, 0, 64);
        qp.postRecv(recv.wrId(0));
        try (SoftWirePeer peer = new SoftWirePeer((SoftDevice)fixture.context.device(), qp.qpNum()))
        {
            int psn = 0;
            for (; psn < WARM_UP; psn++)
            {
                receiveAndPollOn(qp, peer, recv, psn); // compiles the paths, so the stream below is not slowed down
            }
            awaitAck(qp, peer, psn - 1);
            acks = 0; // a lone ACK was just sent: the stream starts a full interval before the next may go

            final long start = System.nanoTime();
            for (; psn < WARM_UP + STREAM; psn++)
            {
                receiveAndPollOn(qp, peer, recv, psn);
            }
            awaitAck(qp, peer, psn - 1);
            final long elapsed = System.nanoTime() - start;

            final long bound = 1 + elapsed / SoftAcks.UNREQUESTED_ACK_INTERVAL_NANOS;
            assertTrue(acks <= bound, acks + " lone ACKs for " + STREAM + " messages in " + elapsed / 1000 +
                " us: more than one every " + SoftAcks.UNREQUESTED_ACK_INTERVAL_NANOS / 1000 + " us");
        }
    }

    @Test
    void aPostOnAQpWhoseLinkNobodyReadForAWhileServesThePeersRdmaRead()
    {
        final QueuePair a = fixture.qp(QpType.RC, 4);
        final QueuePair b = fixture.qp(QpType.RC, 4);
        fixture.pair(a, b, 7);
        final MemoryRegion aMemory = fixture.register(4096);
        final MemoryRegion bMemory = fixture.register(4096);
        for (int i = 0; i < 64; i++)
        {
            bMemory.buffer().put(i, (byte)(i * 7 + 1));
        }
        final SendWorkRequest read = new SendWorkRequest().wrId(1).opcode(SendOpcode.RDMA_READ)
            .sendFlags(SendFlags.SIGNALED).remote(bMemory.address(), bMemory.rkey());
        read.sge(0).set(aMemory, 0, 64);
        final SendWorkRequest write = new SendWorkRequest().wrId(2).opcode(SendOpcode.RDMA_WRITE)
            .remote(aMemory.address() + 1024, aMemory.rkey());
        write.sge(0).set(bMemory, 1024, 8);

        a.postSend(read);
        assertEquals(WcStatus.SUCCESS, SoftFixture.await(a.sendCq()).status(), "the link is up both ways");

        // b's application posts and never polls, so b counts as driven by it: neither a's poll nor (for a
        // millisecond) the progress thread reads b's link
        b.postSend(write);
        final long quietUntil = System.nanoTime() + 3 * SoftQueuePair.POSTER_READ_INTERVAL_NANOS;
        while (System.nanoTime() - quietUntil < 0)
        {
            Thread.onSpinWait();
        }
        a.postSend(read);
        b.postSend(write); // nobody has read b's link for longer than the interval: this post does, and answers

        if ("tcp".equals(System.getProperty(SoftDevice.LOCAL_LINKS_PROPERTY)))
        {
            // over TCP the READ may reach b after its post, and the progress thread answers it a millisecond later
            assertEquals(WcStatus.SUCCESS, SoftFixture.await(a.sendCq()).status(), "the RDMA READ was answered");
        }
        else
        {
            assertEquals(1, a.sendCq().poll(wcs), "the RDMA READ was answered by b's post");
            assertEquals(WcStatus.SUCCESS, wcs[0].status());
        }
        assertEquals(bMemory.buffer().slice(0, 64), aMemory.buffer().slice(0, 64));
    }

    @Test
    void aQpSentToErrFirstTakesTheAckThatArrivedSoItsAcknowledgedSendsAreNotFlushed() throws Exception
    {
        final QueuePair qp = fixture.qp(QpType.RC, 16);
        SoftFixture.connect(qp, SoftWirePeer.address(), SoftWirePeer.QPN, 7);
        final MemoryRegion mr = fixture.register(64);
        final SendWorkRequest send = new SendWorkRequest().opcode(SendOpcode.SEND).sendFlags(SendFlags.SIGNALED);
        send.sge(0).set(mr, 0, 8);
        try (SoftWirePeer peer = new SoftWirePeer((SoftDevice)fixture.context.device(), qp.qpNum()))
        {
            for (int psn = 0; psn < 3; psn++)
            {
                qp.postSend(send.wrId(psn));
                peer.readFrame();
            }
            // acknowledges all three, then (as a disconnect does) the application moves the QP to ERR without
            // having polled: the ACK is on the link, unread
            peer.writeHeader(SoftFrameDescriptor.OP_ACK, 0, 0, 2, 0, 0);
            qp.modify(QpAttr.to(QpState.ERR));
        }
        for (int wrId = 0; wrId < 3; wrId++)
        {
            final WorkCompletion wc = SoftFixture.await(qp.sendCq());
            assertEquals(wrId, wc.wrId());
            assertEquals(WcStatus.SUCCESS, wc.status(), "SEND " + wrId + ", acknowledged before the QP went to ERR");
        }
    }

    /**
     * The peer sends a SEND without asking for a prompt ACK; {@code qp} receives it, and is polled on past the delay
     * of an ACK the requester would have asked for, while the peer counts the ACKs it reads.
     */
    private void receiveAndPollOn(final QueuePair qp, final SoftWirePeer peer, final ReceiveWorkRequest recv,
        final int psn) throws IOException
    {
        peer.writeHeader(SoftFrameDescriptor.OP_SEND, 0, psn, SoftFrameDescriptor.PSN_MASK, 0, 0);
        final WorkCompletion wc = SoftFixture.await(qp.recvCq());
        assertEquals(WcStatus.SUCCESS, wc.status());
        assertEquals(psn, wc.wrId(), "receives complete in order");
        qp.postRecv(recv.wrId(psn + 1));
        final long quietUntil = System.nanoTime() + 2 * SoftAcks.ACK_DELAY_NANOS;
        while (System.nanoTime() - quietUntil < 0)
        {
            qp.recvCq().poll(wcs);
            countAcks(peer);
        }
    }

    /** Polls {@code qp}'s receive CQ (which drives it) until the peer has read an ACK of {@code psn}. */
    private void awaitAck(final QueuePair qp, final SoftWirePeer peer, final int psn) throws IOException
    {
        final long deadline = System.nanoTime() + SoftFixture.WAIT_NANOS;
        while (lastAckPsn != psn)
        {
            qp.recvCq().poll(wcs);
            countAcks(peer);
            assertTrue(System.nanoTime() - deadline < 0, "no ACK of PSN " + psn + " within 10 s");
        }
    }

    private void countAcks(final SoftWirePeer peer) throws IOException
    {
        for (ByteBuffer frame = peer.pollFrame(); frame != null; frame = peer.pollFrame())
        {
            assertEquals(SoftFrameDescriptor.OP_ACK, frame.get(SoftFrameDescriptor.OPCODE_OFFSET));
            assertEquals(SoftFrameDescriptor.SYNDROME_ACK, frame.get(SoftFrameDescriptor.SYNDROME_OFFSET));
            lastAckPsn = frame.getInt(SoftFrameDescriptor.ACK_PSN_OFFSET);
            acks++;
        }
    }

    private static int flags(final ByteBuffer frame)
    {
        return frame.get(SoftFrameDescriptor.FLAGS_OFFSET);
    }
}
