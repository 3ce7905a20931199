package io.ibex.transport.channel;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Fails a test that leaves verbs objects of the selected provider open: channels must free everything they
 * allocated when they close.
 */
final class NoLeaks implements BeforeEachCallback, AfterEachCallback
{
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(NoLeaks.class);

    @Override
    public void beforeEach(final ExtensionContext context)
    {
        context.getStore(NAMESPACE).put("live", TestChannels.liveResources());
    }

    @Override
    public void afterEach(final ExtensionContext context)
    {
        final int before = context.getStore(NAMESPACE).get("live", Integer.class);
        assertEquals(before, TestChannels.liveResources(), "verbs objects left open by the test");
    }
}
