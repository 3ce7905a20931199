package io.ibex.samples.perf;

import java.io.PrintWriter;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;
import java.util.Locale;

/**
 * What a loop cost besides its result (ibex only): the bytes the measuring thread allocated (the measured loop
 * must allocate nothing), the CPU time that thread got against the wall time (a thread that spins all along gets
 * all of it unless it is preempted) and the user-space part of that time (the rest is the kernel's), the CPU time
 * of the whole JVM (more than the thread's when other threads ran meanwhile), and the time the JIT spent on the
 * compilations it finished meanwhile. Read from HotSpot's counters where the JVM has them.
 * <p>
 * {@link WarmUp} measures each round with one, so the first use, which loads the management classes and gives
 * the JIT work, falls into the warm-up and not into the measured loop.
 */
final class LoopCost
{
    private static final long UNKNOWN = -1;
    private static final double NANOS_PER_SECOND = 1e9;
    private static final double NANOS_PER_MILLI = 1e6;
    private static final double QUIET_JIT_SHARE = 0.01;
    private static final double QUIET_OTHERS_SHARE = 0.1;
    private static final com.sun.management.ThreadMXBean THREADS = threads();
    private static final com.sun.management.OperatingSystemMXBean PROCESS = process();
    private static final CompilationMXBean JIT = jit();

    private long wall;
    private long allocated;
    private long threadCpu;
    private long threadUser;
    private long processCpu;
    private long jitMillis;

    /**
     * Runs the loop between {@link #start()} and {@link #stop()}.
     *
     * @param loop the loop.
     */
    void time(final Runnable loop)
    {
        start();
        loop.run();
        stop();
    }

    /**
     * Takes the readings before the loop.
     */
    void start()
    {
        allocated = allocatedBytes();
        threadCpu = threadCpuNanos();
        threadUser = threadUserNanos();
        processCpu = processCpuNanos();
        jitMillis = jitMillis();
        wall = System.nanoTime();
    }

    /**
     * Takes the readings after the loop: from here on the fields hold the differences.
     */
    void stop()
    {
        wall = System.nanoTime() - wall;
        allocated = difference(allocatedBytes(), allocated);
        threadCpu = difference(threadCpuNanos(), threadCpu);
        threadUser = difference(threadUserNanos(), threadUser);
        processCpu = difference(processCpuNanos(), processCpu);
        jitMillis = difference(jitMillis(), jitMillis);
    }

    /**
     * Prints the line, after the results.
     *
     * @param out        where to print.
     * @param iterations the iterations measured.
     */
    void print(final PrintWriter out, final int iterations)
    {
        out.println(" ibex: the " + iterations + " measured iterations allocated " + text(allocated, "bytes") +
            " on the measuring thread and took " + String.format(Locale.ROOT, "%.3f s", wall / NANOS_PER_SECOND) +
            "; CPU: " + seconds(threadCpu) + " on the measuring thread (" + seconds(threadUser) + " user), " +
            seconds(processCpu) + " in the JVM; JIT compiling meanwhile: " + text(jitMillis, "ms"));
        out.flush();
    }

    /**
     * @return whether the JVM was quiet besides the loop: the JIT finished compilations worth less than
     *         {@value #QUIET_JIT_SHARE} of the wall time, and the threads other than the measuring one (the JIT's,
     *         mostly, also while a compilation is still running) used less than {@value #QUIET_OTHERS_SHARE} of
     *         it; false where the JVM does not count.
     */
    boolean wasQuiet()
    {
        return jitMillis != UNKNOWN && processCpu != UNKNOWN && threadCpu != UNKNOWN &&
            jitMillis * NANOS_PER_MILLI < QUIET_JIT_SHARE * wall && processCpu - threadCpu < QUIET_OTHERS_SHARE * wall;
    }

    private static String seconds(final long nanos)
    {
        return nanos == UNKNOWN ? "unknown" : String.format(Locale.ROOT, "%.3f s", nanos / NANOS_PER_SECOND);
    }

    private static String text(final long value, final String unit)
    {
        return value == UNKNOWN ? "an unknown number of " + unit : value + " " + unit;
    }

    private static long difference(final long after, final long before)
    {
        return after == UNKNOWN || before == UNKNOWN ? UNKNOWN : after - before;
    }

    private static long allocatedBytes()
    {
        return THREADS == null ? UNKNOWN : THREADS.getCurrentThreadAllocatedBytes();
    }

    private static long threadCpuNanos()
    {
        return THREADS == null ? UNKNOWN : THREADS.getCurrentThreadCpuTime();
    }

    private static long threadUserNanos()
    {
        return THREADS == null ? UNKNOWN : THREADS.getCurrentThreadUserTime();
    }

    private static long jitMillis()
    {
        return JIT == null ? UNKNOWN : JIT.getTotalCompilationTime();
    }

    private static long processCpuNanos()
    {
        return PROCESS == null ? UNKNOWN : PROCESS.getProcessCpuTime();
    }

    private static com.sun.management.ThreadMXBean threads()
    {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        if (threads instanceof com.sun.management.ThreadMXBean &&
            ((com.sun.management.ThreadMXBean)threads).isThreadAllocatedMemorySupported() &&
            threads.isCurrentThreadCpuTimeSupported())
        {
            final com.sun.management.ThreadMXBean counting = (com.sun.management.ThreadMXBean)threads;
            counting.setThreadAllocatedMemoryEnabled(true);
            counting.setThreadCpuTimeEnabled(true);
            return counting;
        }
        return null;
    }

    private static CompilationMXBean jit()
    {
        final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit : null;
    }

    private static com.sun.management.OperatingSystemMXBean process()
    {
        final OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean ? (com.sun.management.OperatingSystemMXBean)os :
            null;
    }
}
