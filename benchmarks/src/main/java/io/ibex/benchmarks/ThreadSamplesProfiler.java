package io.ibex.benchmarks;

import io.ibex.samples.perf.ThreadSamples;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.profile.ProfilerException;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.runner.IterationType;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;

/**
 * A JFR recording of the measured iterations alone, for the comparison's profiles: thread samples of threads in Java
 * code and in native methods ({@link ThreadSamples}), from the first measured iteration to the end of the last, into
 * a file. Unlike JMH's own {@code -prof jfr}, it runs in the benchmark's JVM, so it works with {@code -f 0} (the
 * Soft-RoCE guest's runs) as with forks, and it leaves the warm-up out.
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar ChannelRoundTripBenchmark -prof io.ibex.benchmarks.ThreadSamplesProfiler:file=rt.jfr
 * </pre>
 * Run one case a JVM: a second case in the same JVM writes over the first's file.
 */
public final class ThreadSamplesProfiler implements InternalProfiler
{
    private static final String OPTION = "file=";

    private final Path file;
    private ThreadSamples samples;
    private int measured;

    /**
     * @param options {@code file=PATH}: where to write the recording.
     * @throws ProfilerException if the options are not {@code file=PATH}, naming them.
     */
    public ThreadSamplesProfiler(final String options) throws ProfilerException
    {
        if (null == options || !options.startsWith(OPTION) || options.length() == OPTION.length())
        {
            throw new ProfilerException("ThreadSamplesProfiler takes file=PATH (where to write the recording), " +
                "got '" + options + "'");
        }
        file = Path.of(options.substring(OPTION.length()));
    }

    @Override
    public String getDescription()
    {
        return "JFR thread samples (Java and native, every " + ThreadSamples.PERIOD_MS +
            " ms) of the measured iterations, into file=PATH";
    }

    @Override
    public void beforeIteration(final BenchmarkParams benchmark, final IterationParams iteration)
    {
        if (iteration.getType() == IterationType.MEASUREMENT && null == samples)
        {
            samples = ThreadSamples.start(benchmark.getBenchmark());
            measured = 0;
        }
    }

    @Override
    public Collection<? extends Result> afterIteration(final BenchmarkParams benchmark,
        final IterationParams iteration, final IterationResult result)
    {
        if (iteration.getType() == IterationType.MEASUREMENT && null != samples &&
            ++measured == iteration.getCount())
        {
            try
            {
                samples.stopInto(file);
            }
            finally
            {
                samples.close();
                samples = null;
            }
        }
        return List.of();
    }
}
