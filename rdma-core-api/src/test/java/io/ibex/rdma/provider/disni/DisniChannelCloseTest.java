package io.ibex.rdma.provider.disni;

import io.ibex.rdma.cm.EventChannel;
import io.ibex.rdma.conformance.Loopback;
import io.ibex.rdma.verbs.CompletionChannel;
import io.ibex.rdma.verbs.RdmaResource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongFunction;

import static org.junit.jupiter.api.Assertions.assertFalse;
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
        final AtomicReference<Thread> waiting = new AtomicReference<>();
        final CompletableFuture<Object> waiter = CompletableFuture.supplyAsync(() ->
        {
            waiting.set(Thread.currentThread());
            return wait.apply(WAIT_MILLIS);
        });
        awaitInsideTheWait(waiting); // the close below must end that wait before destroying

        channel.close();

        // the waiter may not have handed its result to the future yet, but it must be out of the wait
        assertFalse(insideTheWait(waiting.get()), "close returned while a thread still waited on " + channel);
        assertNull(waiter.get(1, TimeUnit.SECONDS), "nothing happened on " + channel);
        assertTrue(channel.isClosed());
        assertThrows(IllegalStateException.class, () -> wait.apply(0));
    }

    /**
     * Until the waiter holds the lock its getEvent waits under (a fixed half-second sleep was not always enough for
     * it to get there under emulation, and a close before it would not be a close under a waiter).
     */
    private static void awaitInsideTheWait(final AtomicReference<Thread> waiting) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (waiting.get() == null || !insideTheWait(waiting.get()))
        {
            assertTrue(System.nanoTime() - deadline < 0, "the waiter did not enter its wait within 30 s");
            Thread.sleep(10);
        }
    }

    /** @return whether the thread holds the lock a channel's getEvent waits under. */
    private static boolean insideTheWait(final Thread thread)
    {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        final ThreadInfo info = threads.getThreadInfo(new long[]{ thread.getId() }, true, false)[0];
        return info != null && Arrays.stream(info.getLockedMonitors())
            .anyMatch(monitor -> "getEvent".equals(monitor.getLockedStackFrame().getMethodName()));
    }
}
