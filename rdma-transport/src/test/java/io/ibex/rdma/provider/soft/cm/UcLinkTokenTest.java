package io.ibex.rdma.provider.soft.cm;

import io.ibex.rdma.Providers;
import io.ibex.rdma.provider.soft.LogCapture;
import io.ibex.rdma.provider.soft.wire.SoftGidDescriptor;
import io.ibex.rdma.testing.LoopbackPorts;
import io.ibex.rdma.verbs.Gid;
import io.ibex.rdma.verbs.QueuePair;
import io.ibex.transport.channel.SampleBatch;
import io.ibex.transport.channel.SampleChannel;
import io.ibex.transport.config.ChannelConfig;
import io.ibex.transport.config.TransportMode;
import io.ibex.transport.stats.Counter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 24, finding 2 on a UC channel, whose data QP is connected out of band beside the connection manager's: a
 * raw client sends a REQ with a UC endpoint claiming an address nothing serves, so the target's UC QP waits for that
 * endpoint to open its link. A HELLO naming the UC QP with any token but the one of the target's reply is refused
 * before its SENDs are read, and no sample or invalid receive reaches the channel; with the reply's token the same
 * frames reach it (so the refusal is the token's doing).
 */
@Timeout(60)
class UcLinkTokenTest
{
    private static final int UC_QPN = 0x52;
    private static final byte[] PAYLOAD = "forged sample".getBytes(StandardCharsets.US_ASCII);

    @BeforeAll
    static void soft()
    {
        assertEquals("soft", Providers.select().name(), "the client speaks the soft connection manager's wire");
    }

    @Test
    void aHelloWithoutTheReplysTokenIsRefusedAndNoFrameReachesTheChannel() throws Exception
    {
        final int port = LoopbackPorts.next();
        try (SampleChannel target = SampleChannel.open(target(port));
            RawCmClient client = new RawCmClient(loopback(port), ucEndpoint());
            LogCapture log = new LogCapture())
        {
            client.completeHandshake();
            final byte[] reply = client.replyData();
            final byte[] zeros = new byte[QueuePair.LINK_TOKEN_LENGTH];
            client.openLink(devicePort(reply), client.hello(zeros, UC_QPN, ucQpn(reply)), 2, PAYLOAD);
            assertTrue(client.linkClosed(10_000), "the device closes the link");
            log.await("rejected: its HELLO lacks its connection's token");
            assertNothingReached(target);
        }
    }

    @Test
    void theSameHelloWithTheReplysTokenReachesTheChannel() throws Exception
    {
        final int port = LoopbackPorts.next();
        try (SampleChannel target = SampleChannel.open(target(port));
            RawCmClient client = new RawCmClient(loopback(port), ucEndpoint()))
        {
            client.completeHandshake();
            final byte[] reply = client.replyData();
            final byte[] token = Arrays.copyOfRange(reply, 32, 32 + QueuePair.LINK_TOKEN_LENGTH);
            client.openLink(devicePort(reply), client.hello(token, UC_QPN, ucQpn(reply)), 2, PAYLOAD);
            final SampleBatch in = new SampleBatch(8);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (reached(target) < 2 && System.nanoTime() < deadline)
            {
                target.read(in, 10, TimeUnit.MILLISECONDS);
                target.release(in);
            }
            assertEquals(2, reached(target), "both SENDs reached the channel (as receives that are no samples)");
        }
    }

    private static void assertNothingReached(final SampleChannel target) throws InterruptedException
    {
        final SampleBatch in = new SampleBatch(8);
        for (int i = 0; i < 30; i++)
        {
            assertEquals(0, target.read(in, 10, TimeUnit.MILLISECONDS), "a forged sample was read");
        }
        assertEquals(0, reached(target), "a forged frame reached the channel");
    }

    private static long reached(final SampleChannel target)
    {
        return target.stats().get(Counter.RECEIVED) + target.stats().get(Counter.INVALID);
    }

    /** The client's UC endpoint as the REQ carries it: QPN {@link #UC_QPN} at 127.0.0.1:1, the client's PSN. */
    private static byte[] ucEndpoint() throws IOException
    {
        final Gid gid = SoftGidDescriptor.encode(1, (Inet4Address)InetAddress.getByName("127.0.0.1"),
            RawCmClient.PORT);
        return ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN).putInt(0x55584249).putInt(UC_QPN)
            .putInt(RawCmClient.PSN).putShort((short)0).putShort((short)0).put(gid.toBytes()).array();
    }

    private static int ucQpn(final byte[] reply)
    {
        return ByteBuffer.wrap(reply).order(ByteOrder.LITTLE_ENDIAN).getInt(4);
    }

    private static int devicePort(final byte[] reply)
    {
        return SoftGidDescriptor.port(Gid.of(Arrays.copyOfRange(reply, 16, 32)));
    }

    private static ChannelConfig target(final int port)
    {
        return ChannelConfig.builder().name("target").mode(TransportMode.UC)
            .in(in -> in.address(loopback(port))).build();
    }

    private static InetSocketAddress loopback(final int port)
    {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    }
}
