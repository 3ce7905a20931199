package io.ibex.rdma.provider.disni;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import com.ibm.disni.util.MemoryUtils;
import io.ibex.rdma.verbs.VerbsException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * IbexNative driven directly on the Soft-RoCE device: device, port and GID queries, CQs with and without a
 * completion channel, async events, and misuse that must throw instead of crashing.
 */
@Tag("verbs")
@Timeout(120)
class IbexNativeTest
{
    /** The device under test (rxe0 in the Soft-RoCE guest). */
    static final String DEVICE = System.getProperty("ibex.test.device", "rxe0");
    /** rxe's one port. */
    static final int PORT = 1;
    /** The IPv4-mapped GID of {@link DisniPeer#ADDRESS}. */
    static final int GID_INDEX = 1;

    private static final int IBV_PORT_ACTIVE = 4;
    private static final int IBV_LINK_LAYER_ETHERNET = 2;
    private static final int IBV_GID_TYPE_ROCE_V2 = 2;

    private static long context;

    @BeforeAll
    static void openDevice()
    {
        System.loadLibrary("disni"); // IbexNative has no loader of its own: the provider loads the library
        context = context(DEVICE);
    }

    /**
     * @param name a device name.
     * @return its context from IbexNative.contexts(), which opens every device for the rest of the process
     *         (before the first test's resource baseline, so kernel resource hygiene holds).
     */
    static long context(final String name)
    {
        final long[] contexts = IbexNative.contexts();
        final List<String> names = new ArrayList<>();
        for (final long candidate : contexts)
        {
            names.add(IbexNative.deviceName(candidate));
            if (name.equals(names.get(names.size() - 1)))
            {
                return candidate;
            }
        }
        throw new AssertionError("no device " + name + " among " + names);
    }

    /**
     * @return GID {@link #GID_INDEX}'s expected bytes: ::ffff:a.b.c.d of {@link DisniPeer#ADDRESS}.
     * @throws Exception if the address does not parse.
     */
    static byte[] expectedGid() throws Exception
    {
        final byte[] gid = new byte[16];
        gid[10] = (byte)0xff;
        gid[11] = (byte)0xff;
        System.arraycopy(InetAddress.getByName(DisniPeer.ADDRESS).getAddress(), 0, gid, 12, 4);
        return gid;
    }

    @Test
    void versionAndLayoutsMatch() throws Exception
    {
        assertEquals(IbexNative.VERSION, IbexNative.version());
        final var disni = DisniPeer.dispatcher();
        final int[] send = IbexNative.sendWrLayout();
        assertEquals(IbexNative.SWR_LAYOUT_LENGTH, send.length);
        assertEquals(disni._getIbvSendWRSize(), send[IbexNative.SWR_SIZE], "the struct DiSNI writes too");
        assertEquals(disni._getIbvSgeSize(), send[IbexNative.SGE_SIZE]);
        assertEquals(disni._getRemoteAddressOffset(), send[IbexNative.SWR_RDMA_REMOTE_ADDR]);
        assertEquals(disni._getRKeyOffset(), send[IbexNative.SWR_RDMA_RKEY]);
        final int[] recv = IbexNative.recvWrLayout();
        assertEquals(IbexNative.RWR_LAYOUT_LENGTH, recv.length);
        assertEquals(disni._getIbvRecvWRSize(), recv[IbexNative.RWR_SIZE]);
        final int[] wc = IbexNative.wcLayout();
        assertEquals(IbexNative.WC_LAYOUT_LENGTH, wc.length);
        assertEquals(disni._getIbvWCSize(), wc[IbexNative.WC_SIZE]);
        assertEquals(0, send[IbexNative.SWR_WR_ID] + recv[IbexNative.RWR_WR_ID] + wc[IbexNative.WC_WR_ID],
            "wr_id leads every struct");
    }

    @Test
    void deviceAttributesAreRxe0s()
    {
        assertTrue(IbexNative.firmwareVersion(context) != null, "fw_ver");
        final long[] device = IbexNative.queryDevice(context);
        assertEquals(IbexNative.DEV_ATTR_LENGTH, device.length);
        assertEquals(1, device[IbexNative.DEV_PHYS_PORT_CNT], "rxe has one port: " + Arrays.toString(device));
        assertTrue(device[IbexNative.DEV_MAX_QP] > 0 && device[IbexNative.DEV_MAX_CQE] > 0
            && device[IbexNative.DEV_MAX_QP_WR] > 0 && device[IbexNative.DEV_MAX_SGE] > 0, Arrays.toString(device));
        assertTrue(device[IbexNative.DEV_MAX_MR_SIZE] != 0 && device[IbexNative.DEV_MAX_AH] > 0,
            Arrays.toString(device));
        assertNotEquals(0, device[IbexNative.DEV_NODE_GUID], "rxe derives a node GUID from the MAC address");
    }

