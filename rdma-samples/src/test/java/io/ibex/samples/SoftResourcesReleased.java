package io.ibex.samples;

import io.ibex.rdma.Providers;
import io.ibex.rdma.cm.CmId;
import io.ibex.rdma.cm.EventChannel;
import io.ibex.rdma.cm.PortSpace;
import io.ibex.rdma.provider.soft.SoftProvider;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.net.InetSocketAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Checks that a test leaves no soft verbs object open: every command releases what it created, on success and
 * on every failure. The count starts once the soft connection manager's shared device context is open, which
 * stays open for the JVM as librdmacm's does.
 */
public final class SoftResourcesReleased implements BeforeEachCallback, AfterEachCallback
{
    private static final ExtensionContext.Namespace NAMESPACE =
        ExtensionContext.Namespace.create(SoftResourcesReleased.class);

    @Override
    public void beforeEach(final ExtensionContext context)
    {
        try (EventChannel channel = Providers.select("soft").createEventChannel())
        {
            final CmId id = channel.createId(PortSpace.TCP);
            id.bindAddr(new InetSocketAddress("127.0.0.1", 0));
        }
        context.getStore(NAMESPACE).put("before", SoftProvider.liveResources());
    }

    @Override
    public void afterEach(final ExtensionContext context)
    {
        final int before = context.getStore(NAMESPACE).get("before", Integer.class);
        assertEquals(before, SoftProvider.liveResources(), "soft verbs objects left open");
    }
}
