package io.ibex.rdma.provider.soft.cm;

import io.ibex.rdma.cm.CmEvent;
import io.ibex.rdma.cm.CmEventType;
import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.cm.ConnParam;
import io.ibex.rdma.cm.EventChannel;
import io.ibex.rdma.cm.PortSpace;
import io.ibex.rdma.provider.soft.LogCapture;
import io.ibex.rdma.provider.soft.SoftFrames;
import io.ibex.rdma.provider.soft.SoftProvider;
import io.ibex.rdma.provider.soft.wire.SoftGidDescriptor;
import io.ibex.rdma.provider.soft.wire.SoftLinkToken;
import io.ibex.rdma.verbs.QpState;
import io.ibex.rdma.verbs.WcStatus;
import io.ibex.rdma.verbs.WorkCompletion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static io.ibex.rdma.provider.soft.cm.CmTestSupport.Endpoint;
import static io.ibex.rdma.provider.soft.cm.CmTestSupport.await;
import static io.ibex.rdma.provider.soft.cm.CmTestSupport.listen;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 24, finding 2: a link is tied to the CM exchange that made its connection. A raw client completes a
 * handshake claiming an endpoint nothing serves (so the target's QP waits for it to open the link), then opens the
 * link with SEND frames right behind its HELLO: unless the HELLO carries the token of that connection's REP, the
 * device closes the link before reading a frame, logs why, and no receive completes.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SoftLinkTokenTest
{
    private static final long QUIET_MILLIS = 300;
    private static final byte[] PAYLOAD = "forged sample".getBytes(StandardCharsets.US_ASCII);

    private final SoftProvider provider = new SoftProvider();
    private EventChannel server;
    private CmId listener;
    private RawCmClient client;
    private Endpoint target;

    @BeforeEach
    void handshake() throws IOException
    {
        SharedContexts.of(provider);
        server = provider.createEventChannel();
        listener = listen(server, PortSpace.TCP);
        client = new RawCmClient(listener.localAddress());
        final CmEvent request = await(server, CmEventType.CONNECT_REQUEST);
        target = new Endpoint(request.id());
        target.postRecv(1, 0, 64);
        target.postRecv(2, 64, 64);
        request.id().accept(ConnParam.of(new byte[0]));
        client.completeHandshake();
        await(server, CmEventType.ESTABLISHED);
        assertEquals(QpState.RTS, target.qp.state());
    }

    @AfterEach
    void close() throws IOException
    {
        client.close();
        server.close();
        target.close();
    }

    /**
     * A HELLO whose token is all zeros (as a QP without one sends), one with a bit of the real token flipped, one
     * with a byte flipped at either end: each is refused before its SENDs are read.
     */
    @ParameterizedTest(name = "token byte {0} wrong")
    @ValueSource(ints = {-1, 0, 7, 15})
    void aHelloWithoutItsConnectionsTokenIsRefused(final int wrongByte) throws IOException
    {
        final byte[] token = wrongByte < 0 ? new byte[SoftLinkToken.LENGTH] : client.token();
        if (wrongByte >= 0)
        {
            token[wrongByte] ^= 1;
        }
        try (LogCapture log = new LogCapture())
        {
            client.openLink(devicePort(), client.hello(token), 2, PAYLOAD);
            assertTrue(client.linkClosed(10_000), "the device closes the link");
            log.await("incoming link from " + client.linkAddress() + " rejected: its HELLO lacks its connection's " +
                "token");
            assertNothingReceived();
            assertFalse(log.text().contains(hex(client.token())), "the token is never logged");
        }
        assertEquals(QpState.RTS, target.qp.state(), "the QP still waits for its real link");
    }

    /**
     * A HELLO of the version before tokens (72 bytes, no token) with SENDs after it is refused as well.
     */
    @Test
    void aHelloOfTheVersionBeforeTokensIsRefused() throws IOException
    {
        final ByteBuffer hello = client.hello(client.token()).putInt(SoftFrames.HELLO_VERSION_OFFSET, 4)
            .limit(SoftFrames.HELLO_TOKEN_OFFSET);
        try (LogCapture log = new LogCapture())
        {
            client.openLink(devicePort(), hello, 2, PAYLOAD);
            assertTrue(client.linkClosed(10_000), "the device closes the link");
            log.await("rejected: bad HELLO: magic=0x53584249 version=4");
            assertNothingReceived();
        }
    }

    /**
     * The rows above fail for the token alone: the same client, HELLO and SENDs with the REP's token are taken.
     */
    @Test
    void theSameHelloWithTheRepsTokenIsTaken() throws IOException
    {
        client.openLink(devicePort(), client.hello(client.token()), 2, PAYLOAD);
        for (int i = 0; i < 2; i++)
        {
            final WorkCompletion wc = target.poll();
            assertEquals(WcStatus.SUCCESS, wc.status());
            assertEquals(PAYLOAD.length, wc.byteLen());
        }
        assertFalse(client.linkClosed(QUIET_MILLIS), "the link stays open");
    }

    /**
     * Each connection draws its own token.
     */
    @Test
    void everyConnectionHasItsOwnToken() throws IOException
    {
        final Set<String> tokens = new HashSet<>();
        tokens.add(hex(client.token()));
        for (int i = 0; i < 3; i++)
        {
            try (RawCmClient another = new RawCmClient(listener.localAddress()))
            {
                final CmEvent request = await(server, CmEventType.CONNECT_REQUEST);
                final Endpoint end = new Endpoint(request.id());
                request.id().accept(ConnParam.of(new byte[0]));
                another.completeHandshake();
                await(server, CmEventType.ESTABLISHED);
                assertTrue(tokens.add(hex(another.token())), "a token drawn twice");
                request.id().close(); // destroys the QP before its CQ and PD go
                end.close();
            }
        }
        assertFalse(tokens.contains(hex(new byte[SoftLinkToken.LENGTH])), "no connection without a token");
    }

    private int devicePort()
    {
        return SoftGidDescriptor.port(target.qp.pd().context().queryGid(1, 1));
    }

    private void assertNothingReceived()
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(QUIET_MILLIS);
        final WorkCompletion[] wcs = {new WorkCompletion()};
        while (System.nanoTime() - deadline < 0)
        {
            assertEquals(0, target.cq.poll(wcs), "a receive completed");
            Thread.onSpinWait();
        }
    }

    private static String hex(final byte[] bytes)
    {
        final StringBuilder text = new StringBuilder();
        for (final byte b : bytes)
        {
            text.append(String.format("%02x", b));
        }
        return text.toString();
    }
}
