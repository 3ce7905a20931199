#!/bin/bash
# The sample channel's JMH benchmarks (io.ibex.benchmarks.ChannelRoundTripBenchmark beside the verbs-level
# ping-pong of the same length, and ChannelThroughputBenchmark) on the disni provider over the kernel's
# Soft-RoCE device, at rxe0's address, in ONE guest boot with the settings of softroce/bench-send.sh
# (multi-threaded TCG, the TSC as clock source). Shorter than on the host, to finish in ~20 minutes of guest
# time: each case runs alone in one JVM (JMH -f 0: one JVM launch per case instead of two), BENCH_WI warm-up
# and BENCH_I measured iterations of BENCH_TIME each (emulated, the JIT needs ~8 s to settle the channel's code),
# round trips in SampleTime mode only and BENCH_ROUNDS times each (verbs and channel alternating), all with
# -prof gc.
# A case whose JVM crashes (multi-threaded TCG: see docs/benchmarks.md) is rerun, at most BENCH_RERUNS (3) times
# (softroce/bench-lib.bash); any other failure fails the run. Prints each case's JMH table; results stay in target/bench-channel/ (CSV and logs).
# usage: softroce/bench-channel.sh [-n]
#   -n  skip the Maven build (reuse target/ from a previous build)
# environment: BENCH_WI (6), BENCH_I (4), BENCH_TIME (2s), BENCH_ROUNDS (2), SOFTROCE_TIMEOUT (2400)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = --in-guest ]; then
    . softroce/bench-lib.bash
    out=target/bench-channel
    bench_init "$out"
    iterations=(-wi "${BENCH_WI:-6}" -w "${BENCH_TIME:-2s}" -i "${BENCH_I:-4}" -r "${BENCH_TIME:-2s}")
    echo "--- guest: $(bench_facts | tr '\n' ' '), $SOFTROCE_DEV at $SOFTROCE_IP"
    # case_run NAME JMH-ARGS...: one case in one JVM, rerun if the JVM crashed; a failure is counted, not fatal
    case_run()
    {
        local name=$1
        shift
        bench_jmh "$name" "$@" "${iterations[@]}" -prof gc -rf csv -rff "$out/$name.csv" || true
    }
    # Verbs and channel alternate, BENCH_ROUNDS times: a ratio per round, the boot's drift shared by both sides.
    for values in 1 8 64
    do
        for round in $(seq "${BENCH_ROUNDS:-2}")
        do
            for path in verbs channel
            do
                case_run "rtt-$path-$values-r$round" ChannelRoundTripBenchmark -bm sample -p values="$values" \
                    -p path="$path"
            done
        done
    done
    for vectorize in 1 8 32
    do
        for inline in true false
        do
            case_run "thrpt-v$vectorize-inline-$inline" ChannelThroughputBenchmark -p vectorize="$vectorize" \
                -p inline="$inline"
        done
    done
    echo "--- round trip, SampleTime p50 in us: values, round, verbs, channel, channel / verbs"
    for values in 1 8 64
    do
        for round in $(seq "${BENCH_ROUNDS:-2}")
        do
            # JMH's CSV: the p0.50 row's score is the fifth quoted field
            verbs=$(grep -s ':p0.50"' "$out/rtt-verbs-$values-r$round.csv" | cut -d, -f5) || true
            channel=$(grep -s ':p0.50"' "$out/rtt-channel-$values-r$round.csv" | cut -d, -f5) || true
            awk -v values="$values" -v round="$round" -v v="${verbs:-0}" -v c="${channel:-0}" 'BEGIN {
                printf "    %2d values, round %d: %8.2f %8.2f %s\n", values, round, v, c,
                    (v > 0 && c > 0) ? sprintf("%.2f", c / v) : "(missing)" }'
        done
    done
    [ $bench_failures = 0 ]
    exit
fi

. softroce/bench-lib.bash
bench_build "${1:-}"
bench_guest "${SOFTROCE_TIMEOUT:-2400}" -e BENCH_WI -e BENCH_I -e BENCH_TIME -e BENCH_ROUNDS \
    -- bash softroce/bench-channel.sh --in-guest
