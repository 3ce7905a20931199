package io.ibex.rdma.provider.soft;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.ibex.rdma.provider.soft.qp.SoftQueuePair;
import io.ibex.rdma.provider.soft.wire.SoftGidDescriptor;
import io.ibex.rdma.provider.soft.wire.SoftLink;
import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.AhAttr;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.SendFlags;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.SendWorkRequest;
import io.ibex.rdma.verbs.WcStatus;
import io.ibex.rdma.verbs.WorkCompletion;
import org.agrona.BufferUtil;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static io.ibex.rdma.provider.soft.wire.SoftFrameDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzzes how a soft device takes what a hostile peer sends: the frames on an RC or UC QP's link (read and executed by
 * the responder, responses handed to the requester) and UD datagrams (checked by the device, delivered by the
 * responder). Whatever arrives, the documented outcomes are the only ones: a frame is executed, dropped, NAKed, or the
 * link is closed and the QP put in ERR with every work request flushed; nothing is thrown into the driving thread,
 * and nothing outside a registered region is written (the region lies between guard bytes that must stay as they
 * were; READs and atomics pass the same bounds check as WRITEs).
 *
 * <p>An input is a mode byte (modulo 3: RC, UC, UD) and then, for RC and UC, the byte stream the peer sends on the
 * link (in memory, as between two QPs of one device), or for UD, datagrams each preceded by its length (u16). The QP
 * has receives posted into the region and, on RC, a SEND, an RDMA READ and a fetch-and-add outstanding, so that
 * responses and ACKs have something to match. To let the fuzzer name the region without knowing where it is, each
 * frame's rkey is XORed with the region's and its remote address is an offset from the first guard byte; a
 * datagram's destination QPN and Q_Key are XORed with the QP's. {@code mvn verify} replays the corpus in
 * {@code FrameFuzzTestInputs/peerSends/}; {@code .ci/fuzz} fuzzes.
 */
class FrameFuzzTest
{
    private static final int GUARD = 4096;
    private static final int REGION = 8192;
    private static final byte GUARD_BYTE = (byte)0x5a;
    private static final int RECEIVE_LENGTH = 64;
    private static final int MAX_DRIVES = 256;

    private static SoftFixture fixture;
    private static ByteBuffer memory;
    private static long memoryAddress;
    private static MemoryRegion mr;
    private static AhAttr peerAddress;
    private static long peerKey;

    private final WorkCompletion[] completions = { new WorkCompletion() };
    private final ByteBuffer datagram =
        ByteBuffer.allocateDirect(UD_HEADER_LENGTH + 4096 + 1).order(ByteOrder.LITTLE_ENDIAN);

    @BeforeAll
    static void open() throws UnknownHostException
    {
        fixture = new SoftFixture();
        memory = ByteBuffer.allocateDirect(GUARD + REGION + GUARD);
        memoryAddress = BufferUtil.address(memory);
        mr = fixture.pd.registerMemory(memory.slice(GUARD, REGION), AccessFlags.ALL);
        peerAddress = SoftWirePeer.address();
        peerKey = SoftGidDescriptor.endpointKey(SoftGidDescriptor.ipv4(peerAddress.dgid()), SoftWirePeer.PORT);
        assertEquals(InetAddress.getLoopbackAddress(), SoftGidDescriptor.toSocketAddress(peerAddress.dgid())
            .getAddress(), "the fake peer is on loopback: nothing leaves the host");
    }

    @AfterAll
    static void close()
    {
        fixture.close();
    }

    @FuzzTest
    void peerSends(final byte[] input)
    {
        if (input.length == 0)
        {
            return;
        }
        for (int i = 0; i < memory.capacity(); i++)
        {
            memory.put(i, GUARD_BYTE);
        }
        switch ((input[0] & 0xff) % 3)
        {
            case 0 -> linked(QpType.RC, input);
            case 1 -> linked(QpType.UC, input);
            default -> datagrams(input);
        }
        for (int i = 0; i < GUARD; i++)
        {
            assertEquals(GUARD_BYTE, memory.get(i), "guard before the region");
            assertEquals(GUARD_BYTE, memory.get(GUARD + REGION + i), "guard after the region");
        }
    }

    private void linked(final QpType type, final byte[] input)
    {
        final QueuePair qp = fixture.qp(type, 4);
        final SoftLink[] ends = SoftLink.inMemory(qp.qpNum(), SoftWirePeer.QPN, () -> null);
        final SoftLink peer = ends[1];
        try
        {
            SoftFixture.connect(qp, peerAddress, SoftWirePeer.QPN, 7);
            postReceives(qp, 0);
            postRequests(qp);
            final SoftQueuePair soft = (SoftQueuePair)qp;
            soft.connection().offer(ends[0], peerKey, SoftWirePeer.QPN, null);

            final ByteBuffer stream = ByteBuffer.wrap(input, 1, input.length - 1).slice().order(ByteOrder.LITTLE_ENDIAN);
            aimFrames(stream);
            for (int drives = 0; drives < MAX_DRIVES && soft.drive(true) + drain(peer) > 0; drives++)
            {
                // the requests go out first, so that responses find them outstanding
            }
            int idle = 0;
            for (int drives = 0; drives < MAX_DRIVES && idle < 3; drives++)
            {
                final boolean sent = send(peer, stream);
                final int work = soft.drive(true) + drain(peer);
                idle = work == 0 && !sent ? idle + 1 : 0;
            }
            checkCompletions(qp.recvCq());
            checkCompletions(qp.sendCq());
        }
        finally
        {
            peer.close();
            closeQp(qp);
        }
    }

