#!/bin/bash
# Issue 6's comparison in one command: builds once, runs the host's JMH benchmarks (PingPongBenchmark and
# StreamBenchmark: java.nio TCP, Aeron UDP and IPC, the soft provider; ChannelRoundTripBenchmark and
# ChannelThroughputBenchmark: the sample channel on the soft provider) with -prof gc into target/compare/
# (jmh-host-*.json), then the Soft-RoCE guest's side (softroce/bench-compare.sh: perftest beside ibex, the
# channel on disni, into target/compare/guest/), then rewrites the generated section of docs/benchmarks.md and
# docs/plots/ from those files (io.ibex.benchmarks.report.CompareReport). Each side also records a JFR profile of
# each ibex case a target is about where no figure comes from (profiles/, guest/profiles/: the sample channel in a
# run of its own after the measured ones, the guest's verbs-level clients in rounds after their measured loop):
# the report shows what dominates where a target is missed.
# Issue 8's cases run on the host too: the sample channel to a second JVM over the soft provider's shared-memory
# link, round trip and stream, and RDMA WRITEs to it (direct copies), beside Aeron IPC in the same run; they warm
# up for 10 iterations of 2 s in both modes.
#   full:    every size (32 64 88 256 536 1024 4096 B; samples of 1, 8, 64 values are 32, 88, 536 B on the
#            wire), the benchmarks' own forks, warm-up and iterations (-f 1 -wi 3 -w 2s -i 5 -r 2s), round trips
#            in SampleTime and AverageTime; about 35 minutes on the host, then the guest's full run.
#   --quick: 64, 88 and 1024 B for every transport (nio also at 32 and 536 B, for the host target at each
#            sample size), -f 1 -wi 1 -w 1s -i 2 -r 1s, round trips in SampleTime only; ~4 minutes on the host,
#            under 10 minutes with the guest.
# JMH refuses to run
# beside another JMH (its lock, /tmp/jmh.lock): wait for it rather than measure two at once on two cores.
# usage: benchmarks/compare.sh [--quick] [-n] [--host-only | --guest-only]
#   -n           skip the Maven build (reuse target/ from a previous build)
#   --host-only  leave the guest out (a machine without qemu); the report says "not run" for its part
#   --guest-only run the guest's side only, beside the host's files a previous run left in target/compare (e.g.
#                a quick host run, then a full guest run: --quick --host-only, then --guest-only)
set -euo pipefail
cd "$(dirname "$0")/.."

quick=0 build=1 guest=1 host=1
for arg in "$@"
do
    case $arg in
        --quick) quick=1 ;;
        -n) build=0 ;;
        --host-only) guest=0 ;;
        --guest-only) host=0 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "compare.sh: unknown argument $arg (usage: benchmarks/compare.sh [--quick] [-n]" \
               "[--host-only | --guest-only])" >&2
           exit 2 ;;
    esac
done
if [ "$guest" = 0 ] && [ "$host" = 0 ]; then
    echo "compare.sh: --host-only and --guest-only leave nothing to run" >&2
    exit 2
fi

out=target/compare
jar=benchmarks/target/benchmarks.jar
started=$(date +%s)
if [ "$build" = 1 ]; then
    echo "--- mvn -q -B package -DskipTests"
    mvn -q -B package -DskipTests
fi
[ -f "$jar" ] || { echo "compare.sh: $jar is missing: build first (without -n)" >&2; exit 1; }
if [ "$host" = 1 ]; then
    rm -rf "$out" && mkdir -p "$out"
elif [ ! -f "$out/machine-host.txt" ]; then
    echo "compare.sh: --guest-only reports beside a previous host run, but $out/machine-host.txt is missing" >&2
    exit 1
fi

# The two-JVM cases warm up for 20 s: two JVMs busy-polling on two cores leave their JIT compilers little CPU, and the
# stream takes that long to reach its steady rate (docs/benchmarks.md, "Warm-up, and the targets in steady state").
if [ "$quick" = 1 ]; then
    mode=quick
    jmh=(-f 1 -wi 1 -w 1s -i 2 -r 1s)
    two_jvm=(-f 1 -wi 10 -w 2s -i 2 -r 1s)
    latency_modes=(-bm sample)
    sizes=64,88,1024
    nio_sizes=32,536
else
    mode=full
    jmh=(-f 1 -wi 3 -w 2s -i 5 -r 2s)
    two_jvm=(-f 1 -wi 10 -w 2s -i 5 -r 2s)
    latency_modes=()
    sizes=32,64,88,256,536,1024,4096
    nio_sizes=
fi

# jmh NAME BENCHMARK [JMH ARGS...]: one JMH run into $out/jmh-host-NAME.json; its output into NAME.log.
jmh()
{
    jmh_iterations jmh "$@"
}

