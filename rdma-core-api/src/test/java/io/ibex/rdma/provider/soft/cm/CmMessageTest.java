package io.ibex.rdma.provider.soft.cm;

import io.ibex.rdma.cm.ConnParam;
import io.ibex.rdma.cm.PortSpace;
import io.ibex.rdma.verbs.Gid;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.nio.ByteOrder;
import java.util.Arrays;

import static io.ibex.rdma.provider.soft.cm.CmMessageDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CmMessageTest
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[MAX_FRAME_LENGTH]);
    private final CmMessage message = new CmMessage().wrap(buffer, 0);

    @Test
    void requestFieldsRoundTrip()
    {
        final Gid gid = Gid.of(InetAddress.getLoopbackAddress());
        message.header(TYPE_REQ, PortSpace.UDP).qpNum(0x123456).startPsn(0xabcdef).qkey(0x01234567).gid(gid)
            .resources(1, 2, 7, 6).privateData(new byte[] { 1, 2, 3 });

        assertNull(message.validateHeader());
        assertEquals(TYPE_REQ, message.type());
        assertEquals(PortSpace.UDP, message.portSpace());
        assertEquals(0x123456, message.qpNum());
        assertEquals(0xabcdef, message.startPsn());
        assertEquals(0x01234567, message.qkey());
        assertEquals(gid, message.gid());
        assertEquals(1, message.responderResources());
        assertEquals(2, message.initiatorDepth());
        assertEquals(7, message.retryCount());
        assertEquals(6, message.rnrRetryCount());
        assertArrayEquals(Arrays.copyOf(new byte[] { 1, 2, 3 }, SIDR_REQ_PRIVATE_DATA),
            message.deliveredPrivateData());
        assertEquals(HEADER_LENGTH + 3, message.frameLength());
    }

    /**
     * Version 2: the REP carries the link token between the header's old end and the private data, which a
     * version-1 peer would read as private data; its frames are refused by version.
     */
    @Test
    void aReplyCarriesItsLinkTokenBeforeThePrivateData()
    {
        final byte[] token = new byte[16];
        for (int i = 0; i < token.length; i++)
        {
            token[i] = (byte)(0xa0 + i);
        }
        message.header(TYPE_REP, PortSpace.TCP).qpNum(0x42).privateData(new byte[] { 9, 8 }).linkToken(token);

        assertNull(message.validateHeader());
        assertEquals(2, VERSION);
        assertEquals(64, HEADER_LENGTH);
        assertArrayEquals(token, message.linkToken());
        assertEquals((byte)0xa0, buffer.getByte(48));
        assertEquals(9, buffer.getByte(HEADER_LENGTH));
        assertArrayEquals(Arrays.copyOf(new byte[] { 9, 8 }, ConnParam.MAX_ACCEPT_PRIVATE_DATA),
            message.deliveredPrivateData());
        assertArrayEquals(new byte[16], message.header(TYPE_RTU, PortSpace.TCP).linkToken(), "a new header has none");

        buffer.putByte(VERSION_OFFSET, (byte)1);
        assertTrue(message.validateHeader().contains("version=1, expected 2"), message.validateHeader());
    }

    @Test
    void malformedHeadersAreNamedWithTheBadValue()
    {
        message.header(TYPE_RTU, PortSpace.TCP);
        buffer.putInt(MAGIC_OFFSET, 0x12345678, ByteOrder.BIG_ENDIAN);
        assertTrue(message.validateHeader().contains("magic=0x12345678"), message.validateHeader());

        message.header(TYPE_RTU, PortSpace.TCP);
        buffer.putByte(VERSION_OFFSET, (byte)9);
        assertTrue(message.validateHeader().contains("version=9"), message.validateHeader());

        message.header(TYPE_RTU, PortSpace.TCP);
        buffer.putByte(TYPE_OFFSET, (byte)77);
        assertTrue(message.validateHeader().contains("type=77"), message.validateHeader());

        message.header(TYPE_RTU, PortSpace.TCP);
        buffer.putShort(PORT_SPACE_OFFSET, (short)0x0999, ByteOrder.BIG_ENDIAN);
        assertTrue(message.validateHeader().contains("portSpace=0x0999"), message.validateHeader());

        message.header(TYPE_REQ, PortSpace.TCP).privateData(new byte[ConnParam.MAX_CONNECT_PRIVATE_DATA + 1]);
        assertTrue(message.validateHeader().contains("privateDataLength=57 exceeds 56 for REQ in TCP"),
            message.validateHeader());

        message.header(TYPE_REP, PortSpace.TCP).qpNum(0x1000000);
        assertTrue(message.validateHeader().contains("qpNum=16777216"), message.validateHeader());

        message.header(TYPE_REQ, PortSpace.TCP).resources(1, 1, 8, 7);
        assertTrue(message.validateHeader().contains("retryCount=8"), message.validateHeader());

        message.header(TYPE_DREQ, PortSpace.TCP).privateData(new byte[1]);
        assertTrue(message.validateHeader().contains("DREQ"), message.validateHeader());
    }
}
