package io.ibex.samples.verbs;

import io.ibex.rdma.provider.soft.SoftProvider;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Checks that a test leaves no soft verbs object open: every command releases what it created, on success and
 * on every failure.
 */
public final class SoftResourcesReleased implements BeforeEachCallback, AfterEachCallback
{
    private static final ExtensionContext.Namespace NAMESPACE =
        ExtensionContext.Namespace.create(SoftResourcesReleased.class);

    @Override
    public void beforeEach(final ExtensionContext context)
    {
        context.getStore(NAMESPACE).put("before", SoftProvider.liveResources());
    }

    @Override
    public void afterEach(final ExtensionContext context)
    {
        final int before = context.getStore(NAMESPACE).get("before", Integer.class);
        assertEquals(before, SoftProvider.liveResources(), "soft verbs objects left open");
    }
}