# jmh_iterations ARRAY NAME BENCHMARK [JMH ARGS...]: jmh, with the forks, warm-up and iterations in the array ARRAY.
jmh_iterations()
{
    local -n iterations=$1
    local name=$2 benchmark=$3
    shift 3
    echo "--- $name: $benchmark $* ${iterations[*]} -prof gc"
    if ! java -jar "$jar" "^io\.ibex\.benchmarks\.$benchmark\." "$@" "${iterations[@]}" -prof gc -foe true \
        -rf json -rff "$out/jmh-host-$name.json" > "$out/$name.log" 2>&1; then
        echo "compare.sh: $name failed; the end of $out/$name.log:" >&2
        tail -n 20 "$out/$name.log" >&2
        exit 1
    fi
    sed -n '/^Benchmark /,/^$/p' "$out/$name.log" | grep -v ':gc\.\|:p0\.' || true
}

if [ "$host" = 1 ]; then
    {
        echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
        echo "run: $mode ($0 $*)"
        echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null ||
            echo ' (with uncommitted changes)')"
        echo "cores: $(nproc)"
        echo "cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
        echo "kernel: $(uname -sr)"
        echo "jdk: $(java -version 2>&1 | sed -n 2p)"
        echo "jvm flags: $(java -XX:+PrintCommandLineFlags -version 2>&1 | head -1)"
        echo "jmh arguments: ${jmh[*]} -prof gc (two-JVM cases: ${two_jvm[*]}); round trips" \
            "${latency_modes[*]:-in both modes}, sizes $sizes" \
            "${nio_sizes:+(nio also $nio_sizes)}"
        echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
    } > "$out/machine-host.txt"

    # Transports, providers and sample sizes are the benchmarks' own defaults (nio, soft, aeron-udp, aeron-ipc; values
    # 1, 8, 64); message sizes are this script's.
    jmh pingpong PingPongBenchmark -p size=$sizes "${latency_modes[@]}"
    if [ -n "$nio_sizes" ]; then
        jmh pingpong-nio PingPongBenchmark -p transport=nio -p size=$nio_sizes "${latency_modes[@]}"
    fi
    jmh channel-round-trip ChannelRoundTripBenchmark "${latency_modes[@]}"
    jmh stream StreamBenchmark -p size=$([ "$quick" = 1 ] && echo 64,1024 || echo "$sizes")
    # Throughput against vectorize (8 values), then against the sample's size (vectorize 8, not inline: 64 values,
    # 536 B, are more inline data than a QP takes, 256 B on soft).
    jmh channel-throughput ChannelThroughputBenchmark -p vectorize=1,8,32 -p inline=true,false -p values=8
    jmh channel-throughput-values ChannelThroughputBenchmark -p vectorize=8 -p inline=false -p values=1,64
    # Issue 8's cases: the other side in a second JVM of this host, over the soft provider's shared-memory link,
    # beside the one-JVM Aeron IPC of the ping-pong run above: the sample channel, and RDMA WRITEs (direct copies).
    jmh_iterations two_jvm two-jvm-round-trip ChannelRoundTripBenchmark -p path=channel-shm-2jvm -p values=5 \
        "${latency_modes[@]}"
    jmh_iterations two_jvm two-jvm-write PingPongBenchmark -p transport=soft-shm-write-2jvm -p size=64 \
        "${latency_modes[@]}"
    jmh_iterations two_jvm two-jvm-throughput ChannelThroughputBenchmark -p reader=shm-2jvm -p vectorize=32 \
        -p inline=true -p values=8
    # The profiles the report shows where a target is missed: each case a host target is about, once more after the
    # measured runs (a recording perturbs what it records), under JFR's thread samples from the first measured
    # iteration on (io.ibex.benchmarks.ThreadSamplesProfiler), into $out/profiles/.
    mkdir -p "$out/profiles"
    for values in 1 8 64
    do
        name=channel-round-trip-$values
        echo "--- profile $name: ChannelRoundTripBenchmark values=$values path=channel ${jmh[*]}"
        if ! java -jar "$jar" '^io\.ibex\.benchmarks\.ChannelRoundTripBenchmark\.' -p values=$values -p path=channel \
            -bm sample "${jmh[@]}" -foe true \
            -prof "io.ibex.benchmarks.ThreadSamplesProfiler:file=$out/profiles/$name.jfr" \
            > "$out/profile-$name.log" 2>&1; then
            echo "compare.sh: the profile $name failed; the end of $out/profile-$name.log:" >&2
            tail -n 20 "$out/profile-$name.log" >&2
            exit 1
        fi
    done
    echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine-host.txt"
    echo "--- host: $(( $(date +%s) - started )) s so far"
fi

status=0
if [ "$guest" = 1 ]; then
    echo "--- softroce/bench-compare.sh -n $([ "$quick" = 1 ] && echo --quick) $out/guest"
    # A failed guest run still leaves what it measured: the report shows that, and "not run" for the rest.
    softroce/bench-compare.sh -n $([ "$quick" = 1 ] && echo --quick) "$out/guest" || status=$?
    [ "$status" = 0 ] || echo "compare.sh: the guest's run failed (exit code $status); reporting what it left" >&2
fi

echo "--- the report: docs/benchmarks.md and docs/plots/"
java -cp "$jar" io.ibex.benchmarks.report.CompareReport "$out" docs
echo "--- done in $(( $(date +%s) - started )) s"
exit "$status"
