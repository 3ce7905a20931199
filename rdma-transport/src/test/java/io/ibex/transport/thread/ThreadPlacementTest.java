package io.ibex.transport.thread;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A placement pins the calling thread as the kernel then reports it (/proc/thread-self), gives it SCHED_FIFO where
 * the process may, and says exactly what it could not apply.
 */
class ThreadPlacementTest
{
    @Test
    void aThreadPinnedToOneCpuRunsOnlyThere() throws Exception
    {
        final int cpu = Runtime.getRuntime().availableProcessors() - 1;
        final BitSet cpus = new BitSet();
        cpus.set(cpu);
        final String allowed = onNewThread(() ->
        {
            ThreadPlacement.of(cpus, 0).applyToCurrentThread();
            return status("Cpus_allowed_list");
        });
        assertEquals(Integer.toString(cpu), allowed);
        assertTrue(!status("Cpus_allowed_list").equals(allowed) || cpu == 0, "the caller's own thread is unchanged");
    }

    @Test
    void aCpuTheMachineLacksIsRefusedByName() throws Exception
    {
        final ThreadPlacement placement = ThreadPlacement.ofMask(1L << 62, 0);
        final String message = onNewThread(() ->
            assertThrows(ThreadPlacementException.class, placement::applyToCurrentThread).getMessage());
        assertEquals("CPUs 62 not applied: none of them is a CPU this process may use (it may use " +
            Runtime.getRuntime().availableProcessors() + ")", message);
    }

    @Test
    void aRealTimePriorityIsAppliedOrItsMissingPrivilegeNamed() throws Exception
    {
        final String outcome = onNewThread(() ->
        {
            try
            {
                ThreadPlacement.ofMask(0, 10).applyToCurrentThread();
                return "policy " + schedPolicy();
            }
            catch (final ThreadPlacementException ex)
            {
                return ex.getMessage();
            }
        });
        assumeTrue(!outcome.contains("not permitted"), outcome);
        assertEquals("policy 1", outcome, "SCHED_FIFO is policy 1");
    }

    @Test
    void outOfRangeValuesAreRefusedWhenMade()
    {
        assertEquals("priority 100 is not a SCHED_FIFO priority: 0 (none) or 1 to 99",
            assertThrows(IllegalArgumentException.class, () -> ThreadPlacement.ofMask(0, 100)).getMessage());
        assertEquals("affinity -1 is not a CPU mask: bit n for CPU n, 0 for none",
            assertThrows(IllegalArgumentException.class, () -> ThreadPlacement.ofMask(-1, 0)).getMessage());
    }

    @Test
    void itDescribesItselfAsLinuxListsCpus()
    {
        assertEquals("CPUs 0,2-4, SCHED_FIFO priority 50", ThreadPlacement.ofMask(0b11101, 50).toString());
        assertEquals("every CPU, the normal scheduler", ThreadPlacement.NONE.toString());
        assertEquals(ThreadPlacement.ofMask(0b10, 7), ThreadPlacement.ofMask(0, 7).orElse(ThreadPlacement.ofMask(2, 3)));
    }

    private static String status(final String key) throws IOException
    {
        return Files.readAllLines(Path.of("/proc/thread-self/status")).stream()
            .filter((line) -> line.startsWith(key + ":")).findFirst().orElseThrow()
            .substring(key.length() + 1).trim();
    }

    /** @return the policy field (the 41st) of /proc/thread-self/stat. */
    private static String schedPolicy() throws IOException
    {
        final String stat = Files.readString(Path.of("/proc/thread-self/stat"));
        return stat.substring(stat.lastIndexOf(')') + 2).split(" ")[38];
    }

    private interface Call
    {
        String call() throws Exception;
    }

    /** Runs the call on a thread of its own, so that its placement ends with it. */
    private static String onNewThread(final Call call) throws Exception
    {
        final AtomicReference<Object> result = new AtomicReference<>();
        final Thread thread = new Thread(() ->
        {
            try
            {
                result.set(call.call());
            }
            catch (final Exception | AssertionError ex)
            {
                result.set(ex);
            }
        });
        thread.start();
        thread.join();
        if (result.get() instanceof Exception ex)
        {
            throw ex;
        }
        if (result.get() instanceof AssertionError error)
        {
            throw error;
        }
        return (String)result.get();
    }
}
