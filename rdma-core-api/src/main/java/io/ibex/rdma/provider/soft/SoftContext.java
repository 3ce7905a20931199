package io.ibex.rdma.provider.soft;

import io.ibex.rdma.provider.soft.wire.SoftGidDescriptor;
import io.ibex.rdma.spi.ProviderChecks;
import io.ibex.rdma.spi.ProviderResource;
import io.ibex.rdma.verbs.AsyncEvent;
import io.ibex.rdma.verbs.CompletionChannel;
import io.ibex.rdma.verbs.CompletionQueue;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.Device;
import io.ibex.rdma.verbs.DeviceAttributes;
import io.ibex.rdma.verbs.Gid;
import io.ibex.rdma.verbs.PortAttributes;
import io.ibex.rdma.verbs.ProtectionDomain;
import io.ibex.rdma.verbs.VerbsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An open soft device. Closing it closes its PDs (with their QPs, AHs and MRs), then CQs, then channels.
 */
public final class SoftContext extends ProviderResource implements Context
{
    private static final Logger LOG = LoggerFactory.getLogger(SoftContext.class);
    private static final AtomicInteger IDS = new AtomicInteger();
    private static final int ASYNC_EVENT_CAPACITY = 1024;

    private final SoftDevice device;
    private final int id = IDS.incrementAndGet();
    private final BlockingQueue<AsyncEvent> asyncEvents = new ArrayBlockingQueue<>(ASYNC_EVENT_CAPACITY);

    SoftContext(final SoftDevice device)
    {
        super(SoftProvider.LIVE);
        this.device = device;
    }

    @Override
    public Device device()
    {
        return device;
    }

    @Override
    public DeviceAttributes queryDevice()
    {
        ensureOpen();
        return device.attributes();
    }

    @Override
    public PortAttributes queryPort(final int portNum)
    {
        ensureOpen();
        checkPort(portNum);
        return device.portAttributes();
    }

    @Override
    public Gid queryGid(final int portNum, final int index)
    {
        ensureOpen();
        checkPort(portNum);
        if (index < 0 || index >= SoftGidDescriptor.GID_TABLE_LENGTH)
        {
            throw new VerbsException(VerbsException.EINVAL, "GID index " + index + " outside 0.." +
                (SoftGidDescriptor.GID_TABLE_LENGTH - 1) + " of " + SoftDevice.NAME + " port 1");
        }
        return device.gid(index);
    }

    @Override
    public ProtectionDomain allocPd()
    {
        ensureOpen();
        return adopt(new SoftProtectionDomain(this));
    }

    @Override
    public CompletionChannel createCompChannel()
    {
        ensureOpen();
        return adopt(new SoftCompletionChannel(this));
    }

    @Override
    public CompletionQueue createCq(final int cqe, final CompletionChannel channel, final int compVector)
    {
        ensureOpen();
        if (cqe < 1 || cqe > SoftDevice.MAX_CQE)
        {
            throw new VerbsException(VerbsException.EINVAL, "cqe=" + cqe + " outside 1.." + SoftDevice.MAX_CQE);
        }
        return adopt(new SoftCompletionQueue(this, cqe,
            ProviderChecks.channelOf(this, channel, SoftCompletionChannel.class)));
    }

    @Override
    public AsyncEvent getAsyncEvent(final long timeoutMillis)
    {
        ensureOpen();
        try
        {
            return timeoutMillis <= 0 ? asyncEvents.poll() : asyncEvents.poll(timeoutMillis, TimeUnit.MILLISECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    void raise(final AsyncEvent event)
    {
        if (!asyncEvents.offer(event))
        {
            LOG.warn("{}: async event queue full, dropped {}", describe(), event);
        }
    }

    public SoftDevice softDevice()
    {
        return device;
    }

    @Override
    protected String describe()
    {
        return "context #" + id + " of " + SoftDevice.NAME;
    }

    @Override
    protected int closeRank()
    {
        return 0;
    }

    @Override
    protected void release()
    {
        closeChildren();
    }

    private static void checkPort(final int portNum)
    {
        if (portNum != 1)
        {
            throw new VerbsException(VerbsException.EINVAL, "port " + portNum + " does not exist: " +
                SoftDevice.NAME + " has port 1 only");
        }
    }
}
