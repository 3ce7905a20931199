package io.ibex.transport.channel;

import io.ibex.rdma.verbs.AsyncEvent;
import io.ibex.rdma.verbs.Context;
import io.ibex.rdma.verbs.RdmaResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Routes a device's asynchronous events (a CQ overrun, a QP's fatal error) to the channel that owns the CQ or QP.
 * rdma_cm shares one device context among every channel of the process, as librdmacm does, and the context has one
 * event queue: whichever channel's connection manager reads an event hands it to its owner's mailbox.
 */
final class AsyncEvents
{
    private static final Logger LOG = LoggerFactory.getLogger(AsyncEvents.class);
    private static final Map<RdmaResource, Queue<AsyncEvent>> OWNERS = new ConcurrentHashMap<>();

    private AsyncEvents()
    {
    }

    /** Events about {@code resource} go to {@code mailbox} from now on. */
    static void own(final RdmaResource resource, final Queue<AsyncEvent> mailbox)
    {
        OWNERS.put(resource, mailbox);
    }

    /** Forgets {@code resource}, before it is destroyed. */
    static void disown(final RdmaResource resource)
    {
        OWNERS.remove(resource);
    }

    /** Takes every event the context has now and hands each to its owner's mailbox. */
    static void poll(final Context context)
    {
        for (AsyncEvent event = context.getAsyncEvent(0); event != null; event = context.getAsyncEvent(0))
        {
            final RdmaResource about = event.cq() != null ? event.cq() : event.qp();
            final Queue<AsyncEvent> mailbox = about != null ? OWNERS.get(about) : null;
            if (mailbox != null)
            {
                mailbox.add(event);
            }
            else
            {
                LOG.debug("async event of no channel: {}", event);
            }
        }
    }
}
