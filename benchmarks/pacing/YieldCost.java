/**
 * What a path's {@code yielding} idle strategy pays per empty poll: the mean time of {@code Thread.yield()} with no
 * other thread waiting for the core, three rounds of a million. Beside a 1 MHz generator's 1 us period it decides
 * whether a path may yield at all while its next step comes due. Run: {@code java benchmarks/pacing/YieldCost.java}.
 */
public final class YieldCost
{
    public static void main(final String[] args)
    {
        final int yields = 1_000_000;
        for (int round = 1; round <= 3; round++)
        {
            final long start = System.nanoTime();
            for (int i = 0; i < yields; i++)
            {
                Thread.yield();
            }
            System.out.printf("round %d: Thread.yield() %d ns%n", round, (System.nanoTime() - start) / yields);
        }
    }
}
