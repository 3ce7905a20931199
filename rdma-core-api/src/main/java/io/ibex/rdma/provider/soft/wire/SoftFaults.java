package io.ibex.rdma.provider.soft.wire;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Fault injection for the soft device, for tests: what a lossy network would do to its UD datagrams and to the
 * frames of its RC and UC links, decided per datagram or frame as it arrives, from a seeded random sequence (the
 * same seed and traffic give the same faults). Set with {@code -Dibex.soft.faults=SPEC} (read when the device
 * starts) or {@code SoftProvider.injectFaults(spec)}; the spec is a comma-separated list of
 * {@code name:value}:
 * <pre>
 *   drop:P        the datagram or frame is lost
 *   duplicate:P   it arrives twice
 *   reorder:P     it arrives after the next one
 *   delay:P       it arrives delay_us later (a datagram: others pass it; a frame: the link's stream stalls)
 *   truncate:P    it arrives cut short (a datagram: the second half is gone; a frame: half its payload)
 *   delay_us:N    the delay, in microseconds (default 1000)
 *   seed:N        the random sequence (default 1)
 *   on:WHAT       ud (datagrams only), links (RC and UC frames only) or all (default)
 * </pre>
 * Probabilities are in [0, 1] and add up to at most 1: one draw per datagram or frame picks at most one fault.
 * While a datagram or frame is held back (reorder, delay), the next ones are not held too. {@link #count} says
 * how many of each fault happened. {@link SoftFaultyDatagrams} and {@link SoftFaultyFrames} apply the draws; this
 * class is thread-safe.
 */
public final class SoftFaults
{
    /** The system property read when the device starts. */
    static final String PROPERTY = "ibex.soft.faults";

    /** What happens to one datagram or frame. */
    public enum Fault
    {
        /** Nothing: it arrives as sent. */
        NONE,
        /** It is lost. */
        DROP,
        /** It arrives twice. */
        DUPLICATE,
        /** It arrives after the next one. */
        REORDER,
        /** It arrives {@code delay_us} later. */
        DELAY,
        /** It arrives cut short. */
        TRUNCATE
    }

    private static final Fault[] DRAWN = {Fault.DROP, Fault.DUPLICATE, Fault.REORDER, Fault.DELAY, Fault.TRUNCATE};

    private final double[] probabilities = new double[DRAWN.length];
    private final long[] counts = new long[Fault.values().length];
    private final SplittableRandom random;
    private final long delayNanos;
    private final boolean datagrams;
    private final boolean frames;
    private final String spec;

    private SoftFaults(final String spec)
    {
        this.spec = spec;
        long seed = 1;
        long delayMicros = 1000;
        String on = "all";
        final Map<Fault, Double> given = new EnumMap<>(Fault.class);
        for (final String item : spec.split(","))
        {
            final String trimmed = item.trim();
            final int colon = trimmed.indexOf(':');
            if (colon <= 0)
            {
                throw bad(spec, "'" + trimmed + "' is not name:value");
            }
            final String name = trimmed.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            final String value = trimmed.substring(colon + 1).trim();
            switch (name)
            {
                case "seed" -> seed = number(spec, name, value, Long.MIN_VALUE);
                case "delay_us" -> delayMicros = number(spec, name, value, 0);
                case "on" ->
                {
                    if (!value.equals("ud") && !value.equals("links") && !value.equals("all"))
                    {
                        throw bad(spec, "on:" + value + " is not ud, links or all");
                    }
                    on = value;
                }
                default -> given.put(fault(spec, name), probability(spec, name, value));
            }
        }
        double sum = 0;
        for (int i = 0; i < DRAWN.length; i++)
        {
            probabilities[i] = given.getOrDefault(DRAWN[i], 0.0);
            sum += probabilities[i];
        }
        if (sum > 1)
        {
            throw bad(spec, "the probabilities add up to " + sum + ", more than 1");
        }
        this.random = new SplittableRandom(seed);
        this.delayNanos = TimeUnit.MICROSECONDS.toNanos(delayMicros);
        this.datagrams = !on.equals("links");
        this.frames = !on.equals("ud");
    }

    /**
     * @param spec the faults, as the class comment says.
     * @return the injector, its counts at 0.
     * @throws IllegalArgumentException naming the item of the spec that is wrong.
     */
    public static SoftFaults parse(final String spec)
    {
        return new SoftFaults(spec);
    }

    /** @return the injector {@value #PROPERTY} asks for, or null. */
    public static SoftFaults fromSystemProperty()
    {
        final String spec = System.getProperty(PROPERTY);
        return spec == null || spec.isBlank() ? null : parse(spec);
    }

    /**
     * @param fault a fault.
     * @return how many datagrams and frames it happened to ({@link Fault#NONE}: how many arrived untouched).
     */
    public synchronized long count(final Fault fault)
    {
        return counts[fault.ordinal()];
    }

    /** @return how long a delayed datagram or frame is held back. */
    public long delayNanos()
    {
        return delayNanos;
    }

    /**
     * Draws the fate of the next datagram or frame.
     *
     * @param datagram whether it is a UD datagram (else a frame of a link).
     * @param canHold  whether it may be held back (nothing else is).
     * @return the fault, counted.
     */
    public synchronized Fault next(final boolean datagram, final boolean canHold)
    {
        Fault fault = Fault.NONE;
        if (datagram ? datagrams : frames)
        {
            final double draw = random.nextDouble();
            double below = 0;
            for (int i = 0; i < DRAWN.length; i++)
            {
                below += probabilities[i];
                if (draw < below)
                {
                    fault = DRAWN[i];
                    break;
                }
            }
        }
        if (!canHold && (fault == Fault.REORDER || fault == Fault.DELAY))
        {
            fault = Fault.NONE;
        }
        counts[fault.ordinal()]++;
        return fault;
    }

    @Override
    public String toString()
    {
        return "SoftFaults{" + spec + '}';
    }

    private static Fault fault(final String spec, final String name)
    {
        for (final Fault fault : DRAWN)
        {
            if (fault.name().toLowerCase(Locale.ROOT).equals(name))
            {
                return fault;
            }
        }
        throw bad(spec, "unknown fault '" + name + "' (drop, duplicate, reorder, delay, truncate, delay_us, seed, " +
            "on)");
    }

    private static double probability(final String spec, final String name, final String value)
    {
        final double p;
        try
        {
            p = Double.parseDouble(value);
        }
        catch (final NumberFormatException ex)
        {
            throw bad(spec, name + ":" + value + " is not a number");
        }
        if (!(p >= 0 && p <= 1))
        {
            throw bad(spec, name + ":" + value + " is not a probability in [0, 1]");
        }
        return p;
    }

    private static long number(final String spec, final String name, final String value, final long min)
    {
        final long n;
        try
        {
            n = Long.parseLong(value);
        }
        catch (final NumberFormatException ex)
        {
            throw bad(spec, name + ":" + value + " is not an integer");
        }
        if (n < min)
        {
            throw bad(spec, name + ":" + value + " is below " + min);
        }
        return n;
    }

    private static IllegalArgumentException bad(final String spec, final String why)
    {
        return new IllegalArgumentException(PROPERTY + " '" + spec + "': " + why);
    }
}
