package io.ibex.samples.perf;

import java.nio.file.Path;

/**
 * Runs a command's measured loop, timed by its {@link LoopCost}, and with {@code --jfr FILE} under a recording of
 * that loop alone ({@link ThreadSamples}): the warm-up before it would fill the profile with the interpreter and the
 * JIT's early code.
 */
final class MeasuredLoop
{
    private MeasuredLoop()
    {
    }

    /**
     * @param jfr  where to record the loop, or null for no recording.
     * @param cost times the loop.
     * @param loop the measured loop.
     * @throws java.io.UncheckedIOException if the recording cannot be written, naming the file.
     */
    static void run(final Path jfr, final LoopCost cost, final Runnable loop)
    {
        if (null == jfr)
        {
            time(cost, loop);
            return;
        }
        try (ThreadSamples samples = ThreadSamples.start("ibex measured loop"))
        {
            time(cost, loop);
            samples.stopInto(jfr);
        }
    }

    private static void time(final LoopCost cost, final Runnable loop)
    {
        cost.start();
        loop.run();
        cost.stop();
    }
}
