package io.ibex.samples;

import io.ibex.rdma.Providers;
import io.ibex.rdma.spi.RdmaProvider;
import io.ibex.rdma.verbs.Device;
import picocli.CommandLine.Option;

import java.util.List;

/**
 * The options that choose the provider, device, port and GID index, with the names and defaults of
 * {@code ibv_rc_pingpong} ({@code -d}, {@code -i}, {@code -g}); mixed into every command that opens a device.
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

    @Option(names = { "-g", "--gid-idx" }, paramLabel = "INDEX", defaultValue = "1",
        description = "Address by the GID at this index (default: ${DEFAULT-VALUE}, the IPv4-mapped GID).")
    private int gidIndex;

    /**
     * @return the provider named by {@code --provider}, else the one {@link Providers#select()} chooses.
     */
    public RdmaProvider provider()
    {
        return providerName == null ? Providers.select() : Providers.select(providerName);
    }

    /**
     * @param provider the provider to look in.
     * @return the device named by {@code --ib-dev}, else the provider's first device.
     * @throws IllegalStateException if the provider has no such device, or none at all.
     */
    public Device device(final RdmaProvider provider)
    {
        final List<Device> devices = provider.devices();
        if (devices.isEmpty())
        {
            throw new IllegalStateException("RDMA provider '" + provider.name() + "' has no device");
        }
        if (deviceName == null)
        {
            return devices.get(0);
        }
        for (final Device device : devices)
        {
            if (device.name().equals(deviceName))
            {
                return device;
            }
        }
        throw new IllegalStateException("RDMA provider '" + provider.name() + "' has no device '" + deviceName +
            "'; its devices: " + String.join(", ", devices.stream().map(Device::name).toList()));
    }

    /** @return the port, from 1. */
    public int portNum()
    {
        return portNum;
    }

    /** @return the GID-table index. */
    public int gidIndex()
    {
        return gidIndex;
    }
}
