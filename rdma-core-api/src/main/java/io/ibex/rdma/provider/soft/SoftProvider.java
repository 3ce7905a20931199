package io.ibex.rdma.provider.soft;

import io.ibex.rdma.cm.EventChannel;
import io.ibex.rdma.provider.soft.cm.SoftEventChannel;
import io.ibex.rdma.spi.RdmaProvider;
import io.ibex.rdma.verbs.Device;

import java.util.List;

/**
 * PLACEHOLDER (being written by the soft-verbs helper).
 */
public final class SoftProvider implements RdmaProvider
{
    @Override
    public String name()
    {
        return "soft";
    }

    @Override
    public int priority()
    {
        return 10;
    }

    @Override
    public Availability availability()
    {
        return Availability.yes("pure Java software device, always available");
    }

    @Override
    public List<Device> devices()
    {
        throw new UnsupportedOperationException("not yet");
    }

    @Override
    public EventChannel createEventChannel()
    {
        return new SoftEventChannel(this);
    }
}
