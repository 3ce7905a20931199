package io.ibex.rdma.provider.disni;

import io.ibex.rdma.cm.EventChannel;
import io.ibex.rdma.conformance.Loopback;
import io.ibex.rdma.verbs.CompletionChannel;
import io.ibex.rdma.verbs.RdmaResource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * On rxe0: closing a completion channel or an rdma_cm event channel while another thread waits on it ends
 * that wait first (it returns null, as for a timeout), instead of destroying the channel under its poll(2),
 * which would read freed memory; and close does not wait out the waiter's timeout, however long.
 */
@Tag("verbs")
@Timeout(60)
class DisniChannelCloseTest
{
    /** Far beyond the test's own time limit: a close that waited it out would fail the test. */
    private static final long WAIT_MILLIS = TimeUnit.MINUTES.toMillis(10);

    @Test
    void closingACompletionChannelEndsItsWaiterFirst() throws Exception
    {
        try (Loopback loopback = Loopback.open())
        {
            final CompletionChannel channel = loopback.context().createCompChannel();
            closeUnderAWaiter(channel, channel::getEvent);
        }
    }

    @Test
    void closingAnEventChannelEndsItsReaderFirst() throws Exception
    {
        final EventChannel channel = new DisniProvider().createEventChannel();
        closeUnderAWaiter(channel, channel::getEvent);
    }

    private static void closeUnderAWaiter(final RdmaResource channel, final LongFunction<Object> wait)
        throws Exception
    {
        final CompletableFuture<Object> waiter = CompletableFuture.supplyAsync(() -> wait.apply(WAIT_MILLIS));
        Thread.sleep(500); // let it block in poll(2): the close below must end that wait before destroying

        channel.close();

        assertTrue(waiter.isDone(), "close returned while a thread still waited on " + channel);
        assertNull(waiter.get(1, TimeUnit.SECONDS), "nothing happened on " + channel);
        assertTrue(channel.isClosed());
        assertThrows(IllegalStateException.class, () -> wait.apply(0));
    }
}
