package io.ibex.samples.perf;

import io.ibex.samples.verbs.OutOfBandSocket;

import java.nio.file.Path;
import java.util.function.IntConsumer;

/**
 * The profile of a test (ibex only, {@code --jfr FILE}): after the measured loop and its results, the same loop runs
 * {@code --jfr-rounds} times more, each time the measured iterations, under a recording of thread samples
 * ({@link ThreadSamples}). The JVMs are as warm as in the measured loop, so the profile shows the measured code,
 * and the measured figures are not slowed by the recording, nor paid for with JVMs of their own to start and warm.
 * <p>
 * Both sides run the rounds, in step, as the warm-up's: once connected each side tells the other over the
 * out-of-band connection whether it wants rounds (it has {@code --jfr}), and when either does, before each round
 * whether it wants one more; both run one while either does. So only the side that records needs the options; a
 * peer without them follows. Without {@code --jfr} on either side nothing more is exchanged after the measured
 * loop, as in perftest.
 */
final class ProfileRounds
{
    private final RoundReport report;
    private final Path jfr;
    private final boolean wanted;
    private int left;

    /**
     * Tells the peer, once connected, whether this side wants rounds, and learns whether the peer does.
     *
     * @param peer   the connection to the peer, which runs the same rounds.
     * @param jfr    where to record this side's rounds, or null to record nothing (and run the peer's rounds).
     * @param rounds this side's rounds (used with {@code jfr} only).
     */
    ProfileRounds(final OutOfBandSocket peer, final Path jfr, final int rounds)
    {
        this.report = new RoundReport(peer, 'p', 'e', "report of a profile round");
        this.jfr = jfr;
        this.left = jfr != null ? rounds : 0;
        this.wanted = agree();
    }

    /**
     * Runs the rounds both sides want, recording them into the file if this side has one.
     *
     * @param loop       runs the loop for the given iterations, the same loop as measured.
     * @param iterations the measured iterations: a round's.
     * @return the rounds run.
     * @throws java.io.UncheckedIOException if the recording cannot be written, naming the file.
     */
    int run(final IntConsumer loop, final int iterations)
    {
        if (jfr == null)
        {
            return runRounds(loop, iterations);
        }
        try (ThreadSamples samples = ThreadSamples.start("ibex measured loop, after the measurement"))
        {
            final int rounds = runRounds(loop, iterations);
            samples.stopInto(jfr);
            return rounds;
        }
    }

    private int runRounds(final IntConsumer loop, final int iterations)
    {
        int rounds = 0;
        while (wanted && agree())
        {
            loop.accept(iterations);
            left = Math.max(0, left - 1);
            rounds++;
        }
        return rounds;
    }

    /** @return whether either side wants (another) round. */
    private boolean agree()
    {
        final boolean mine = left > 0;
        return report.exchange(mine) || mine;
    }
}
