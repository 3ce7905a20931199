#!/bin/bash
# ibex send-lat/send-bw against perftest's ib_send_lat/ib_send_bw, in ONE Soft-RoCE guest boot with
# multi-threaded TCG (single-threaded TCG runs the vCPUs in turns: a busy-polled round trip takes ~4 ms) and
# the TSC as the guest's clock source (System.nanoTime ~0.25 us a call instead of 1-2 us with HPET).
# Each round runs, in alternating order, ib_send_lat and ibex send-lat (RC SEND ping-pong), then ib_send_bw,
# ib_send_bw --post_list N and ibex send-bw --post-list N (RC SEND stream), with the same size, iteration count
# and depths; it prints every round and the ratios. A JVM that crashes is counted and its pair rerun, at most
# BENCH_RERUNS times (softroce/bench-lib.bash); any other failure fails the run. softroce/bench-compare.sh runs
# the same beside the WRITE tests and the sample channel, at several sizes, into CSV and JMH JSON files.
# usage: softroce/bench-send.sh [-n]
#   -n  skip the Maven build (reuse target/ from a previous build)
# environment: BENCH_ROUNDS (5), BENCH_SIZE (64), BENCH_LAT_ITERS (5000), BENCH_BW_ITERS (20000),
#   BENCH_POST_LIST (16), BENCH_RERUNS (3), BENCH_PAIR_TIMEOUT (seconds per side of a pair, 300),
#   SOFTROCE_TIMEOUT (the whole guest run, 5400)
# exit code: 0 when every pair ran; 1 when a pair failed or kept crashing; the guest harness's 124/125.
set -euo pipefail
cd "$(dirname "$0")/.."

. softroce/bench-lib.bash
bench_build "${1:-}"
mkdir -p target/bench-send
bench_guest "${SOFTROCE_TIMEOUT:-5400}" -e BENCH_ROUNDS -e BENCH_SIZE -e BENCH_LAT_ITERS -e BENCH_BW_ITERS \
    -e BENCH_POST_LIST -- bash softroce/bench-send-guest.sh target/bench-send
