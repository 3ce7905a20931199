package io.ibex.benchmarks;

import io.ibex.samples.runner.format.FixedDecimal;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * One float value of a sample written as a file node writes it in VILLAS's human format ({@code %.17f} by
 * default): at 1 MHz, the reference example's two file nodes write three of them per sample each.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FixedDecimalBenchmark
{
    private static final int VALUES = 1024; // a power of two: the index wraps by mask

    /** Decimals written (17: VILLAS's default precision). */
    @Param({ "17" })
    public int precision;

    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(FixedDecimal.MAX_LENGTH));
    private final double[] values = new double[VALUES];
    private FixedDecimal decimal;
    private int next;

    /** Values of a signal generator's range, -1..1. */
    @Setup
    public void setUp()
    {
        decimal = new FixedDecimal(precision);
        final SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < VALUES; i++)
        {
            values[i] = random.nextDouble(-1, 1);
        }
    }

    /** @return the bytes written. */
    @Benchmark
    public int put()
    {
        return decimal.put(buffer, 0, values[next++ & (VALUES - 1)], false);
    }
}
