package io.ibex.samples.runner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Whether the JIT is at work: the CPU time of its compiler threads, from {@code /proc/self/task} (Linux; HotSpot
 * names them "C1 CompilerThread0", "C2 CompilerThread0" and so on), and the CompilationMXBean's compilation time. A
 * compilation shows in the first while it runs, in the second only once it finished.
 */
final class CompilerThreads
{
    private static final Path TASKS = Path.of("/proc/self/task");
    private static final String NAME = "CompilerThre"; // the kernel keeps 15 characters of a thread's name
    private static final long POLL_MILLIS = 10;

    private CompilerThreads()
    {
    }

    /**
     * Waits until the JIT was idle for {@code quietMillis}: its threads finished no compilation and took no CPU time.
     *
     * @param quietMillis how long it must have been idle.
     * @param maxMillis   the longest this waits.
     * @return whether it was idle, false if {@code maxMillis} passed first.
     * @throws InterruptedException if the thread is interrupted while it waits.
     */
    static boolean awaitIdle(final long quietMillis, final long maxMillis) throws InterruptedException
    {
        final CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
        final boolean timed = compiler != null && compiler.isCompilationTimeMonitoringSupported();
        final long start = System.nanoTime();
        long last = activity(compiler, timed);
        long quietSince = start;
        while (System.nanoTime() - quietSince < TimeUnit.MILLISECONDS.toNanos(quietMillis))
        {
            if (System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(maxMillis))
            {
                return false;
            }
            Thread.sleep(POLL_MILLIS);
            final long now = activity(compiler, timed);
            if (now != last)
            {
                last = now;
                quietSince = System.nanoTime();
            }
        }
        return true;
    }

    /** @return a number that grows while the JIT works: its compilation time plus its threads' CPU ticks. */
    private static long activity(final CompilationMXBean compiler, final boolean timed)
    {
        return (timed ? compiler.getTotalCompilationTime() : 0) + cpuTicks();
    }

    /** @return the user and system clock ticks of the compiler threads alive now; 0 where /proc cannot be read. */
    static long cpuTicks()
    {
        try (Stream<Path> tasks = Files.list(TASKS))
        {
            return tasks.mapToLong(CompilerThreads::ticksIfCompiler).sum();
        }
        catch (final IOException | UncheckedIOException | SecurityException ex)
        {
            return 0;
        }
    }

    /** @return the ticks of the task if it is a compiler thread, else 0 (or if it ended meanwhile). */
    private static long ticksIfCompiler(final Path task)
    {
        try
        {
            final String stat = Files.readString(task.resolve("stat"));
            final int nameEnd = stat.lastIndexOf(')');
            if (nameEnd < 0 || !stat.substring(stat.indexOf('(') + 1, nameEnd).contains(NAME))
            {
                return 0;
            }
            final String[] fields = stat.substring(nameEnd + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime: fields 14 and 15
        }
        catch (final IOException | RuntimeException ex)
        {
            return 0;
        }
    }
}
