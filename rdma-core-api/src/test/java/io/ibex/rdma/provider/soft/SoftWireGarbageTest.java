package io.ibex.rdma.provider.soft;

import io.ibex.rdma.verbs.AhAttr;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.QpType;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.rdma.verbs.ReceiveWorkRequest;
import io.ibex.rdma.verbs.WcStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A peer that sends garbage on a link gets the link closed and the QP put in ERR; nothing is thrown into
 * the polling thread and no memory is touched.
 */
@Timeout(20)
class SoftWireGarbageTest
{
    /** A fake peer endpoint below the device's own, so the QP waits for the peer to connect. */
    private static final int FAKE_PEER_PORT = 1;
    private static final int FAKE_PEER_QPN = 0x77;

    private final SoftFixture fixture = new SoftFixture();

    @AfterEach
    void close()
    {
        fixture.close();
    }

    @Test
    void aFrameWithAnImpossibleLengthPutsTheQpInError() throws Exception
    {
        final Inet4Address loopback = (Inet4Address)InetAddress.getByName("127.0.0.1");
        final QueuePair qp = fixture.qp(QpType.RC, 4);
        final MemoryRegion mr = fixture.register(64);
        SoftFixture.connect(qp, AhAttr.global(1, SoftGidDescriptor.encode(1, loopback, FAKE_PEER_PORT), 1),
            FAKE_PEER_QPN, 7);
        final ReceiveWorkRequest recv = new ReceiveWorkRequest().wrId(9);
        recv.sge(0).set(mr, 0, 64);
        qp.postRecv(recv);

        final SoftDevice device = (SoftDevice)fixture.context.device();
        try (SocketChannel peer = SocketChannel.open(new InetSocketAddress(loopback, device.port())))
        {
            final ByteBuffer out = ByteBuffer.allocate(SoftFrameDescriptor.HELLO_LENGTH +
                SoftFrameDescriptor.HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
            out.putInt(SoftFrameDescriptor.HELLO_MAGIC_OFFSET, SoftFrameDescriptor.HELLO_MAGIC);
            out.putInt(SoftFrameDescriptor.HELLO_VERSION_OFFSET, SoftFrameDescriptor.HELLO_VERSION);
            out.putInt(SoftFrameDescriptor.HELLO_SRC_IPV4_OFFSET, SoftGidDescriptor.ipv4(fixture.address().dgid()));
            out.putInt(SoftFrameDescriptor.HELLO_SRC_PORT_OFFSET, FAKE_PEER_PORT);
            out.putInt(SoftFrameDescriptor.HELLO_SRC_QPN_OFFSET, FAKE_PEER_QPN);
            out.putInt(SoftFrameDescriptor.HELLO_DST_QPN_OFFSET, qp.qpNum());
            final int frame = SoftFrameDescriptor.HELLO_LENGTH;
            out.put(frame + SoftFrameDescriptor.OPCODE_OFFSET, SoftFrameDescriptor.OP_SEND);
            out.putInt(frame + SoftFrameDescriptor.SEGMENT_LENGTH_OFFSET, 1_000_000_000);
            peer.write(out);

            final var wc = SoftFixture.await(qp.recvCq());
            assertEquals(WcStatus.WR_FLUSH_ERR, wc.status());
            assertEquals(9, wc.wrId());
            assertEquals(QpState.ERR, qp.state());
            assertEquals(-1, peer.read(ByteBuffer.allocate(64)), "the soft device closed the link");
        }
    }
}
