package io.ibex.benchmarks;

import io.ibex.transport.sample.Sample;
import io.ibex.transport.sample.SampleClock;
import io.ibex.transport.sample.SignalList;
import io.ibex.transport.stats.ChannelStats;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.WriterReaderPhaser;
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

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What the sample channel does per sample besides the verbs calls, each part alone: the lock a data-path call
 * takes (a {@code ReentrantLock} pair beside the compare-and-set / release-store pair the channel's path lock
 * uses), the stats of a received sample (owd, two gaps, the received counter), the epoch clock read that stamps
 * ts.received, and the initialisation of a claimed sample from its signal list; and, of the stats, the two
 * parts no implementation of them can avoid: a histogram record per metric (three for a received sample) and a
 * writer critical section that lets another thread take snapshots. Under emulation (the Soft-RoCE
 * guest) these cost many times what they cost on the host, which is why they show in the channel's round trip
 * there.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ChannelPartsBenchmark
{
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    /** Float values of the sample that is initialised and recorded. */
    @Param({ "8" })
    public int values;

    private final ReentrantLock reentrantLock = new ReentrantLock();
    private final AtomicBoolean flag = new AtomicBoolean();
    private final SampleClock clock = new SampleClock();
    private final ChannelStats stats = new ChannelStats();
    private final Sample sample = new Sample();
    private final WriterReaderPhaser phaser = new WriterReaderPhaser();
    private final Histogram owd = new Histogram(1, TimeUnit.DAYS.toNanos(1), 2);
    private final Histogram gapReceived = new Histogram(1, TimeUnit.DAYS.toNanos(1), 2);
    private final Histogram gapSent = new Histogram(1, TimeUnit.DAYS.toNanos(1), 2);
    private SignalList signals;
    private long sequence;

    /** Points the sample at heap memory of its size. */
    @Setup
    public void setUp()
    {
        signals = SignalList.ofCount(values);
        sample.wrap(new UnsafeBuffer(new byte[Sample.slotLength(values)]), 0, values).initialise(signals);
        sample.flags(Sample.HAS_TS_ORIGIN | Sample.HAS_TS_RECEIVED | Sample.HAS_SEQUENCE);
    }

    /** @return the lock's hold count inside the pair, so the pair is not optimised away. */
    @Benchmark
    public int reentrantLockPair()
    {
        reentrantLock.lock();
        try
        {
            return reentrantLock.getHoldCount();
        }
        finally
        {
            reentrantLock.unlock();
        }
    }

    /** @return whether the flag was taken, inside the pair. */
    @Benchmark
    public boolean casLockPair()
    {
        final boolean taken = flag.compareAndSet(false, true);
        flag.setRelease(false);
        return taken;
    }

    /** @return the epoch time, as ts.received is stamped. */
    @Benchmark
    public long epochClock()
    {
        return clock.nanoTime();
    }

    /** Records one received sample 10 µs after the previous one, sent 5 µs before it arrived. */
    @Benchmark
    public void receivedSampleStats()
    {
        final long received = 1_700_000_000L * NANOS_PER_SECOND + 10_000 * sequence;
        final long origin = received - 5_000;
        sample.sequence(sequence++)
            .origin(origin)
            .received(received / NANOS_PER_SECOND, received % NANOS_PER_SECOND);
        stats.onReceived(sample);
    }

    /** The three histogram records of a received sample (owd, gap_received, gap_sent), at the stats' range. */
    @Benchmark
    public void threeHistogramRecords()
    {
        final long jitter = sequence++ & 1023;
        owd.recordValue(5_000 + jitter);
        gapReceived.recordValue(10_000 - jitter);
        gapSent.recordValue(10_000);
    }

    /** @return the phase of an empty writer critical section, as the stats enter once per received sample. */
    @Benchmark
    public long writerCriticalSection()
    {
        final long phase = phaser.writerCriticalSectionEnter();
        phaser.writerCriticalSectionExit(phase);
        return phase;
    }

    /** @return the sample, initialised from the signal list as claim does. */
    @Benchmark
    public Sample initialiseClaimedSample()
    {
        return sample.initialise(signals);
    }
}
