package io.ibex.benchmarks.report;

import io.ibex.transport.sample.Sample;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The performance targets ibex is held to, evaluated on a run's data. On rxe (the guest), perftest and
 * {@code ibex *-lat} report half a round trip, so the sample channel's JMH round trip is halved before it is set
 * against them. The targets' sizes: 64 B for the peers; for the channel, the sample of 5 values (64 B on the wire:
 * 24 B of header and 8 B a value); on the host, every sample size against nio at the same bytes. Each target names
 * the profile of ibex's case the comparison records (benchmarks/compare.sh, softroce/bench-compare-guest.sh):
 * {@code guest/profiles/send-lat}, {@code write-lat}, {@code send-bw}, {@code write-bw} (the ibex client at 64 B),
 * {@code channel-round-trip-5}, and on the host {@code profiles/channel-round-trip-1}, {@code -8} and {@code -64};
 * the two-JVM targets (the sample channel to a second JVM over shared memory, against Aeron IPC and a rate) have
 * none.
 */
public final class Targets
{
    /** Benchmarks whose results are round trips of the host's peers and ibex. */
    static final List<String> ROUND_TRIPS = List.of("PingPongBenchmark", "ChannelRoundTripBenchmark");
    /** The peers' message size of the rxe targets. */
    static final int PEER_BYTES = 64;
    /** Values of the sample whose channel round trip the rxe target takes. */
    static final int CHANNEL_VALUES = 5;
    /** Values of the samples whose channel round trip the host target takes. */
    static final List<Integer> HOST_VALUES = List.of(1, 8, 64);

    /** The profiles' names of the channel's round trip, followed by the sample's values. */
    static final String CHANNEL_PROFILE = "channel-round-trip-";
    /** Where the guest's profiles are, in the run's directory. */
    private static final String GUEST_PROFILES = ComparisonData.GUEST + "/" + ComparisonData.PROFILES + "/";

    private static final double VERBS_LATENCY_LIMIT = 1.1;
    private static final double CHANNEL_LATENCY_LIMIT = 1.2;
    private static final double MESSAGE_RATE_LIMIT = 0.9;
    private static final double HOST_ROUND_TRIP_LIMIT = 1.5;
    /** The round trip to a second JVM over shared memory, at most this times Aeron IPC's (one JVM). */
    private static final double TWO_JVM_ROUND_TRIP_LIMIT = 2.0;
    /** Samples of 8 values a second, vectorized, to a reader in a second JVM over shared memory. */
    private static final double TWO_JVM_SAMPLES_PER_SECOND = 5e6;
    private static final String TWO_JVM_SHM = "shm-2jvm";
    private static final String TWO_JVM_WRITE = "soft-shm-write-2jvm";

    private Targets()
    {
    }

    /**
     * @param data a run.
     * @return every target with the run's figures; those it lacks have NaN figures and say "not run".
     */
    public static List<Target> of(final ComparisonData data)
    {
        final List<Target> verbs = rxeVerbs(data.perftest());
        final int latencies = PerftestRuns.LATENCY_TESTS.size();
        final List<Target> targets = new ArrayList<>(verbs.subList(0, latencies));
        final PerftestRuns runs = new PerftestRuns(data.perftest());
        final double channelRoundTrip = p50(LatencyCase.of(data.guest(), ROUND_TRIPS),
            latency -> "channel".equals(latency.param("path")) &&
                Integer.toString(CHANNEL_VALUES).equals(latency.param("values")));
        targets.add(new Target("rxe: sample channel ½ round trip, " + CHANNEL_VALUES + " values (" +
            Sample.wireLength(CHANNEL_VALUES) + " B) / ib_send_lat median, " + PEER_BYTES + " B",
            channelRoundTrip / 2, median(runs, PerftestCsv.PERFTEST, "send_lat"), "µs", CHANNEL_LATENCY_LIMIT, true,
            GUEST_PROFILES + CHANNEL_PROFILE + CHANNEL_VALUES));
        targets.addAll(verbs.subList(latencies, verbs.size()));
        final List<LatencyCase> host = LatencyCase.of(data.host(), ROUND_TRIPS);
        for (final int values : HOST_VALUES)
        {
            final int bytes = Sample.wireLength(values);
            final double channel = p50(host, latency -> "channel".equals(latency.param("path")) &&
                Integer.toString(values).equals(latency.param("values")));
            final double nio = p50(host, latency -> "nio".equals(latency.param("transport")) &&
                latency.bytes() == bytes);
            targets.add(new Target("host: soft sample channel round trip / nio, median, " + values +
                (values == 1 ? " value (" : " values (") + bytes + " B)", channel, nio, "µs", HOST_ROUND_TRIP_LIMIT,
                true, ComparisonData.PROFILES + "/" + CHANNEL_PROFILE + values));
        }
        twoJvmTargets(data, host, targets);
        return targets;
    }

