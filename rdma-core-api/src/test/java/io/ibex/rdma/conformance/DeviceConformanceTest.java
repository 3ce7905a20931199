package io.ibex.rdma.conformance;

import io.ibex.rdma.Provider;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.Device;
import io.ibex.rdma.verbs.DeviceAttributes;
import io.ibex.rdma.verbs.Gid;
import io.ibex.rdma.verbs.LinkLayer;
import io.ibex.rdma.verbs.PortAttributes;
import io.ibex.rdma.verbs.PortState;
import io.ibex.rdma.verbs.TransportType;
import io.ibex.rdma.verbs.VerbsException;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Device list, ibv_query_device, ibv_query_port and ibv_query_gid.
 */
class DeviceConformanceTest extends LoopbackTest
{

    @Test
    void providerListsDevicesWithUniqueNamesItServes()
    {
        final Provider provider = loopback.provider();
        final List<Device> devices = provider.devices();
        assertFalse(devices.isEmpty(), "ibv_get_device_list returned no device");
        final Set<String> names = new HashSet<>();
        for (final Device device : devices)
        {
            assertTrue(names.add(device.name()), "duplicate device name " + device.name());
            assertEquals(provider.name(), device.providerName());
        }
    }

    @Test
    void contextKnowsItsDeviceAndNodeGuid()
    {
        final Context context = loopback.context();
        assertEquals(loopback.device().name(), context.device().name());
        assertEquals(loopback.device().guid(), context.queryDevice().nodeGuid(),
            "ibv_get_device_guid and ibv_query_device.node_guid differ");
    }

    @Test
    void deviceImplementsTheInfinibandTransport()
    {
        // rxe and RoCE/InfiniBand adapters report IBV_TRANSPORT_IB; the suite does not cover iWARP.
        assertEquals(TransportType.INFINIBAND, loopback.device().transportType());
        assertEquals(0, loopback.device().transportType().value());
    }

    @Test
    void queryDeviceReportsUsableLimits()
    {
        final DeviceAttributes attr = loopback.context().queryDevice();
        assertTrue(attr.physPortCnt() >= 1, "phys_port_cnt " + attr.physPortCnt());
        assertTrue(attr.maxQp() > 0, "max_qp " + attr.maxQp());
        assertTrue(attr.maxQpWr() >= Loopback.DEPTH, "max_qp_wr " + attr.maxQpWr());
        assertTrue(attr.maxSge() >= 4, "max_sge " + attr.maxSge());
        assertTrue(attr.maxCq() > 0, "max_cq " + attr.maxCq());
        assertTrue(attr.maxCqe() >= Loopback.DEPTH * 2, "max_cqe " + attr.maxCqe());
        assertTrue(attr.maxMr() > 0, "max_mr " + attr.maxMr());
        assertTrue(attr.maxPd() > 0, "max_pd " + attr.maxPd());
        assertTrue(attr.maxMrSize() >= 1 << 20, "max_mr_size " + attr.maxMrSize());
        assertTrue(attr.maxQpRdAtom() >= 1, "max_qp_rd_atom " + attr.maxQpRdAtom());
        assertTrue(attr.maxQpInitRdAtom() >= 1, "max_qp_init_rd_atom " + attr.maxQpInitRdAtom());
        assertTrue(attr.atomicCap() >= 1, "atomic_cap " + attr.atomicCap() + ": the suite tests atomics");
        assertTrue(attr.maxAh() > 0, "max_ah " + attr.maxAh());
    }

    @Test
    void queryPortReportsAnActivePortWithMtu()
    {
        final PortAttributes port = loopback.context().queryPort(Loopback.PORT);
        assertEquals(PortState.ACTIVE, port.state());
        assertTrue(port.activeMtu().bytes() <= port.maxMtu().bytes(), "active_mtu " + port.activeMtu() +
            " > max_mtu " + port.maxMtu());
        assertTrue(port.maxMsgSz() >= 1 << 20, "max_msg_sz " + port.maxMsgSz());
        assertNotEquals(LinkLayer.UNSPECIFIED, port.linkLayer());
        if (port.linkLayer() == LinkLayer.ETHERNET)
        {
            assertEquals(0, port.lid(), "RoCE ports have no LID");
        }
    }

    @Test
    void queryGidIsNonZeroAtTheTestIndex()
    {
        final PortAttributes port = loopback.context().queryPort(Loopback.PORT);
        assertTrue(port.gidTblLen() > Loopback.GID_INDEX, "gid_tbl_len " + port.gidTblLen());
        final Gid gid = loopback.context().queryGid(Loopback.PORT, Loopback.GID_INDEX);
        assertNotEquals(Gid.ZERO, gid, "GID index " + Loopback.GID_INDEX + " (ibex.test.gid-index) is unused");
        assertEquals(gid, loopback.gid());
    }

    @Test
    void queryOfAPortBeyondTheLastIsEinval()
    {
        final int ports = loopback.context().queryDevice().physPortCnt();
        final VerbsException ex = assertThrows(VerbsException.class,
            () -> loopback.context().queryPort(ports + 1));
        assertEquals(VerbsException.EINVAL, ex.errno());
    }
}
