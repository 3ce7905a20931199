#!/bin/bash
# ibex send-lat/send-bw against perftest's ib_send_lat/ib_send_bw, in ONE Soft-RoCE guest boot with
# multi-threaded TCG (single-threaded TCG runs the vCPUs in turns: a busy-polled round trip takes ~4 ms) and
# the TSC as the guest's clock source (System.nanoTime ~0.25 us a call instead of 1-2 us with HPET).
# Each round runs, in alternating order, ib_send_lat and ibex send-lat (RC SEND ping-pong), then ib_send_bw,
# ib_send_bw --post_list N and ibex send-bw --post-list N (RC SEND stream), with the same size, iteration count
# and depths; it prints every round and the ratios. A JVM that crashes (multi-threaded TCG crashes about one
# JVM launch in six: see the notes in docs/benchmarks.md) is detected (hs_err file, exit by signal), counted
# and its pair rerun, at most BENCH_RERUNS times; any other failure fails the run.
# usage: softroce/bench-send.sh [-n]
#   -n  skip the Maven build (reuse target/ from a previous build)
# environment: BENCH_ROUNDS (5), BENCH_SIZE (64), BENCH_LAT_ITERS (5000), BENCH_BW_ITERS (20000),
#   BENCH_POST_LIST (16), BENCH_RERUNS (3), BENCH_PAIR_TIMEOUT (seconds per side of a pair, 300),
#   SOFTROCE_TIMEOUT (the whole guest run, 5400)
# exit code: 0 when every pair ran; 1 when a pair failed or kept crashing; the guest harness's 124/125.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" != "-n" ]; then
    echo "--- host: mvn package (no tests)"
    mvn -q -B package -DskipTests
fi
[ -f rdma-core-api/target/native/libdisni.so ] && [ -f rdma-samples/target/ibex.jar ] || {
    echo "bench-send: build first (rdma-core-api/target/native/libdisni.so and rdma-samples/target/ibex.jar)" >&2
    exit 1
}
mkdir -p target/bench-send
echo "--- host: $(nproc) cores, $(uname -r), $(qemu-system-x86_64 --version | head -1)"
echo "--- host load before: $(uptime)"
rc=0
SOFTROCE_TCG_THREAD=multi SOFTROCE_KERNEL_ARGS="clocksource=tsc tsc=reliable" \
    softroce/run-in-guest.sh -t "${SOFTROCE_TIMEOUT:-5400}" -e BENCH_ROUNDS -e BENCH_SIZE -e BENCH_LAT_ITERS \
    -e BENCH_BW_ITERS -e BENCH_POST_LIST -e BENCH_RERUNS -e BENCH_PAIR_TIMEOUT \
    -- bash softroce/bench-send-guest.sh target/bench-send || rc=$?
echo "--- host load after: $(uptime)"
exit $rc
