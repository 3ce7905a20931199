package io.ibex.samples.perf;

import io.ibex.samples.EndpointResources;
import io.ibex.samples.verbs.OutOfBandOptions;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * The options {@code ibex send-lat}, {@code send-bw}, {@code write-lat} and {@code write-bw} share, with perftest's names and defaults (HOST,
 * {@code -p} and the ibex-only {@code --listen} and {@code --timeout-ms} in {@link OutOfBandOptions}); the
 * message size ({@code -s}) is each command's own, since its default differs.
 */
public final class PerfOptions
{
    /** perftest's MAX_SIZE. */
    static final int MAX_SIZE = 1 << 23;
    /** perftest's MIN_ITER. */
    static final int MIN_ITERS = 5;
    /** perftest's MAX_RX. */
    static final int MAX_RX_DEPTH = 16384;
    /** perftest's MAX_INLINE. */
    static final int MAX_INLINE = 912;
    /** The most rounds --jfr records: enough for thousands of samples of the shortest loop. */
    static final int MAX_JFR_ROUNDS = 1000;

    @Mixin
    private OutOfBandOptions outOfBand;

    @Option(names = { "-x", "--gid-index" }, paramLabel = "INDEX", defaultValue = "-1",
        description = "Test uses GID with GID index (default: none, address by LID; RoCE and soft need one, 1 is " +
            "the IPv4-mapped GID).")
    private int gidIndex;

    @Option(names = { "-n", "--iters" }, paramLabel = "ITERS", defaultValue = "1000",
        description = "Number of exchanges measured (at least " + MIN_ITERS + ", default ${DEFAULT-VALUE}).")
    private int iters;

    @Option(names = { "-r", "--rx-depth" }, paramLabel = "DEPTH", defaultValue = "512",
        description = "Rx queue size (default ${DEFAULT-VALUE}; no more than -n/--iters).")
    private int rxDepth;

    @Option(names = { "-I", "--inline_size" }, paramLabel = "SIZE", defaultValue = "0",
        description = "Max size of message to be sent in inline (default ${DEFAULT-VALUE}, as perftest on rxe, " +
            "which it does not know as inline capable).")
    private int inlineSize;

    @Option(names = "--warmup", paramLabel = "ITERS", defaultValue = "20000",
        description = "ibex only: iterations (round trips, or messages of send-bw) run at least before the " +
            "measured ones, then on until neither JVM is compiling, at most ten times as many (default: " +
            "${DEFAULT-VALUE}; 0: no warm-up).")
    private int warmup;

    @Option(names = "--jfr", paramLabel = "FILE",
        description = "ibex only: after the measured loop, runs it --jfr-rounds times more under JFR's thread " +
            "samples (threads in Java code and in native methods, every " + ThreadSamples.PERIOD_MS + " ms) and " +
            "writes them into FILE, for a profile of where the measured loop's time goes; the peer follows " +
            "without the option.")
    private Path jfr;

    @Option(names = "--jfr-rounds", paramLabel = "ROUNDS", defaultValue = "5",
        description = "ibex only: the rounds of -n/--iters iterations that --jfr records (1.." + MAX_JFR_ROUNDS +
            ", default ${DEFAULT-VALUE}).")
    private int jfrRounds;

    /**
     * Checks the options both commands take, before anything is opened.
     *
     * @throws IllegalArgumentException naming the option and its value.
     */
    void check()
    {
        outOfBand.check();
        if (gidIndex < EndpointResources.NO_GID)
        {
            throw new IllegalArgumentException("-x/--gid-index " + gidIndex +
                ": a GID index is 0 or more (leave -x out to address by LID)");
        }
        if (iters < MIN_ITERS)
        {
            throw new IllegalArgumentException("-n/--iters " + iters + " must be at least " + MIN_ITERS);
        }
        if (rxDepth < 1 || rxDepth > MAX_RX_DEPTH)
        {
            throw new IllegalArgumentException("-r/--rx-depth " + rxDepth + " out of range 1.." + MAX_RX_DEPTH);
        }
        if (inlineSize < 0 || inlineSize > MAX_INLINE)
        {
            throw new IllegalArgumentException("-I/--inline_size " + inlineSize + " out of range 0.." + MAX_INLINE);
        }
        if (warmup < 0)
        {
            throw new IllegalArgumentException("--warmup " + warmup + " must be 0 or more");
        }
        if (jfrRounds < 1 || jfrRounds > MAX_JFR_ROUNDS)
        {
            throw new IllegalArgumentException("--jfr-rounds " + jfrRounds + " out of range 1.." + MAX_JFR_ROUNDS);
        }
        if ((long)iters + warmup > Integer.MAX_VALUE)
        {
            throw new IllegalArgumentException("-n/--iters " + iters + " and --warmup " + warmup +
                " together exceed " + Integer.MAX_VALUE + " messages");
        }
    }

    /**
     * @param size the {@code -s} value.
     * @throws IllegalArgumentException if it is out of perftest's range.
     */
    static void checkSize(final int size)
    {
        if (size < 1 || size > MAX_SIZE)
        {
            throw new IllegalArgumentException("-s/--size " + size + " out of range 1.." + MAX_SIZE);
        }
    }

    /** @return the out-of-band options: HOST, port, timeout. */
    OutOfBandOptions outOfBand()
    {
        return outOfBand;
    }

    /** @return the GID index, or {@link EndpointResources#NO_GID}. */
    int gidIndex()
    {
        return gidIndex;
    }

    /** @return the exchanges measured. */
    int iters()
    {
        return iters;
    }

    /** @return the warm-up iterations. */
    int warmup()
    {
        return warmup;
    }

    /** @return where to record the rounds after the measured loop, or null for no recording. */
    Path jfr()
    {
        return jfr;
    }

    /** @return the rounds {@link #jfr()} records. */
    int jfrRounds()
    {
        return jfrRounds;
    }

    /**
     * @return the receives to keep posted: {@code -r}, but no more than {@code -n}, as perftest caps it.
     */
    int rxDepth()
    {
        return Math.min(rxDepth, iters);
    }

    /** @return the largest message sent inline. */
    int inlineSize()
    {
        return inlineSize;
    }

    /** @return the longest wait for anything, in milliseconds. */
    long timeoutMillis()
    {
        return outOfBand.timeoutMillis();
    }
}
