package io.ibex.rdma.provider.disni;

import io.ibex.rdma.spi.ProviderResource;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.Device;
import io.ibex.rdma.verbs.PortState;
import io.ibex.rdma.verbs.TransportType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An RDMA device as librdmacm lists it: one process-wide {@code ibv_context} that every {@link DisniContext}
 * of the device and every rdma_cm id on it share. The device routes the kernel's async events, which arrive
 * on that one shared context, to the CQ or QP they name.
 */
final class DisniDevice implements Device
{
    /** Names of ibv_port_attr.phys_state 0..7, for messages about a port that is not active. */
    private static final String[] PHYS_STATES = {
        "NOP", "SLEEP", "POLLING", "DISABLED", "PORT_CONFIGURATION_TRAINING", "LINK_UP", "LINK_ERROR_RECOVERY",
        "PHY_TEST"};
    private static final PortState[] PORT_STATES = PortState.values();

    private final long context;
    private final String name;
    private final long guid;
    private final TransportType transportType;
    private final int ports;
    private final Map<Long, DisniCompletionQueue> cqs = new ConcurrentHashMap<>();
    private final Map<Integer, DisniQueuePair> qps = new ConcurrentHashMap<>();
    private DisniContext shared;

    /**
     * @param context the ibv_context* from IbexNative.contexts().
     */
    DisniDevice(final long context)
    {
        this.context = context;
        this.name = IbexNative.deviceName(context);
        final long[] attr = IbexNative.queryDevice(context);
        this.guid = DisniContext.hostOrder(attr[IbexNative.DEV_NODE_GUID]);
        this.ports = (int)attr[IbexNative.DEV_PHYS_PORT_CNT];
        this.transportType = TransportType.of(IbexNative.transportType(context));
    }

    @Override
    public String name()
    {
        return name;
    }

    @Override
    public long guid()
    {
        return guid;
    }

    @Override
    public TransportType transportType()
    {
        return transportType;
    }

    @Override
    public String providerName()
    {
        return DisniProvider.NAME;
    }

    /**
     * Opens a context over the device's process-wide ibv_context: closing it closes what was created from it,
     * never the ibv_context, which librdmacm owns.
     */
    @Override
    public Context open()
    {
        return ProviderResource.opened(new DisniContext(this));
    }

    @Override
    public String toString()
    {
        return name;
    }

    long handle()
    {
        return context;
    }

    /**
     * @return the context rdma_cm ids on this device report, opened on first use (again if it was closed), as
     *         librdmacm opens each device once for the process.
     */
    synchronized DisniContext sharedContext()
    {
        if (shared == null || shared.isClosed())
        {
            shared = (DisniContext)open();
        }
        return shared;
    }

    /**
     * @return "rxe0 port 1 ACTIVE" for the first active port, or null when none is.
     */
    String firstActivePort()
    {
        for (int port = 1; port <= ports; port++)
        {
            if (portState(port) == PortState.ACTIVE)
            {
                return name + " port " + port + " ACTIVE";
            }
        }
        return null;
    }

    /**
     * @return why each port of the device cannot carry traffic.
     */
    String portProblems()
    {
        final StringBuilder sb = new StringBuilder();
        for (int port = 1; port <= ports; port++)
        {
            final String problem = portProblem(port);
            if (problem != null)
            {
                sb.append(sb.length() > 0 ? "; " : "").append(problem);
            }
        }
        return sb.toString();
    }

    /**
     * @param port a port number.
     * @return null when the port is ACTIVE, else what state it is in and how to bring it up.
     */
    String portProblem(final int port)
    {
        final long[] attr = IbexNative.queryPort(context, port);
        final PortState state = PORT_STATES[(int)attr[IbexNative.PORT_STATE]];
        if (state == PortState.ACTIVE)
        {
            return null;
        }
        final int phys = (int)attr[IbexNative.PORT_PHYS_STATE];
        final String netdev = netdev(port);
        return name + " port " + port + " is " + state + " (physical state " +
            (phys < PHYS_STATES.length ? PHYS_STATES[phys] : String.valueOf(phys)) + "): " + (netdev != null ?
            "bring its network interface up (`ip link set " + netdev + " up`)" :
            "bring its link up (`rdma link show` names a RoCE port's network interface; on InfiniBand check the " +
            "cable and the subnet manager)");
    }

    void register(final DisniCompletionQueue cq)
    {
        cqs.put(cq.handle(), cq);
    }

    void unregister(final DisniCompletionQueue cq)
    {
        cqs.remove(cq.handle(), cq);
    }

    void register(final DisniQueuePair qp)
    {
        qps.put(qp.qpNum(), qp);
    }

    void unregister(final DisniQueuePair qp)
    {
        qps.remove(qp.qpNum(), qp);
    }

    DisniCompletionQueue completionQueue(final long handle)
    {
        return cqs.get(handle);
    }

    DisniQueuePair queuePair(final int qpNum)
    {
        return qps.get(qpNum);
    }

    private PortState portState(final int port)
    {
        return PORT_STATES[(int)IbexNative.queryPort(context, port)[IbexNative.PORT_STATE]];
    }

    /**
     * @return the RoCE network interface of the port as sysfs names it (rxe's {@code parent}, else the GID
     *         table's first entry), or null (InfiniBand, or not readable).
     */
    private String netdev(final int port)
    {
        final Path device = Path.of("/sys/class/infiniband", name);
        for (final Path candidate : new Path[]{device.resolve("parent"),
            device.resolve(Path.of("ports", String.valueOf(port), "gid_attrs", "ndevs", "0"))})
        {
            try
            {
                final String text = Files.readString(candidate, StandardCharsets.US_ASCII).strip();
                if (!text.isEmpty())
                {
                    return text;
                }
            }
            catch (final IOException | RuntimeException ex)
            {
                // not this kind of device, or the entry is unused: try the next source
            }
        }
        return null;
    }
}
