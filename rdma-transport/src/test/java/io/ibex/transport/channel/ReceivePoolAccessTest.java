package io.ibex.transport.channel;

import io.ibex.rdma.testing.LoopbackPorts;
import io.ibex.rdma.verbs.AccessFlags;
import io.ibex.rdma.verbs.MemoryRegion;
import io.ibex.rdma.verbs.SendOpcode;
import io.ibex.rdma.verbs.WcStatus;
import io.ibex.rdma.verbs.WorkCompletion;
import io.ibex.transport.config.TransportMode;
import io.ibex.transport.sample.SignalList;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Least privilege: a channel registers its receive pool for local access only, so even the strongest peer, one
 * connected to it that knows the pool's address and its region's real rkey, can neither write samples into it nor
 * read received ones out with RDMA: the peer's request fails with REM_ACCESS_ERR and the pool stays as it was. On
 * both providers (softroce/test-real-verbs.sh runs it on rxe).
 */
@ExtendWith(NoLeaks.class)
class ReceivePoolAccessTest
{
    private static final int LENGTH = 64;
    private static final byte MARK = (byte)0xa5;

    private final int targetPort = LoopbackPorts.next();

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = SendOpcode.class, names = {"RDMA_WRITE", "RDMA_READ"})
    void aPeerWithTheRealRkeyCannotReachTheReceivePool(final SendOpcode opcode) throws Exception
    {
        try (SampleChannel target = SampleChannel.open(TestChannels.target("target", TransportMode.RC, targetPort,
            c -> c.signals(SignalList.ofCount(3))));
            RawSender peer = new RawSender(TestChannels.address(targetPort)))
        {
            ChannelPair.awaitConnected(target);
            final MemoryRegion pool = target.receiveRegion();
            assertEquals(AccessFlags.LOCAL_WRITE, pool.access(), "the receive pool's access flags");
            final byte[] before = bytes(pool.buffer());
            for (int i = 0; i < LENGTH; i++)
            {
                peer.buffer().putByte(i, MARK);
            }

            final WorkCompletion wc = peer.rdma(opcode, LENGTH, pool.address(), pool.rkey());

            assertEquals(WcStatus.REM_ACCESS_ERR, wc.status(), wc.toString());
            assertArrayEquals(before, bytes(pool.buffer()), "the receive pool's bytes");
            for (int i = 0; i < LENGTH; i++)
            {
                assertEquals(MARK, peer.buffer().getByte(i), "byte " + i + " of the peer's buffer");
            }
        }
    }

    private static byte[] bytes(final ByteBuffer buffer)
    {
        final byte[] bytes = new byte[buffer.capacity()];
        buffer.get(0, bytes);
        return bytes;
    }
}
