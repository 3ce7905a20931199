import java.util.concurrent.TimeUnit;

/**
 * A pacer that does nothing per step: steps at a rate on the monotonic clock, with VILLAS's rule that a step
 * reached late is not caught up (the steps in between are missed), and counts the stalls, the times the thread
 * saw the clock jump by more than 10 us between two reads. What it misses is the machine's and the JVM's own
 * share of the runner's missed steps. Run: {@code java benchmarks/pacing/BarePacer.java STEPS [RATE]}; its twin in
 * C, bare_pacer.c, tells the machine from the JVM.
 */
public final class BarePacer
{
    public static void main(final String[] args)
    {
        final long steps = Long.parseLong(args[0]);
        final long period = (long)(1e9 / (args.length > 1 ? Double.parseDouble(args[1]) : 100_000.0));
        final long start = System.nanoTime();
        long last = start;
        long next = 0;
        long missed = 0;
        long stalls = 0;
        long stalledNanos = 0;
        while (next < steps)
        {
            final long now = System.nanoTime();
            if (now - last > TimeUnit.MICROSECONDS.toNanos(10))
            {
                stalls++;
                stalledNanos += now - last;
            }
            last = now;
            if (now - (start + next * period) >= 0)
            {
                final long step = Math.min((now - start) / period, steps);
                missed += step - next;
                next = step + 1;
            }
        }
        final double seconds = (last - start) / 1e9;
        System.out.printf("java: %d steps in %.3f s: missed %d (%.2f%%); %d stalls over 10 us (%.0f/s), %.2f%% of the time%n",
            steps, seconds, missed, 100.0 * missed / steps, stalls, stalls / seconds, 100 * stalledNanos / 1e9 / seconds);
    }
}
