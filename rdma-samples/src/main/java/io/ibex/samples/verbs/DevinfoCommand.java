package io.ibex.samples.verbs;

import io.ibex.rdma.Provider;
import io.ibex.rdma.Providers;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.Device;
import io.ibex.rdma.verbs.DeviceAttributes;
import io.ibex.rdma.verbs.LinkLayer;
import io.ibex.rdma.verbs.PortAttributes;
import io.ibex.rdma.verbs.PortState;
import io.ibex.rdma.verbs.TransportType;
import io.ibex.samples.DeviceOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code ibex devinfo}: prints what {@code ibv_devinfo} of rdma-core 44 prints for the same device, line for line
 * and tab for tab, in its non-verbose form. {@code -v} is refused: most of what it adds (capability flags,
 * ODP, TSO and RSS capabilities, counters, ...) is not in the ibex verbs API, and printing part of it, or zeros
 * for the rest, would not be what {@code ibv_devinfo -v} prints.
 */
@Command(
    name = "devinfo",
    mixinStandardHelpOptions = true,
    description = "Print the attributes of RDMA devices and their ports, as ibv_devinfo does.")
public final class DevinfoCommand implements Callable<Integer>
{
    @Option(names = "--provider", paramLabel = "NAME",
        description = "RDMA provider: soft, disni or auto (default: -D" + Providers.PROPERTY + ", else $" +
            Providers.ENV + ", else auto).")
    private String providerName;

    @Option(names = { "-d", "--ib-dev" }, paramLabel = "DEVICE",
        description = "Use this device (default: every device of the provider).")
    private String deviceName;

    @Option(names = { "-i", "--ib-port" }, paramLabel = "PORT",
        description = "Print only this port (default: all ports).")
    private Integer portNum;

    @Option(names = { "-l", "--list" }, description = "Print only the names of the devices.")
    private boolean list;

    @Option(names = { "-v", "--verbose" },
        description = "Not supported: the ibex verbs API does not report all that ibv_devinfo -v prints.")
    private boolean verbose;

    @Spec
    private CommandSpec spec;

    /**
     * Prints the devices.
     *
     * @return 0; failures are thrown.
     */
    @Override
    public Integer call()
    {
        if (verbose)
        {
            throw new IllegalArgumentException("-v/--verbose is not supported: the ibex verbs API does not report " +
                "most of what ibv_devinfo -v prints (device_cap_flags, max_sge_rd, max_res_rd_atom, max_srq, " +
                "max_pkeys, ODP/TSO/RSS capabilities, port_cap_flags, counters, ...); use ibv_devinfo -v");
        }
        if (portNum != null && portNum < 1)
        {
            throw new IllegalArgumentException("-i/--ib-port " + portNum + ": ports are numbered from 1");
        }
        final PrintWriter out = spec.commandLine().getOut();
        final Provider provider = DeviceOptions.provider(providerName);
        if (list)
        {
            final List<Device> devices = provider.devices();
            out.printf("%d HCA%s found:%n", devices.size(), devices.size() != 1 ? "s" : "");
            for (final Device device : devices)
            {
                out.println("\t" + device.name());
            }
            out.println();
        }
        else
        {
            for (final Device device : DeviceOptions.devices(provider, deviceName))
            {
                print(out, device);
            }
        }
        out.flush();
        return 0;
    }

    private void print(final PrintWriter out, final Device device)
    {
        try (Context context = device.open())
        {
            final DeviceAttributes attr = context.queryDevice();
            if (portNum != null)
            {
                DeviceOptions.checkPort(context, portNum);
            }
            out.println("hca_id:\t" + device.name());
            final TransportType transport = device.transportType();
            out.printf("\ttransport:\t\t\t%s (%d)%n", transportText(transport), transport.value());
            if (!attr.fwVer().isEmpty())
            {
                out.println("\tfw_ver:\t\t\t\t" + attr.fwVer());
            }
            out.println("\tnode_guid:\t\t\t" + guidText(attr.nodeGuid()));
            out.println("\tsys_image_guid:\t\t\t" + guidText(attr.sysImageGuid()));
            out.printf("\tvendor_id:\t\t\t0x%04x%n", attr.vendorId());
            out.println("\tvendor_part_id:\t\t\t" + attr.vendorPartId());
            out.printf("\thw_ver:\t\t\t\t0x%X%n", attr.hwVer());
            if (!device.boardId().isEmpty())
            {
                out.println("\tboard_id:\t\t\t" + device.boardId());
            }
            out.println("\tphys_port_cnt:\t\t\t" + attr.physPortCnt());
            for (int port = 1; port <= attr.physPortCnt(); port++)
            {
                if (portNum == null || portNum == port)
                {
                    printPort(out, port, context.queryPort(port));
                }
            }
        }
    }

    private static void printPort(final PrintWriter out, final int port, final PortAttributes attr)
    {
        out.println("\t\tport:\t" + port);
        out.printf("\t\t\tstate:\t\t\t%s (%d)%n", stateText(attr.state()), attr.state().value());
        out.printf("\t\t\tmax_mtu:\t\t%d (%d)%n", attr.maxMtu().bytes(), attr.maxMtu().value());
        out.printf("\t\t\tactive_mtu:\t\t%d (%d)%n", attr.activeMtu().bytes(), attr.activeMtu().value());
        out.println("\t\t\tsm_lid:\t\t\t" + attr.smLid());
        out.println("\t\t\tport_lid:\t\t" + attr.lid());
        out.printf("\t\t\tport_lmc:\t\t0x%02x%n", attr.lmc());
        out.println("\t\t\tlink_layer:\t\t" + (attr.linkLayer() == LinkLayer.ETHERNET ? "Ethernet" : "InfiniBand"));
        out.println();
    }

    private static String transportText(final TransportType transport)
    {
        return switch (transport)
        {
            case INFINIBAND -> "InfiniBand";
            case IWARP -> "iWARP";
            case USNIC -> "usNIC";
            case USNIC_UDP -> "usNIC UDP";
            case UNSPECIFIED -> "unspecified";
        };
    }

    private static String stateText(final PortState state)
    {
        return switch (state)
        {
            case DOWN -> "PORT_DOWN";
            case INIT -> "PORT_INIT";
            case ARMED -> "PORT_ARMED";
            case ACTIVE -> "PORT_ACTIVE";
            default -> "invalid state";
        };
    }

    private static String guidText(final long guid)
    {
        return String.format("%04x:%04x:%04x:%04x",
            (guid >>> 48) & 0xffff, (guid >>> 32) & 0xffff, (guid >>> 16) & 0xffff, guid & 0xffff);
    }
}
