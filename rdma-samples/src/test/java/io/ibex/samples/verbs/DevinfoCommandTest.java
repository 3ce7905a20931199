package io.ibex.samples.verbs;

import io.ibex.rdma.Providers;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.Device;
import io.ibex.rdma.verbs.DeviceAttributes;
import io.ibex.rdma.verbs.PortAttributes;
import io.ibex.samples.IbexRun;
import io.ibex.samples.SoftResourcesReleased;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

@ExtendWith(SoftResourcesReleased.class)
class DevinfoCommandTest
{
    /** What ibv_devinfo's print_hca_cap prints, from what the API reports (the format is rdma-core 44's). */
    private static List<String> expectedLines()
    {
        final Device device = Providers.select("soft").devices().get(0);
        try (Context context = device.open())
        {
            final DeviceAttributes attr = context.queryDevice();
            final PortAttributes port = context.queryPort(1);
            final long guid = attr.nodeGuid();
            final String guidText = String.format("%04x:%04x:%04x:%04x",
                guid >>> 48, (guid >>> 32) & 0xffff, (guid >>> 16) & 0xffff, guid & 0xffff);
            return List.of(
                "hca_id:\t" + device.name(),
                "\ttransport:\t\t\tInfiniBand (0)",
                "\tfw_ver:\t\t\t\t" + attr.fwVer(),
                "\tnode_guid:\t\t\t" + guidText,
                "\tsys_image_guid:\t\t\t" + guidText,
                String.format("\tvendor_id:\t\t\t0x%04x", attr.vendorId()),
                "\tvendor_part_id:\t\t\t" + attr.vendorPartId(),
                String.format("\thw_ver:\t\t\t\t0x%X", attr.hwVer()),
                "\tphys_port_cnt:\t\t\t1",
                "\t\tport:\t1",
                "\t\t\tstate:\t\t\tPORT_ACTIVE (4)",
                "\t\t\tmax_mtu:\t\t" + port.maxMtu().bytes() + " (" + port.maxMtu().value() + ")",
                "\t\t\tactive_mtu:\t\t" + port.activeMtu().bytes() + " (" + port.activeMtu().value() + ")",
                "\t\t\tsm_lid:\t\t\t0",
                "\t\t\tport_lid:\t\t0",
                "\t\t\tport_lmc:\t\t0x00",
                "\t\t\tlink_layer:\t\tEthernet",
                "");
        }
    }

    @Test
    void printsTheSoftDeviceAsIbvDevinfoDoes()
    {
        final IbexRun all = IbexRun.run("devinfo", "--provider", "soft").assertSucceeded();
        final IbexRun one = IbexRun.run("devinfo", "--provider", "soft", "-d", "soft0", "-i", "1").assertSucceeded();

        assertEquals(expectedLines(), all.out().lines().toList());
        assertEquals(all.out(), one.out());
    }

    @Test
    void listsTheDeviceNames()
    {
        final IbexRun list = IbexRun.run("devinfo", "--provider", "soft", "-l").assertSucceeded();

        assertEquals(List.of("1 HCA found:", "\tsoft0", ""), list.out().lines().toList());
    }

    @Test
    void badArgumentsAreNamed()
    {
        IbexRun.run("devinfo", "--provider", "soft", "-i", "2")
            .assertFailed("devinfo", "port 2 out of range: soft0 has port 1 only");
        IbexRun.run("devinfo", "--provider", "soft", "-i", "0")
            .assertFailed("devinfo", "-i/--ib-port 0: ports are numbered from 1");
        IbexRun.run("devinfo", "--provider", "soft", "-d", "mlx5_0")
            .assertFailed("devinfo", "RDMA provider 'soft' has no device 'mlx5_0'; its devices: soft0");
        IbexRun.run("devinfo", "--provider", "soft", "-v")
            .assertFailed("devinfo", "-v/--verbose is not supported: the ibex verbs API does not report");
    }
}