    @Test
    void portAndGidsAreRoceV2()
        throws Exception
    {
        final long[] port = IbexNative.queryPort(context, PORT);
        assertEquals(IbexNative.PORT_ATTR_LENGTH, port.length);
        assertEquals(IBV_PORT_ACTIVE, port[IbexNative.PORT_STATE], Arrays.toString(port));
        assertEquals(IBV_LINK_LAYER_ETHERNET, port[IbexNative.PORT_LINK_LAYER], Arrays.toString(port));
        assertTrue(port[IbexNative.PORT_GID_TBL_LEN] > GID_INDEX, Arrays.toString(port));
        assertTrue(port[IbexNative.PORT_ACTIVE_MTU] >= 1 && port[IbexNative.PORT_ACTIVE_MTU] <= 5,
            "enum ibv_mtu: " + Arrays.toString(port));
        assertEquals(0, port[IbexNative.PORT_LID], "RoCE has no LIDs");

        assertArrayEquals(expectedGid(), IbexNative.queryGid(context, PORT, GID_INDEX));
        assertEquals(IBV_GID_TYPE_ROCE_V2, IbexNative.queryGidType(context, PORT, GID_INDEX));

        final VerbsException noPort = assertThrows(VerbsException.class, () -> IbexNative.queryPort(context, 2));
        assertTrue(noPort.getMessage().contains("port 2"), noPort.getMessage());
        final VerbsException noGid = assertThrows(VerbsException.class,
            () -> IbexNative.queryGid(context, PORT, 100_000));
        assertTrue(noGid.getMessage().contains("GID index 100000"), noGid.getMessage());
        assertThrows(VerbsException.class, () -> IbexNative.queryGidType(context, PORT, -1));
    }

    @Test
    void noAsyncEventIsPending()
    {
        final long[] out = {42};
        assertEquals(-1, IbexNative.getAsyncEvent(context, 0, out));
        assertEquals(-1, IbexNative.getAsyncEvent(context, 50, out), "a timeout waits and returns none");
        assertEquals(42, out[0], "out is untouched without an event");
    }

    @Test
    void cqWithoutChannelPollsEmpty() throws Exception
    {
        final long cq = IbexNative.createCq(context, 0, 16, 0);
        try
        {
            assertTrue(IbexNative.cqEntries(cq) >= 16, "cqe " + IbexNative.cqEntries(cq));
            final ByteBuffer wcs = ByteBuffer.allocateDirect(4 * IbexNative.wcLayout()[IbexNative.WC_SIZE]);
            assertEquals(0, IbexNative.pollCq(cq, 4, MemoryUtils.getAddress(wcs)));
            IbexNative.reqNotifyCq(cq, false);
        }
        finally
        {
            IbexNative.destroyCq(cq);
        }
    }

    @Test
    void cqWithChannelHasNoEventWithoutCompletions() throws Exception
    {
        final var dispatcher = DisniPeer.dispatcher();
        final long channel = dispatcher._createCompChannel(context);
        try
        {
            final long cq = IbexNative.createCq(context, channel, 4, 0);
            try
            {
                IbexNative.reqNotifyCq(cq, true);
                assertEquals(0, IbexNative.getCqEvent(channel, 0));
                assertEquals(0, IbexNative.getCqEvent(channel, 30), "a timeout waits and returns none");
            }
            finally
            {
                IbexNative.destroyCq(cq);
            }
        }
        finally
        {
            dispatcher._destroyCompChannel(channel);
        }
    }

    @Test
    void impossibleCqThrows()
    {
        final VerbsException thrown = assertThrows(VerbsException.class,
            () -> IbexNative.createCq(context, 0, Integer.MAX_VALUE, 0));
        assertTrue(thrown.getMessage().contains("cqe " + Integer.MAX_VALUE), thrown.getMessage());
    }

    @Test
    void nullHandlesAndShortArraysThrow()
    {
        final List<Executable> calls = List.of(
            () -> IbexNative.deviceName(0),
            () -> IbexNative.firmwareVersion(0),
            () -> IbexNative.queryDevice(0),
            () -> IbexNative.queryPort(0, PORT),
            () -> IbexNative.queryGid(0, PORT, 0),
            () -> IbexNative.queryGidType(0, PORT, 0),
            () -> IbexNative.getAsyncEvent(0, 0, new long[1]),
            () -> IbexNative.getAsyncEvent(context, 0, new long[0]),
            () -> IbexNative.getAsyncEvent(context, 0, null),
            () -> IbexNative.createCq(0, 0, 1, 0),
            () -> IbexNative.cqEntries(0),
            () -> IbexNative.pollCq(0, 1, 0),
            () -> IbexNative.reqNotifyCq(0, false),
            () -> IbexNative.getCqEvent(0, 0),
            () -> IbexNative.destroyCq(0));
        assertAllThrow(calls);
        final long cq = IbexNative.createCq(context, 0, 1, 0);
        try
        {
            assertThrows(VerbsException.class, () -> IbexNative.pollCq(cq, 1, 0), "wc array address 0");
        }
        finally
        {
            IbexNative.destroyCq(cq);
        }
    }

    /**
     * @param calls natives called with null handles or short arrays.
     */
    static void assertAllThrow(final List<Executable> calls)
    {
        for (int i = 0; i < calls.size(); i++)
        {
            final VerbsException thrown = assertThrows(VerbsException.class, calls.get(i), "call " + i);
            assertEquals(VerbsException.EINVAL, thrown.errno(), "call " + i + ": " + thrown.getMessage());
        }
        assertEquals(IbexNative.VERSION, IbexNative.version(), "the library still answers");
    }
}
