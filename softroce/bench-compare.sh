#!/bin/bash
# ibex beside perftest and the sample channel on disni, in ONE Soft-RoCE guest boot with the settings of the other
# benchmark scripts (softroce/bench-lib.bash: multi-threaded TCG, the TSC as clock source), into files a report
# reads (benchmarks/compare.sh):
#   - perftest.csv: per size and round, in alternating order (perftest first in odd rounds), ib_send_lat and ibex
#     send-lat, ib_write_lat and ibex write-lat, ib_send_bw and ibex send-bw, ib_write_bw and ibex write-bw, with
#     the same size, iterations and depths (the bandwidth tests both with the same post list); one row per run,
#     from the client's result line (t_typical is perftest's median; latency rows leave the bandwidth fields
#     empty and bandwidth rows the latency fields);
#   - jmh-guest-channel-round-trip.json: ChannelRoundTripBenchmark (SampleTime, path verbs and channel
#     alternating, each case alone in one JVM, BENCH_JMH_ROUNDS times), -prof gc;
#   - jmh-guest-channel-throughput.json: ChannelThroughputBenchmark, one JVM per case of BENCH_THRPT_CASES,
#     -prof gc;
#   - profiles/: JFR recordings (thread samples, Java and native) of ibex's send-lat, write-lat, send-bw and
#     write-bw clients at 64 B (ibex --jfr --jfr-rounds BENCH_PROFILE_ROUNDS: in the first round's pairs, after the
#     measured loop and its results, rounds of the measured iterations in the same JVMs) and of the channel's round
#     trip with samples of 5 values (the measured iterations alone, in a run of its own after the measured ones);
#   - machine.txt: guest kernel, vCPUs, clock source, JDK, rdma-core and perftest, the date, the settings, the
#     host's load before and after;
#   - runs/: every output of every run, crashed JVMs' hs_err files in runs/crashes/.
# A JVM that crashes is rerun (at most BENCH_RERUNS times); any other failure fails the run, whose files then
# hold what did run.
# usage: softroce/bench-compare.sh [-n] [--quick] [OUT-DIR]
#   -n       skip the Maven build (reuse target/ from a previous build)
#   --quick  fewer sizes, rounds, iterations and JMH cases: ~6 minutes with the boot, against ~50
#   OUT-DIR  where the files go (default target/bench-compare; emptied first)
# environment (defaults full / quick): BENCH_SIZES ("64 256 1024 4096" / "64"), BENCH_ROUNDS (3 / 1),
#   BENCH_LAT_ITERS (5000 / 2000), BENCH_BW_ITERS (20000 / 10000), BENCH_POST_LIST (16), BENCH_WARMUP (ibex
#   --warmup, at least: 20000 in both), BENCH_VALUES ("1 5 8 64" / "5": 5 values are
#   64 B on the wire, the size of the issue's targets), BENCH_JMH_ROUNDS (2 / 1), BENCH_WI, BENCH_I,
#   BENCH_TIME (JMH warm-up and measured iterations and their time: 6, 4, 2s / 2, 2, 1s), BENCH_THRPT_CASES
#   (ChannelThroughputBenchmark cases separated by ";", each "name=value ..." JMH params: 8 values at vectorize
#   1, 8, 32 with inline true and false, and 1 and 64 values at vectorize 8 not inline / "vectorize=8 inline=true
#   values=8"), BENCH_RERUNS (3), BENCH_PAIR_TIMEOUT (300),
#   BENCH_PROFILE_ROUNDS (20 / 5), SOFTROCE_TIMEOUT (the whole guest run: 4500 / 900)
# exit code: 0 when every run ran; 1 when one failed or kept crashing; the guest harness's 124/125.
set -euo pipefail
cd "$(dirname "$0")/.."
. softroce/bench-lib.bash

build=
mode=full
out=target/bench-compare
for arg in "$@"
do
    case $arg in
        -n) build=-n ;;
        --quick) mode=quick ;;
        -*) echo "usage: softroce/bench-compare.sh [-n] [--quick] [OUT-DIR]" >&2; exit 2 ;;
        *) out=$arg ;;
    esac
done

bench_build $build
rm -rf "$out" && mkdir -p "$out"
out=$(cd "$out" && pwd)
shares=()
case $out/ in
    "$PWD"/*) ;;
    *) shares=(-w "$out") ;;
esac
{
    echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
    echo "host: $(nproc) cores, $(uname -r), $(qemu-system-x86_64 --version | head -1)"
    echo "host load before: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "guest: SOFTROCE_TCG_THREAD=multi, kernel args clocksource=tsc tsc=reliable, mode $mode"
} > "$out/machine.txt"
timeout=${SOFTROCE_TIMEOUT:-$([ $mode = quick ] && echo 900 || echo 4500)}
rc=0
bench_guest "$timeout" "${shares[@]}" -e BENCH_SIZES -e BENCH_ROUNDS -e BENCH_LAT_ITERS -e BENCH_BW_ITERS \
    -e BENCH_POST_LIST -e BENCH_WARMUP -e BENCH_VALUES -e BENCH_JMH_ROUNDS -e BENCH_WI -e BENCH_I -e BENCH_TIME \
    -e BENCH_THRPT_CASES -e BENCH_PROFILE_ROUNDS -- bash softroce/bench-compare-guest.sh "$out" "$mode" || rc=$?
echo "host load after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"

# Each JMH case wrote a JSON array of its own (none, or an empty file, when its JVM failed): one array per
# benchmark, its cases in the order of their names.
for kind in round-trip throughput
do
    files=()
    for file in "$out"/runs/jmh/$kind-*.json
    do
        if jq -e 'type == "array"' "$file" > /dev/null 2>&1; then files+=("$file"); fi
    done
    jq -n '[inputs] | add // []' "${files[@]}" < /dev/null > "$out/jmh-guest-channel-$kind.json"
done
echo "--- $out: $(($(wc -l < "$out/perftest.csv" 2>/dev/null || echo 1) - 1)) perftest.csv rows," \
    "$(jq length "$out/jmh-guest-channel-round-trip.json") round-trip and" \
    "$(jq length "$out/jmh-guest-channel-throughput.json") throughput JMH results"
exit $rc