    /**
     * @param perftest the rows of a guest run's perftest.csv.
     * @return the targets of ibex's verbs-level clients against perftest: the latency tests', then the bandwidth
     *     tests'.
     */
    private static List<Target> rxeVerbs(final List<PerftestCsv.Row> perftest)
    {
        final List<Target> targets = new ArrayList<>();
        final PerftestRuns runs = new PerftestRuns(perftest);
        for (final String test : PerftestRuns.LATENCY_TESTS)
        {
            targets.add(new Target("rxe: ibex " + dashed(test) + " / ib_" + test + ", median (t_typical), " +
                PEER_BYTES + " B", median(runs, PerftestCsv.IBEX, test), median(runs, PerftestCsv.PERFTEST, test),
                "µs", VERBS_LATENCY_LIMIT, true, GUEST_PROFILES + dashed(test)));
        }
        for (final String test : PerftestRuns.BANDWIDTH_TESTS)
        {
            targets.add(new Target("rxe: ibex " + dashed(test) + " / ib_" + test + ", message rate, " + PEER_BYTES +
                " B", rate(runs, PerftestCsv.IBEX, test), rate(runs, PerftestCsv.PERFTEST, test), "Mpps",
                MESSAGE_RATE_LIMIT, false, GUEST_PROFILES + dashed(test)));
        }
        return targets;
    }

    /** The two-JVM targets: the sample channel to a second JVM of the host over the soft provider's shared memory. */
    private static void twoJvmTargets(final ComparisonData data, final List<LatencyCase> host,
        final List<Target> targets)
    {
        final int bytes = Sample.wireLength(CHANNEL_VALUES);
        final double shm = p50(host, latency -> ("channel-" + TWO_JVM_SHM).equals(latency.param("path")) &&
            Integer.toString(CHANNEL_VALUES).equals(latency.param("values")));
        final double ipc = p50(host, latency -> "aeron-ipc".equals(latency.param("transport")) &&
            latency.bytes() == bytes);
        targets.add(new Target("host, two JVMs: soft sample channel round trip over shared memory / aeron-ipc " +
            "(one JVM), median, " + CHANNEL_VALUES + " values (" + bytes + " B)", shm, ipc, "µs",
            TWO_JVM_ROUND_TRIP_LIMIT, true, null));
        final double write = p50(host, latency -> TWO_JVM_WRITE.equals(latency.param("transport")) &&
            latency.bytes() == bytes);
        targets.add(new Target("host, two JVMs: soft RDMA WRITE round trip (direct copies into shared memory) / " +
            "aeron-ipc (one JVM), median, " + bytes + " B", write, ipc, "µs", TWO_JVM_ROUND_TRIP_LIMIT, true, null));
        final double rate = RateCase.of(data.host(), HostReport.STREAMS).stream()
            .filter(stream -> TWO_JVM_SHM.equals(stream.param("reader")))
            .findFirst().map(RateCase::perSecond).orElse(Double.NaN);
        targets.add(new Target("host, two JVMs: soft sample channel stream over shared memory, 8 values, " +
            "vectorize 32 / issue 8's 5 M samples/s", rate / 1e6, TWO_JVM_SAMPLES_PER_SECOND / 1e6, "M samples/s",
            1.0, false, null));
    }

    private static String dashed(final String test)
    {
        return test.replace('_', '-');
    }

    private static double median(final PerftestRuns runs, final String tool, final String test)
    {
        return runs.spread(tool, test, PEER_BYTES, PerftestCsv.Row::tTypicalUs).median();
    }

    private static double rate(final PerftestRuns runs, final String tool, final String test)
    {
        return runs.spread(tool, test, PEER_BYTES, PerftestCsv.Row::msgRateMpps).median();
    }

    /** The median round trip of the one case that matches, NaN when none does. */
    private static double p50(final List<LatencyCase> cases, final Predicate<LatencyCase> which)
    {
        return cases.stream().filter(which).findFirst().map(latency -> latency.percentile(50)).orElse(Double.NaN);
    }
}
