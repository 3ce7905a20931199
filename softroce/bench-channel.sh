#!/bin/bash
# The sample channel's JMH benchmarks (io.ibex.benchmarks.ChannelRoundTripBenchmark beside the verbs-level
# ping-pong of the same length, and ChannelThroughputBenchmark) on the disni provider over the kernel's
# Soft-RoCE device, at rxe0's address, in ONE guest boot with the settings of softroce/bench-send.sh
# (multi-threaded TCG, the TSC as clock source). Shorter than on the host, to finish in ~20 minutes of guest
# time: each case runs alone in one JVM (JMH -f 0: one JVM launch per case instead of two), BENCH_WI warm-up
# and BENCH_I measured iterations of BENCH_TIME each (emulated, the JIT needs ~8 s to settle the channel's code),
# round trips in SampleTime mode only and BENCH_ROUNDS times each (verbs and channel alternating), all with
# -prof gc.
# A case whose JVM crashes (multi-threaded TCG: see docs/benchmarks.md) is rerun, at most twice; any other
# failure fails the run. Prints each case's JMH table; results stay in target/bench-channel/ (CSV and logs).
# usage: softroce/bench-channel.sh [-n]
#   -n  skip the Maven build (reuse target/ from a previous build)
# environment: BENCH_WI (6), BENCH_I (4), BENCH_TIME (2s), BENCH_ROUNDS (2), SOFTROCE_TIMEOUT (2400)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = --in-guest ]; then
    : "${SOFTROCE_DEV:?not inside the Soft-RoCE guest}" "${SOFTROCE_IP:?not inside the Soft-RoCE guest}"
    out=target/bench-channel
    rm -rf "$out" && mkdir -p "$out"
    iterations=(-wi "${BENCH_WI:-6}" -w "${BENCH_TIME:-2s}" -i "${BENCH_I:-4}" -r "${BENCH_TIME:-2s}")
    echo "--- guest: kernel $(uname -r), $(nproc) vCPUs," \
        "clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)," \
        "$SOFTROCE_DEV at $SOFTROCE_IP, $(java -version 2>&1 | head -1)"
    failed=0
    # case_run NAME JMH-ARGS...: one case in one JVM, rerun if the JVM crashed
    case_run()
    {
        local name=$1 attempt rc
        shift
        for attempt in 1 2 3
        do
            rc=0
            java --add-exports java.base/sun.nio.ch=ALL-UNNAMED -Djava.library.path="$PWD/rdma-core-api/target/native" \
                -XX:ErrorFile="$out/hs_err_pid%p.log" -jar benchmarks/target/benchmarks.jar "$@" \
                -p provider=disni -p address="$SOFTROCE_IP" -f 0 "${iterations[@]}" -prof gc -foe true \
                -rf csv -rff "$out/$name.csv" > "$out/$name.log" 2>&1 || rc=$?
            if [ "$rc" = 0 ]; then
                sed -n '/^Benchmark /,$p' "$out/$name.log"
                return 0
            fi
            if [ "$rc" -le 128 ] && ! compgen -G "$out/hs_err_pid*.log" > /dev/null; then
                echo "    $name failed (exit code $rc), see $out/$name.log:"
                grep -m 5 -i "exception\|error" "$out/$name.log" | sed 's/^/    /'
                failed=1
                return 0
            fi
            echo "    $name: the JVM crashed (attempt $attempt, exit code $rc): $(ls "$out"/hs_err_pid*.log 2>/dev/null | tr '\n' ' ')"
            mkdir -p "$out/crashes" && mv "$out"/hs_err_pid*.log "$out/crashes/" 2>/dev/null || true
        done
        echo "    $name: crashed three times"
        failed=1
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
    exit $failed
fi

if [ "${1:-}" != "-n" ]; then
    echo "--- host: mvn package (no tests)"
    mvn -q -B package -DskipTests
fi
[ -f rdma-core-api/target/native/libdisni.so ] && [ -f benchmarks/target/benchmarks.jar ] || {
    echo "bench-channel: build first (rdma-core-api/target/native/libdisni.so and benchmarks/target/benchmarks.jar)" >&2
    exit 1
}
echo "--- host: $(nproc) cores, $(uname -r), $(qemu-system-x86_64 --version | head -1), load $(cut -d' ' -f1-3 /proc/loadavg)"
rc=0
SOFTROCE_TCG_THREAD=multi SOFTROCE_KERNEL_ARGS="clocksource=tsc tsc=reliable" \
    softroce/run-in-guest.sh -t "${SOFTROCE_TIMEOUT:-2400}" -e BENCH_WI -e BENCH_I -e BENCH_TIME -e BENCH_ROUNDS \
    -- bash softroce/bench-channel.sh --in-guest || rc=$?
echo "--- host: load after $(cut -d' ' -f1-3 /proc/loadavg)"
exit $rc
