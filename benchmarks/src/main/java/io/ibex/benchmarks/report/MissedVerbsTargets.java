package io.ibex.benchmarks.report;

import java.nio.file.Path;

/**
 * {@code MissedVerbsTargets PERFTEST_CSV}: prints, one a line, the ibex verbs-level tests ({@code send-lat},
 * {@code write-bw}, ...) whose target a guest run's perftest.csv misses. The guest's quick mode profiles only those
 * (softroce/bench-compare-guest.sh): a profile's extra JVMs cost minutes under emulation, and a met target's profile
 * goes unread.
 */
public final class MissedVerbsTargets
{
    private MissedVerbsTargets()
    {
    }

    /**
     * @param args the perftest.csv.
     */
    public static void main(final String[] args)
    {
        if (args.length != 1)
        {
            System.err.println("usage: MissedVerbsTargets PERFTEST_CSV");
            System.exit(2);
        }
        for (final Target target : Targets.rxeVerbs(PerftestCsv.read(Path.of(args[0]))))
        {
            if (target.measured() && !target.met())
            {
                System.out.println(target.profile().substring(target.profile().lastIndexOf('/') + 1));
            }
        }
    }
}
