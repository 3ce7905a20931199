package io.ibex.samples.channel;

import javax.management.JMException;
import javax.management.ObjectName;
import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What this process holds in memory, measured so that two measurements of a process in the same steady state
 * come out (nearly) equal and a leak shows as growth:
 * <ul>
 *     <li>heap: the heap in use right after a full collection ({@link System#gc()}), the live objects;</li>
 *     <li>direct: the direct and mapped buffers' memory ({@link BufferPoolMXBean}), where registered memory is;</li>
 *     <li>native: what the JVM committed outside the heap (code cache, metaspace, threads, GC, direct buffers),
 *         by native memory tracking, when the JVM runs with {@code -XX:NativeMemoryTracking=summary}; less the
 *         JIT compiler's arenas, which come and go with each compilation;</li>
 *     <li>rss: the anonymous resident set ({@code RssAnon} of /proc/self/status: not the pages of files such as
 *         libjvm.so and the class data archive, which page in as code runs) after trimming the C library's heap;
 *         it also sees what native libraries (libibverbs, the provider's JNI library) allocate, on Linux.</li>
 * </ul>
 * A measure the JVM or the system cannot give is left out. The resident set includes the heap's touched pages,
 * which grow as the young generation cycles through them: run with {@code -Xms} equal to {@code -Xmx} and
 * {@code -XX:+AlwaysPreTouch} for it to count native memory only.
 *
 * @param heap   heap bytes in use after a full collection.
 * @param direct bytes of direct and mapped buffers.
 * @param nmt    bytes committed outside the heap by native memory tracking, or -1 if it is off.
 * @param rss    resident bytes, or -1 if unknown.
 */
record MemoryFootprint(long heap, long direct, long nmt, long rss)
{
    private static final Pattern NMT_TOTAL = Pattern.compile("Total: reserved=\\d+KB, committed=(\\d+)KB");
    /** The heap, and the C2 compiler's arenas, which it takes while compiling and gives back after. */
    private static final Pattern NMT_LEFT_OUT =
        Pattern.compile("(?m)^- +(?:Java Heap|Compiler|Arena Chunk) \\(reserved=\\d+KB, committed=(\\d+)KB\\)$");
    private static final Pattern RSS_ANON = Pattern.compile("(?m)^RssAnon:\\s+(\\d+) kB$");
    private static final String[] NAMES = { "heap", "direct", "native", "rss" };
    /** The measures {@link #excess} bounds: the first three of {@link #NAMES}. */
    private static final int BOUNDED = 3;

    /**
     * Collects garbage (twice: direct buffers are freed by their cleaners after the first collection found them
     * unreachable) and measures.
     *
     * @return this process's footprint now.
     */
    static MemoryFootprint measure()
    {
        System.gc();
        System.gc();
        long direct = 0;
        for (final BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class))
        {
            direct += pool.getMemoryUsed();
        }
        return new MemoryFootprint(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), direct,
            nativeMemoryTracked(), residentSet());
    }

    /**
     * @param after a later measurement of the same process.
     * @return each measure before and after, with its growth, e.g. "heap 7.10 MiB -> 7.12 MiB (+0.3%)".
     */
    String compare(final MemoryFootprint after)
    {
        final List<String> parts = new ArrayList<>();
        for (int i = 0; i < NAMES.length; i++)
        {
            if (value(i) >= 0 && after.value(i) >= 0)
            {
                parts.add(NAMES[i] + " " + size(value(i)) + " -> " + size(after.value(i)) + " (" +
                    growth(value(i), after.value(i)) + ")");
            }
        }
        return String.join(", ", parts);
    }

    /**
     * @param after        a later measurement of the same process.
     * @param boundPercent how much each measure may grow, in percent of its value here.
     * @return the measures but rss that grew beyond the bound, named with their values, or null if none did.
     */
    String excess(final MemoryFootprint after, final double boundPercent)
    {
        final List<String> parts = new ArrayList<>();
        for (int i = 0; i < BOUNDED; i++)
        {
            if (value(i) >= 0 && after.value(i) >= 0 && growthPercent(value(i), after.value(i)) > boundPercent)
            {
                parts.add(NAMES[i] + " grew from " + size(value(i)) + " to " + size(after.value(i)) + " (" +
                    growth(value(i), after.value(i)) + ")");
            }
        }
        return parts.isEmpty() ? null : String.join(", ", parts) + ", more than " + boundPercent + "%";
    }

    private long value(final int index)
    {
        return switch (index)
        {
            case 0 -> heap;
            case 1 -> direct;
            case 2 -> nmt;
            default -> rss;
        };
    }

    /** Growth from nothing is infinite: a measure that was 0 must stay 0. */
    private static double growthPercent(final long before, final long after)
    {
        if (before == 0)
        {
            return after == 0 ? 0 : Double.POSITIVE_INFINITY;
        }
        return 100.0 * (after - before) / before;
    }

    private static String growth(final long before, final long after)
    {
        final double percent = growthPercent(before, after);
        return percent == Double.POSITIVE_INFINITY ? "from nothing" : String.format(Locale.ROOT, "%+.1f%%", percent);
    }

    private static String size(final long bytes)
    {
        return bytes < 1024 * 1024 ? String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0) :
            String.format(Locale.ROOT, "%.2f MiB", bytes / (1024.0 * 1024.0));
    }

    /** @return NMT's committed total less the heap's and the compiler's, in bytes, or -1 if tracking is off or unreadable. */
    private static long nativeMemoryTracked()
    {
        final String summary = diagnosticCommand("vmNativeMemory", "summary");
        final Matcher total = NMT_TOTAL.matcher(summary == null ? "" : summary);
        if (!total.find())
        {
            return -1;
        }
        long kib = Long.parseLong(total.group(1));
        final Matcher leftOut = NMT_LEFT_OUT.matcher(summary);
        while (leftOut.find())
        {
            kib -= Long.parseLong(leftOut.group(1));
        }
        return 1024 * kib;
    }

    /**
     * @param name      a diagnostic command's operation, as jcmd's command without dots in camel case.
     * @param arguments its arguments.
     * @return what it printed, or null if this JVM has no such command.
     */
    private static String diagnosticCommand(final String name, final String... arguments)
    {
        try
        {
            return (String)ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), name, new Object[] { arguments },
                new String[] { String[].class.getName() });
        }
        catch (final JMException | RuntimeException ex)
        {
            return null;
        }
    }

    /**
     * @return RssAnon in bytes, or -1 where there is no /proc/self/status; after giving the C library's free memory
     *     back to the system, as the JIT compiler's arenas, freed, would otherwise stay resident by chance.
     */
    private static long residentSet()
    {
        diagnosticCommand("systemTrimNativeHeap");
        try
        {
            final Matcher rss = RSS_ANON.matcher(Files.readString(Path.of("/proc/self/status")));
            return rss.find() ? 1024 * Long.parseLong(rss.group(1)) : -1;
        }
        catch (final IOException ex)
        {
            return -1;
        }
    }
}
