#!/bin/bash
# What one verbs call costs through ibex (io.ibex.benchmarks.VerbsCallCost, disni provider) against the same
# call through libibverbs (benchmarks/src/main/c/verbs_call_cost.c), in ONE Soft-RoCE guest boot with the
# settings of softroce/bench-send.sh (multi-threaded TCG, the TSC as clock source). Each round runs C and Java
# in alternating order; a JVM that crashes (multi-threaded TCG: see docs/benchmarks.md) is rerun, at most
# twice. Prints each run's line: empty poll, poll returning one completion (with its two clock reads), post one
# receive, clock read, post a list of 16 SENDs (on rxe the kernel does the transfer inside that call).
# usage: softroce/bench-calls.sh [-n]
#   -n  skip the Maven build (reuse target/ from a previous build)
# environment: BENCH_ROUNDS (3), BENCH_CYCLES (2000; the first half warms up), SOFTROCE_TIMEOUT (1800)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = --in-guest ]; then
    : "${SOFTROCE_DEV:?not inside the Soft-RoCE guest}"
    cycles=${BENCH_CYCLES:-2000}
    out=target/bench-calls
    java_cmd=(java -Dibex.native.library="$PWD/rdma-core-api/target/native/libdisni.so"
        -XX:ErrorFile="$out/hs_err_pid%p.log" -cp benchmarks/target/benchmarks.jar io.ibex.benchmarks.VerbsCallCost
        disni "$SOFTROCE_DEV" 1 "$cycles")
    echo "--- guest: kernel $(uname -r), $(nproc) vCPUs," \
        "clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource), $cycles cycles a run"
    for r in $(seq 1 "${BENCH_ROUNDS:-3}")
    do
        for turn in 1 2
        do
            if [ $(( (r + turn) % 2 )) = 0 ]; then
                "$out/verbs_call_cost" "$SOFTROCE_DEV" 1 "$cycles"
                continue
            fi
            for attempt in 1 2 3
            do
                "${java_cmd[@]}" && break
                echo "    java run failed or crashed (attempt $attempt): $(ls "$out"/hs_err_pid*.log 2>/dev/null | tr '\n' ' ')"
                rm -f "$out"/hs_err_pid*.log
                [ "$attempt" = 3 ] && exit 1
            done
        done
    done
    exit 0
fi

if [ "${1:-}" != "-n" ]; then
    echo "--- host: mvn package (no tests)"
    mvn -q -B package -DskipTests
fi
[ -f rdma-core-api/target/native/libdisni.so ] && [ -f benchmarks/target/benchmarks.jar ] || {
    echo "bench-calls: build first (rdma-core-api/target/native/libdisni.so and benchmarks/target/benchmarks.jar)" >&2
    exit 1
}
mkdir -p target/bench-calls
gcc -O2 -Wall -Wextra -o target/bench-calls/verbs_call_cost benchmarks/src/main/c/verbs_call_cost.c -libverbs
echo "--- host: $(nproc) cores, $(uname -r), $(qemu-system-x86_64 --version | head -1), load $(cut -d' ' -f1-3 /proc/loadavg)"
SOFTROCE_TCG_THREAD=multi SOFTROCE_KERNEL_ARGS="clocksource=tsc tsc=reliable" \
    softroce/run-in-guest.sh -t "${SOFTROCE_TIMEOUT:-1800}" -e BENCH_ROUNDS -e BENCH_CYCLES \
    -- bash softroce/bench-calls.sh --in-guest