    private void datagrams(final byte[] input)
    {
        final QueuePair qp = fixture.qp(QpType.UD, 4);
        try
        {
            SoftFixture.connect(qp, null, 0, 0);
            postReceives(qp, GRH_LENGTH);
            final SoftDevice device = (SoftDevice)fixture.context.device();
            int at = 1;
            while (at + 2 <= input.length)
            {
                final int length = Math.min(((input[at] & 0xff) | (input[at + 1] & 0xff) << 8) % datagram.capacity(),
                    input.length - at - 2);
                at += 2;
                datagram.clear();
                datagram.put(input, at, length).flip();
                at += length;
                if (length >= UD_HEADER_LENGTH)
                {
                    datagram.putInt(UD_DST_QPN_OFFSET, datagram.getInt(UD_DST_QPN_OFFSET) ^ qp.qpNum());
                    datagram.putInt(UD_QKEY_OFFSET, datagram.getInt(UD_QKEY_OFFSET) ^ SoftFixture.QKEY);
                }
                device.deliverDatagram(datagram);
            }
            checkCompletions(qp.recvCq());
        }
        finally
        {
            closeQp(qp);
        }
    }

    /**
     * Two receives of {@value #RECEIVE_LENGTH} bytes (plus the GRH for UD) at the start of the region.
     */
    private static void postReceives(final QueuePair qp, final int grh)
    {
        for (int i = 0; i < 2; i++)
        {
            final ReceiveWorkRequest recv = new ReceiveWorkRequest().wrId(i);
            recv.sge(0).set(mr, i * (grh + RECEIVE_LENGTH), grh + RECEIVE_LENGTH);
            qp.postRecv(recv);
        }
    }

    /**
     * A SEND from the region; on RC also an RDMA READ and a fetch-and-add into it, whose responses the peer may
     * send (or forge).
     */
    private static void postRequests(final QueuePair qp)
    {
        final SendWorkRequest send = new SendWorkRequest().wrId(10).sendFlags(SendFlags.SIGNALED);
        send.sge(0).set(mr, 512, 32);
        qp.postSend(send);
        if (qp.type() != QpType.RC)
        {
            return;
        }
        final SendWorkRequest read = new SendWorkRequest().wrId(11).opcode(SendOpcode.RDMA_READ)
            .sendFlags(SendFlags.SIGNALED).remote(0x1000, 0x100);
        read.sge(0).set(mr, 1024, 256);
        qp.postSend(read);
        final SendWorkRequest add = new SendWorkRequest().wrId(12).opcode(SendOpcode.ATOMIC_FETCH_AND_ADD)
            .sendFlags(SendFlags.SIGNALED).remote(0x2000, 0x100).atomic(1, 0);
        add.sge(0).set(mr, 2048, 8);
        qp.postSend(add);
    }

    /**
     * Rewrites each frame's rkey and remote address so that 0 names the region and an offset from the first guard
     * byte; stops at a frame whose segment length the responder refuses.
     */
    private static void aimFrames(final ByteBuffer stream)
    {
        int at = 0;
        while (at + HEADER_LENGTH <= stream.limit())
        {
            stream.putInt(at + RKEY_OFFSET, stream.getInt(at + RKEY_OFFSET) ^ mr.rkey());
            stream.putLong(at + REMOTE_ADDR_OFFSET, stream.getLong(at + REMOTE_ADDR_OFFSET) + memoryAddress);
            final int segment = stream.getInt(at + SEGMENT_LENGTH_OFFSET);
            if (segment < 0 || segment > MAX_SEGMENT_LENGTH)
            {
                return;
            }
            at += HEADER_LENGTH + segment;
        }
    }

    /**
     * Sends what of the stream fits the peer's transmit buffer.
     *
     * @return whether anything was sent.
     */
    private static boolean send(final SoftLink peer, final ByteBuffer stream)
    {
        final int length = Math.min(stream.remaining(), peer.txRoom());
        if (length == 0)
        {
            return false;
        }
        peer.tx().put(peer.tx().position(), stream, stream.position(), length);
        peer.tx().position(peer.tx().position() + length);
        stream.position(stream.position() + length);
        try
        {
            peer.flush();
        }
        catch (final IOException ex)
        {
            stream.position(stream.limit()); // the QP closed the link: nothing more reaches it
        }
        return true;
    }

    /**
     * Reads and drops what the QP sent to the peer.
     *
     * @return the bytes read.
     */
    private static int drain(final SoftLink peer)
    {
        try
        {
            final int read = Math.max(0, peer.read());
            peer.consume(peer.rxAvailable());
            return read;
        }
        catch (final IOException ex)
        {
            return 0;
        }
    }

    /**
     * Every completion has a status; a successful receive is no longer than the receive.
     */
    private void checkCompletions(final CompletionQueue cq)
    {
        while (cq.poll(completions) == 1)
        {
            final WorkCompletion wc = completions[0];
            assertNotNull(wc.status());
            if (wc.status() == WcStatus.SUCCESS && wc.wrId() < 10)
            {
                assertTrue(wc.byteLen() >= 0 && wc.byteLen() <= GRH_LENGTH + RECEIVE_LENGTH, wc::toString);
            }
        }
    }

    private static void closeQp(final QueuePair qp)
    {
        qp.close();
        qp.sendCq().close();
        qp.recvCq().close();
    }
}
