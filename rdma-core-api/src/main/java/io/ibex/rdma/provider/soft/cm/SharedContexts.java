package io.ibex.rdma.provider.soft.cm;

import io.ibex.rdma.spi.RdmaProvider;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.Device;
import io.ibex.rdma.verbs.VerbsException;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The device context connection ids use: one per device, opened on first use and shared by every id of every
 * channel, as librdmacm opens each device once per process and never closes it. Thread-safe.
 */
final class SharedContexts
{
    private static final Map<Device, Context> CONTEXTS = new ConcurrentHashMap<>();

    private SharedContexts()
    {
    }

    /**
     * @param provider the provider.
     * @return the shared context of its first device.
     */
    static Context of(final RdmaProvider provider)
    {
        final List<Device> devices = provider.devices();
        if (devices.isEmpty())
        {
            throw new VerbsException(VerbsException.ENOENT, "provider " + provider.name() + " has no device");
        }
        return CONTEXTS.compute(devices.get(0), (device, existing) ->
            existing != null && !existing.isClosed() ? existing : device.open());
    }
}
