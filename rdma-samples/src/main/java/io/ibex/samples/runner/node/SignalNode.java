package io.ibex.samples.runner.node;

import io.ibex.transport.config.internal.ConfigGroup;
import io.ibex.transport.sample.Sample;
import io.ibex.transport.sample.Signal;
import io.ibex.transport.sample.SignalList;
import io.ibex.transport.sample.SignalType;
import org.agrona.concurrent.EpochNanoClock;
import org.agrona.concurrent.NanoClock;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * VILLASnode's {@code signal} node-type: a signal generator that makes one sample a step, each value a waveform
 * (random, sine, square, triangle, ramp, counter, constant, pulse) of the time since the start.
 * <p>
 * The run starts at the first read, not at {@link #start()}: step 0 is made by the first read however long the path
 * took to come, and is never missed. Paced ({@code realtime = true}, the default), step {@code k} is due
 * {@code k / rate} seconds after that on the pacing clock; {@link #read} returns 0 until the next step is due,
 * and a late read produces one sample for the latest due step, counting the steps in between as missed (sequence
 * and counter jump over them), as VILLAS does. Unpaced, every read produces the next step at once, stamped
 * {@code k / rate} after the start. The sample of step {@code k} has sequence {@code k}, ts.origin from the epoch
 * clock and the values at {@code t = ts.origin - start}. The node ends ({@link Node#END}) when the step counter
 * reaches {@code limit}.
 * <p>
 * One path thread reads; {@link #summary()} is for after the path stopped. Reading allocates nothing.
 */
public final class SignalNode implements Node
{
    /** Builds signal nodes from their config groups (type {@value SignalNodeConfig#TYPE}). */
    public static final NodeFactory FACTORY = SignalNode::create;
    /** Builds signal nodes for the warm-up: as configured, but without a limit, so that they run until stopped. */
    public static final NodeFactory WARM_UP_FACTORY = (name, settings, context) ->
        configured(SignalNodeConfig.bind(name, settings).withoutLimit(), context);

    private static final int FLAGS = Sample.HAS_TS_ORIGIN | Sample.HAS_SEQUENCE | Sample.HAS_DATA;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final SignalNodeConfig config;
    private final SignalList signals;
    private final SignalGenerator generator;
    private final StepPacer pacer;
    /** The step the node ends at: {@code limit}, or never (Long.MAX_VALUE) for a limit of 0. */
    private final long endStep;
    private final EpochNanoClock clock;
    private final NanoClock pacingClock;

    private boolean started;
    private boolean running;
    private boolean ended;
    private long startEpochNanos;
    private long nextStep;
    private long produced;
    private long firstSampleNanos;
    private long lastSampleNanos;

    SignalNode(final SignalNodeConfig config, final NodeContext context, final SplittableRandom random)
    {
        this.config = config;
        this.signals = signalList(config.signals());
        this.generator = new SignalGenerator(config.signals(), config.rate(), random);
        this.pacer = new StepPacer(config.rate());
        this.endStep = config.limit() > 0 ? config.limit() : Long.MAX_VALUE;
        this.clock = context.clock();
        this.pacingClock = context.pacingClock();
    }

    /**
     * Binds a {@code signal} node's settings and builds it.
     *
     * @param name     the node's name.
     * @param settings its group.
     * @param context  the clocks it stamps and paces with.
     * @return the node, with its hook lists as written ({@code hooks} is short for {@code in.hooks}).
     * @throws io.ibex.transport.config.ConfigException naming the key, its value and its location.
     */
    public static ConfiguredNode create(final String name, final ConfigGroup settings, final NodeContext context)
    {
        return configured(SignalNodeConfig.bind(name, settings), context);
    }

    private static ConfiguredNode configured(final SignalNodeConfig config, final NodeContext context)
    {
        return new ConfiguredNode(new SignalNode(config, context, new SplittableRandom()), config.inHooks(),
            config.outHooks());
    }

    @Override
    public String name()
    {
        return config.name();
    }

    @Override
    public String type()
    {
        return SignalNodeConfig.TYPE;
    }

    /** @return a float per value, named after its waveform, as VILLAS names them. */
    @Override
    public SignalList signals()
    {
        return signals;
    }

    /** @return true: a signal node is a path's input. */
    @Override
    public boolean readable()
    {
        return true;
    }

    /** @return false: a signal node takes no samples. */
    @Override
    public boolean writable()
    {
        return false;
    }

    /** Readies step 0, which the first read makes at once; random walks start again at their offsets. */
    @Override
    public void start()
    {
        generator.restart();
        nextStep = 0;
        produced = 0;
        firstSampleNanos = 0;
        lastSampleNanos = 0;
        started = true;
        running = false;
        ended = false;
    }

    /**
     * Produces the sample of the step that is due, into slot 0.
     *
     * @param block where the sample goes; its value capacity fits {@link #signals()}.
     * @return 1, 0 if no step is due yet, or {@link Node#END} once the step counter reached the limit or the node
     *         stopped.
     * @throws IllegalStateException if the node was never started.
     */
    @Override
    public int read(final SampleBlock block)
    {
        if (ended)
        {
            return END;
        }
        if (!started)
        {
            throw new IllegalStateException("signal node '" + config.name() + "' read before it was started");
        }
        final long nowNanos = pacingClock.nanoTime();
        if (!running)
        {
            startEpochNanos = clock.nanoTime();
            pacer.start(nowNanos);
            running = true;
        }
        final long step = config.realtime() ? pacer.poll(nowNanos, endStep) : nextStep;
        if (step < 0)
        {
            block.size(0);
            return 0;
        }
        if (step >= endStep)
        {
            ended = true;
            block.size(0);
            return END;
        }
        final long originNanos = config.realtime() ? clock.nanoTime() : startEpochNanos + unpacedOffsetNanos(step);
        final Sample sample = block.get(0);
        sample.flags(FLAGS)
            .sequence(step)
            .origin(Math.floorDiv(originNanos, NANOS_PER_SECOND), Math.floorMod(originNanos, NANOS_PER_SECOND));
        generator.fill(sample, (originNanos - startEpochNanos) * 1e-9, step);
        block.size(1);
        if (produced++ == 0)
        {
            firstSampleNanos = nowNanos;
        }
        lastSampleNanos = nowNanos;
        nextStep = step + 1;
        return 1;
    }

    @Override
    public long nanosUntilDue()
    {
        if (!started || ended || !config.realtime())
        {
            return Long.MAX_VALUE;
        }
        return running ? pacer.nanosUntilDue(pacingClock.nanoTime()) : 0;
    }

    /**
     * @throws UnsupportedOperationException always: a signal node is never a path's output.
     */
    @Override
    public int write(final SampleBlock block, final int from, final int count)
    {
        throw new UnsupportedOperationException("signal node '" + config.name() + "' takes no samples");
    }

    /** Ends the node: every read from now on returns {@link Node#END}. */
    @Override
    public void stop()
    {
        ended = true;
    }

    /** @return samples produced since the start. */
    public long samplesProduced()
    {
        return produced;
    }

    /** @return steps passed over by late reads since the start; 0 if {@code monitor_missed = false}. */
    public long missedSteps()
    {
        return config.monitorMissed() ? pacer.missedSteps() : 0;
    }

    /**
     * @return what the run lacked if the node made no sample at all, which a user who ran a generator did not ask
     *         for; null once it made one.
     */
    @Override
    public String shortfall()
    {
        if (produced > 0)
        {
            return null;
        }
        final String why = ": the run ended before its path read it";
        return config.limit() > 0 ? "made none of the " + config.limit() + " samples its limit asks for" + why :
            "made no samples" + why;
    }

    /**
     * @return e.g. {@code "100000 samples in 0.999990 s: 100000.0 samples/s (rate 100000.0, +0.00 %), 0 missed
     *         steps, limit 100000"}: the time and rate from the first sample to the last on the pacing clock.
     */
    @Override
    public String summary()
    {
        final long elapsedNanos = lastSampleNanos - firstSampleNanos;
        final StringBuilder summary = new StringBuilder().append(produced).append(" samples")
            .append(String.format(Locale.ROOT, " in %.6f s", elapsedNanos * 1e-9));
        if (produced > 1)
        {
            final double achieved = (produced - 1) * 1e9 / elapsedNanos;
            summary.append(String.format(Locale.ROOT, ": %.1f samples/s", achieved));
            if (config.realtime())
            {
                summary.append(String.format(Locale.ROOT, " (rate %.1f, %+.2f %%)", config.rate(),
                    100 * (achieved - config.rate()) / config.rate()));
            }
        }
        if (!config.realtime())
        {
            summary.append(String.format(Locale.ROOT, ", unpaced (stamped at rate %.1f)", config.rate()));
        }
        else
        {
            summary.append(", ").append(config.monitorMissed() ? missedSteps() + " missed steps" :
                "missed steps not monitored");
        }
        if (config.limit() > 0)
        {
            summary.append(", limit ").append(config.limit());
        }
        return summary.toString();
    }

    @Override
    public void close()
    {
        stop();
    }

    /**
     * @return nanoseconds after the start that an unpaced step is stamped: {@code step / rate} seconds, cut to
     *         whole nanoseconds as VILLAS's time_from_double cuts them.
     */
    private long unpacedOffsetNanos(final long step)
    {
        final double seconds = step / config.rate();
        final long whole = (long)seconds;
        return whole * NANOS_PER_SECOND + (long)((seconds - whole) * 1e9);
    }

    private static SignalList signalList(final List<GeneratedSignal> generated)
    {
        final List<Signal> signals = new ArrayList<>(generated.size());
        for (final GeneratedSignal signal : generated)
        {
            signals.add(Signal.of(signal.waveform().configName(), SignalType.FLOAT));
        }
        return new SignalList(signals);
    }
}
