package io.ibex.rdma.provider.soft;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The progress thread's idle strategy calls for a scan only when there can be something to find, and never blocks
 * while a timer is due sooner than its tick.
 */
@Timeout(30)
class SoftSelectorIdleStrategyTest
{
    private static final int SPINS = 5;
    /** Far longer than the test may take: an idle() that blocked for it would show. */
    private static final long LONG_TICK_MILLIS = TimeUnit.SECONDS.toMillis(20);

    private final Selector selector;
    private final Pipe pipe;

    SoftSelectorIdleStrategyTest() throws IOException
    {
        selector = Selector.open();
        pipe = Pipe.open();
        pipe.source().configureBlocking(false);
        pipe.source().register(selector, SelectionKey.OP_READ);
    }

    @AfterEach
    void close() throws IOException
    {
        selector.close();
        pipe.sink().close();
        pipe.source().close();
    }

    @Test
    void aSpinThatFindsNoChannelReadyCallsForNoScanAndOneThatFindsOneDoes() throws IOException
    {
        final SoftSelectorIdleStrategy idle = new SoftSelectorIdleStrategy(selector, SPINS, LONG_TICK_MILLIS);
        assertTrue(idle.takeScanDue(), "the first duty cycle looks at everything");
        idle.idle(0);
        assertFalse(idle.takeScanDue(), "nothing was ready");
        pipe.sink().write(ByteBuffer.wrap(new byte[]{ 1 }));
        idle.idle(0);
        assertTrue(idle.takeScanDue(), "a watched channel was ready");
    }

    @Test
    void afterItsSpinsAWakeUpEndsTheBlockAndCallsForAScan()
    {
        final SoftSelectorIdleStrategy idle = new SoftSelectorIdleStrategy(selector, SPINS, LONG_TICK_MILLIS);
        idle.takeScanDue();
        for (int i = 0; i < SPINS; i++)
        {
            idle.idle(0);
        }
        assertFalse(idle.takeScanDue());
        selector.wakeup();
        idle.idle(0); // blocks until the wake-up: at once, as it came first
        assertTrue(idle.takeScanDue(), "woken");
    }

    @Test
    void whileATimerIsDueSoonItSpinsAndNeverBlocks()
    {
        final SoftSelectorIdleStrategy idle = new SoftSelectorIdleStrategy(selector, SPINS, LONG_TICK_MILLIS);
        idle.keepSpinning(true);
        final long start = System.nanoTime();
        for (int i = 0; i < 100 * SPINS; i++)
        {
            idle.idle(0);
        }
        final long elapsed = System.nanoTime() - start;
        assertTrue(elapsed < TimeUnit.MILLISECONDS.toNanos(LONG_TICK_MILLIS) / 2, "it blocked: " +
            elapsed / 1_000_000 + " ms for " + 100 * SPINS + " idle rounds");
    }
}
