package io.ibex.rdma.provider.disni;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.RdmaCm;
import com.ibm.disni.verbs.RdmaCmEvent.EventType;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaConnParam;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The contract of libdisni.so as DiSNI 2.1's own Java classes use it: a client and a server in one JVM connect
 * over RC through rdma_cm on the local RDMA address, exchange a SEND and an RDMA WRITE, disconnect, and
 * destroy everything.
 */
@Tag("verbs")
@Timeout(120)
class DisniRcContractTest
{
    private static final int SEND_OFFSET = 0;
    private static final int WRITE_OFFSET = 1024;

    @BeforeAll
    static void openDevice() throws Exception
    {
        DisniPeer.openDevice();
    }

    @Test
    void rcConnectSendWriteDisconnectDestroy() throws Exception
    {
        try (DisniPeer server = new DisniPeer(); DisniPeer client = new DisniPeer())
        {
            final RdmaCmId listener = server.createId(RdmaCm.RDMA_PS_TCP);
            listener.bindAddr(new InetSocketAddress(InetAddress.getByName(DisniPeer.ADDRESS), 0));
            listener.listen(4);
            final InetSocketAddress bound = (InetSocketAddress)listener.getSource();
            assertEquals(DisniPeer.ADDRESS, bound.getAddress().getHostAddress(), "listener's source address");

            final RdmaCmId connector = client.createId(RdmaCm.RDMA_PS_TCP);
            client.resolve(connector, bound);
            final DisniPeer.Endpoint active = client.endpoint(connector, IbvQP.IBV_QPT_RC);
            active.postRecv(1, SEND_OFFSET, 64);
            final RdmaConnParam connect = new RdmaConnParam();
            connect.setRetry_count((byte)7);
            connect.setRnr_retry_count((byte)7);
            connector.connect(connect);

            final RdmaCmId accepted = server.own(server.await(EventType.RDMA_CM_EVENT_CONNECT_REQUEST).getConnIdPriv());
            final DisniPeer.Endpoint passive = server.endpoint(accepted, IbvQP.IBV_QPT_RC);
            accepted.accept(connect);
            // The client's librdmacm sends the RTU while it reads CONNECT_RESPONSE: only then is the server set up.
            client.await(EventType.RDMA_CM_EVENT_ESTABLISHED);
            server.await(EventType.RDMA_CM_EVENT_ESTABLISHED);
            assertEquals(bound.getPort(), ((InetSocketAddress)connector.getDestination()).getPort(), "peer port");

            assertTrue(active.context.getNumCompVectors() >= 1, "completion vectors");
            assertTrue(active.context.getCmd_fd() >= 0, "command fd");
            assertTrue(active.pd.getHandle() >= 0, "PD handle");
            assertTrue(active.qp.getQp_num() > 1, "QP number (0 and 1 are the special QPs)");

            // The client sleeps on its completion channel, as DiSNI's CQ processor does.
            assertFalse(active.compChannel.getCqEvent(active.cq, 10), "no completion event yet");
            active.cq.reqNotification(false).execute().free();

            // SEND: the server tells the client where to write, as applications exchange buffer keys.
            passive.buffer.putLong(SEND_OFFSET, passive.mr.getAddr() + WRITE_OFFSET).putInt(SEND_OFFSET + 8,
                passive.mr.getRkey());
            passive.postSend(2, IbvSendWR.IBV_WR_SEND, SEND_OFFSET, 12, 0, 0);
            assertSuccess(passive.awaitCompletion(), 2);
            assertTrue(active.compChannel.getCqEvent(active.cq, 10_000), "completion event for the receive");
            assertEquals(0, active.cq.ackEvents(1), "acked inside getCqEvent already");
            final IbvWC received = active.awaitCompletion();
            assertSuccess(received, 1);
            assertEquals(12, received.getByte_len(), "received bytes");
            final long remoteAddr = active.buffer.getLong(SEND_OFFSET);
            final int rkey = active.buffer.getInt(SEND_OFFSET + 8);

            // RDMA WRITE: its completion means the server's memory holds the bytes.
            final byte[] payload = "written by the client over RDMA".getBytes(StandardCharsets.US_ASCII);
            active.buffer.put(WRITE_OFFSET, payload);
            active.postSend(3, IbvSendWR.IBV_WR_RDMA_WRITE, WRITE_OFFSET, payload.length, remoteAddr, rkey);
            assertSuccess(active.awaitCompletion(), 3);
            final byte[] landed = new byte[payload.length];
            passive.buffer.get(WRITE_OFFSET, landed);
            assertEquals(new String(payload, StandardCharsets.US_ASCII), new String(landed, StandardCharsets.US_ASCII));

            DisniPeer.disconnect(client, connector, server, accepted);

            connector.destroyQP();
            assertFalse(connector.getQp().isOpen(), "QP closed after destroyQP");
            connector.destroyId();
            accepted.destroyId(); // still owns its QP: the native destroys it first (no leak)
            listener.destroyId();
        }
    }

    private static void assertSuccess(final IbvWC wc, final long wrId)
    {
        assertEquals(IbvWC.IbvWcStatus.IBV_WC_SUCCESS.ordinal(), wc.getStatus(), "completion status of " + wrId);
        assertEquals(wrId, wc.getWr_id(), "wr_id");
    }
}
