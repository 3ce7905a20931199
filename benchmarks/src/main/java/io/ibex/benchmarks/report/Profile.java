package io.ibex.benchmarks.report;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What dominates a profiled run: the thread samples of a JFR recording ({@code jdk.ExecutionSample}, a thread in
 * Java code, and {@code jdk.NativeMethodSample}, a thread in a native method: under disni the verbs calls into
 * libibverbs and the kernel's rxe), counted by the frame on top of the stack and by the innermost ibex frame. The
 * recording takes both kinds at the same period ({@link io.ibex.samples.perf.ThreadSamples}), so their counts add
 * up (JDK 17 takes at most five samples in Java and one in native code a period: a lower bound for native work
 * where several threads are in native calls at once).
 * <p>
 * A thread asleep in a native wait (a selector, a socket accept or read, an event channel) is sampled as if it ran:
 * those samples are counted apart ({@link #waiting()}) and left out of the shares, which are of the samples where
 * a thread worked.
 *
 * @param name       the recording's name, its file name without {@code .jfr}.
 * @param javaCount  samples of threads in Java code.
 * @param nativeCount samples of threads working in native methods.
 * @param waiting    samples of threads waiting in a native call, left out of the shares.
 * @param threads    the working samples by thread name, most first.
 * @param frames     the working samples by top frame ({@code Class.method}, {@code [native]} for a native
 *                   method), most first.
 * @param ibexFrames the working samples by the innermost frame of ibex's code ({@code io.ibex.}), most first;
 *                   {@value #OUTSIDE_IBEX} for a stack without one.
 */
public record Profile(String name, int javaCount, int nativeCount, int waiting, List<Share> threads,
    List<Share> frames, List<Share> ibexFrames)
{
    /** JFR's event of a thread in Java code. */
    public static final String EXECUTION_SAMPLE = "jdk.ExecutionSample";
    /** JFR's event of a thread in a native method. */
    public static final String NATIVE_SAMPLE = "jdk.NativeMethodSample";
    /** The innermost-ibex-frame entry of a stack with no ibex frame. */
    public static final String OUTSIDE_IBEX = "(no ibex frame)";
    /** What a native top frame is marked with. */
    public static final String NATIVE_MARK = " [native]";

    /** Native methods in which a thread sleeps until something happens: its samples are not work. */
    static final Set<String> WAITS = Set.of(
        "sun.nio.ch.EPoll.wait", "sun.nio.ch.Net.poll", "sun.nio.ch.Net.accept", "sun.nio.ch.SocketDispatcher.read0",
        "sun.nio.ch.NioSocketImpl.park", "sun.nio.ch.IOUtil.drain", "java.net.PlainSocketImpl.socketAccept",
        "io.ibex.rdma.provider.disni.IbexNative.getAsyncEvent", "io.ibex.rdma.provider.disni.IbexNative.getCqEvent",
        "io.ibex.rdma.provider.disni.IbexNative.cmGetEvent");

    private static final String IBEX_PACKAGE = "io.ibex.";

    /**
     * One entry of a table: what and how many samples.
     *
     * @param what    a thread name or a frame.
     * @param samples its samples.
     */
    public record Share(String what, int samples)
    {
    }

    /**
     * @return the samples of threads at work, Java and native: the shares' whole.
     */
    public int working()
    {
        return javaCount + nativeCount;
    }

    /**
     * @param share an entry of one of the tables.
     * @return its percentage of {@link #working()}.
     */
    public double percent(final Share share)
    {
        return 100.0 * share.samples() / working();
    }

    /**
     * Reads a recording.
     *
     * @param file a JFR recording.
     * @return its thread samples, counted.
     * @throws IllegalArgumentException if the file is not a recording, naming it.
     * @throws UncheckedIOException     if the file cannot be read.
     */
    public static Profile read(final Path file)
    {
        final Counter threads = new Counter();
        final Counter frames = new Counter();
        final Counter ibexFrames = new Counter();
        int javaCount = 0;
        int nativeCount = 0;
        int waiting = 0;
        try (RecordingFile recording = new RecordingFile(file))
        {
            while (recording.hasMoreEvents())
            {
                final RecordedEvent event = recording.readEvent();
                final String type = event.getEventType().getName();
                final boolean isNative = NATIVE_SAMPLE.equals(type);
                if (!isNative && !EXECUTION_SAMPLE.equals(type))
                {
                    continue;
                }
                final RecordedStackTrace stack = event.getStackTrace();
                final List<RecordedFrame> stackFrames = null == stack ? List.of() : stack.getFrames();
                final String top = stackFrames.isEmpty() ? "(no stack)" : frame(stackFrames.get(0));
                if (isNative && WAITS.contains(top))
                {
                    waiting++;
                    continue;
                }
                if (isNative)
                {
                    nativeCount++;
                }
                else
                {
                    javaCount++;
                }
                final RecordedThread thread = event.getThread("sampledThread");
                threads.add(null == thread ? "(unknown thread)" : thread.getJavaName());
                frames.add(shortName(top) + (isNative ? NATIVE_MARK : ""));
                ibexFrames.add(innermostIbex(stackFrames));
            }
        }
        catch (final IOException ex)
        {
            // RecordingFile throws IOException both for an unreadable file and for one that is not a recording.
            throw new IllegalArgumentException(file + ": not a JFR recording or unreadable: " + ex.getMessage(), ex);
        }
        final String fileName = file.getFileName().toString();
        return new Profile(fileName.endsWith(".jfr") ? fileName.substring(0, fileName.length() - 4) : fileName,
            javaCount, nativeCount, waiting, threads.sorted(), frames.sorted(), ibexFrames.sorted());
    }

    private static String innermostIbex(final List<RecordedFrame> frames)
    {
        for (final RecordedFrame frame : frames)
        {
            final String name = frame(frame);
            if (name.startsWith(IBEX_PACKAGE))
            {
                return shortName(name);
            }
        }
        return OUTSIDE_IBEX;
    }

    /** {@code package.Class.method} of a frame. */
    private static String frame(final RecordedFrame frame)
    {
        final RecordedMethod method = frame.getMethod();
        return null == method ? "(unknown frame)" : method.getType().getName() + "." + method.getName();
    }

    /** {@code Class.method}: the package left out, nested classes kept ({@code Outer$Inner.method}). */
    static String shortName(final String frame)
    {
        final int methodDot = frame.lastIndexOf('.');
        final int classDot = methodDot < 0 ? -1 : frame.lastIndexOf('.', methodDot - 1);
        return classDot < 0 ? frame : frame.substring(classDot + 1);
    }

    private static final class Counter
    {
        private final Map<String, Integer> counts = new HashMap<>();

        void add(final String what)
        {
            counts.merge(what, 1, Integer::sum);
        }

        List<Share> sorted()
        {
            return counts.entrySet().stream().map(entry -> new Share(entry.getKey(), entry.getValue()))
                .sorted(Comparator.comparingInt(Share::samples).reversed().thenComparing(Share::what)).toList();
        }
    }
}
