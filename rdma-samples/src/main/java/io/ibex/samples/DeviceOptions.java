package io.ibex.samples;

import io.ibex.rdma.Provider;
import io.ibex.rdma.Providers;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.Device;
import picocli.CommandLine.Option;

import java.util.List;

/**
 * The options that choose the provider, device and port, with the names and defaults of
 * {@code ibv_rc_pingpong} ({@code -d}, {@code -i}); mixed into every command that opens one port of a device.
 * The GID index ({@code -g}) is each command's own option, since its default differs: the demo addresses by
 * GID 1, the ping-pongs by LID unless told otherwise, as the C tools do.
 */
public final class DeviceOptions
{
    @Option(names = "--provider", paramLabel = "NAME",
        description = "RDMA provider: soft, disni or auto (default: -D" + Providers.PROPERTY + ", else $" +
            Providers.ENV + ", else auto).")
    private String providerName;

    @Option(names = { "-d", "--ib-dev" }, paramLabel = "DEVICE",
        description = "Use this device (default: the provider's first device).")
    private String deviceName;

    @Option(names = { "-i", "--ib-port" }, paramLabel = "PORT", defaultValue = "1",
        description = "Use this port of the device (default: ${DEFAULT-VALUE}).")
    private int portNum;

    /**
     * @return the provider named by {@code --provider}, else the one {@link Providers#select()} chooses.
     */
    public Provider provider()
    {
        return provider(providerName);
    }

    /**
     * @param provider the provider to look in.
     * @return the device named by {@code --ib-dev}, else the provider's first device.
     * @throws IllegalStateException if the provider has no such device, or none at all.
     */
    public Device device(final Provider provider)
    {
        final List<Device> devices = devices(provider, deviceName);
        return devices.get(0);
    }

    /** @return the port, from 1. */
    public int portNum()
    {
        return portNum;
    }

    /**
     * @param name a provider name, or null for the automatic choice.
     * @return the provider of that name, else the one {@link Providers#select()} chooses.
     */
    public static Provider provider(final String name)
    {
        return name == null ? Providers.select() : Providers.select(name);
    }

    /**
     * @param provider the provider to look in.
     * @param name     a device name, or null for all of them.
     * @return the device of that name (a list of one), or all the provider's devices in its order.
     * @throws IllegalStateException if the provider has no such device, or none at all.
     */
    public static List<Device> devices(final Provider provider, final String name)
    {
        final List<Device> devices = provider.devices();
        if (devices.isEmpty())
        {
            throw new IllegalStateException("RDMA provider '" + provider.name() + "' has no device");
        }
        if (name == null)
        {
            return devices;
        }
        for (final Device device : devices)
        {
            if (device.name().equals(name))
            {
                return List.of(device);
            }
        }
        throw new IllegalStateException("RDMA provider '" + provider.name() + "' has no device '" + name +
            "'; its devices: " + String.join(", ", devices.stream().map(Device::name).toList()));
    }

    /**
     * Checks that a port exists, as {@code ibv_devinfo -i} does before it queries one.
     *
     * @param context an open device.
     * @param portNum the port asked for.
     * @throws IllegalArgumentException naming the port and the ports there are.
     */
    public static void checkPort(final Context context, final int portNum)
    {
        final int ports = context.queryDevice().physPortCnt();
        if (portNum < 1 || portNum > ports)
        {
            throw new IllegalArgumentException("port " + portNum + " out of range: " + context.device().name() +
                " has " + (ports == 1 ? "port 1 only" : "ports 1.." + ports));
        }
    }
}
