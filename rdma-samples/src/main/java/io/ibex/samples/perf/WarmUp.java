package io.ibex.samples.perf;

import io.ibex.samples.verbs.OutOfBandSocket;

import java.util.function.IntConsumer;

/**
 * The warm-up, coordinated with the peer over the out-of-band connection as perftest synchronizes its phases:
 * rounds of the loop that are not measured, at least {@code --warmup} iterations, and then on until a round in
 * which neither JVM was busy besides the loop ({@link LoopCost#wasQuiet()}: the JIT compiling, mostly, which
 * steals the CPU the loop measures), or until ten times {@code --warmup} iterations ran. After each round both
 * sides send each other one byte, quiet or busy, and both take the same decision from the two. The measured loop
 * starts right after the last exchange, on both sides.
 */
final class WarmUp
{
    /** Iterations of a round at most. */
    static final int ROUND = 5000;
    private static final int MAX_FACTOR = 10;
    private final RoundReport report;
    private final int minimum;
    private final int round;
    private final long maximum;
    private int iterations;
    private int rounds;
    private boolean quiet;

    /**
     * @param peer     the connection to the peer, which runs the same warm-up.
     * @param minimum  the iterations to run at least ({@code --warmup}; 0 for no warm-up at all).
     * @param multiple a round's iterations are a multiple of this (the post list).
     */
    WarmUp(final OutOfBandSocket peer, final int minimum, final int multiple)
    {
        this.report = new RoundReport(peer, 'q', 'b', "report of a warm-up round");
        this.minimum = minimum;
        this.round = (Math.min(Math.max(minimum, 1), ROUND) + multiple - 1) / multiple * multiple;
        this.maximum = (long)MAX_FACTOR * minimum;
    }

    /**
     * Runs the rounds.
     *
     * @param loop runs the loop for the given iterations, the same loop as measured.
     */
    void run(final IntConsumer loop)
    {
        final LoopCost cost = new LoopCost();
        boolean more = minimum > 0;
        while (more)
        {
            cost.start();
            loop.accept(round);
            cost.stop();
            iterations += round;
            rounds++;
            quiet = agree(cost.wasQuiet());
            more = iterations < minimum || !quiet && iterations < maximum;
        }
    }

    /**
     * @return what the warm-up did, for the report.
     */
    String describe()
    {
        if (rounds == 0)
        {
            return "none";
        }
        return iterations + " iterations in " + rounds + " rounds of " + round + "; " + (quiet ?
            "the last round quiet in both JVMs" : "still busy in a JVM after " + MAX_FACTOR + " times --warmup");
    }

    /**
     * @param unit what an iteration is: "iterations", "messages".
     * @return the plan, for the header, e.g. "at least 20000 iterations in rounds of 5000, then until both JVMs
     *         are quiet (at most 200000)".
     */
    String plan(final String unit)
    {
        return minimum == 0 ? "none" : "at least " + minimum + " " + unit + " in rounds of " + round +
            ", then until both JVMs are quiet (at most " + maximum + ")";
    }

    private boolean agree(final boolean quietHere)
    {
        return report.exchange(quietHere) && quietHere;
    }
}
