package io.ibex.rdma.provider.soft.cm;

import io.ibex.rdma.cm.CmEvent;
import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.cm.EventChannel;
import io.ibex.rdma.cm.PortSpace;
import io.ibex.rdma.provider.soft.SoftProvider;

/**
 * PLACEHOLDER (being written by the soft-CM helper).
 */
public final class SoftEventChannel implements EventChannel
{
    /**
     * @param provider the provider whose device the ids use.
     */
    public SoftEventChannel(final SoftProvider provider)
    {
    }

    @Override
    public CmId createId(final PortSpace portSpace)
    {
        throw new UnsupportedOperationException("not yet");
    }

    @Override
    public CmEvent getEvent(final long timeoutMillis)
    {
        throw new UnsupportedOperationException("not yet");
    }

    @Override
    public boolean isClosed()
    {
        return false;
    }

    @Override
    public void close()
    {
    }
}
