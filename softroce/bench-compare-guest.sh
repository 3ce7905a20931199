#!/bin/bash
# Inside the Soft-RoCE guest: the second half of softroce/bench-compare.sh (read its header). $1 is the output
# folder, $2 the mode (full or quick).
set -u
out=${1:?usage: bench-compare-guest.sh OUT-DIR full|quick (run by softroce/bench-compare.sh)}
mode=${2:?usage: bench-compare-guest.sh OUT-DIR full|quick}
. softroce/bench-lib.bash

# pick FULL QUICK: the default of a setting in this mode.
pick() { if [ "$mode" = quick ]; then echo "$2"; else echo "$1"; fi; }
sizes=${BENCH_SIZES:-$(pick "64 256 1024 4096" "64")}
rounds=${BENCH_ROUNDS:-$(pick 3 1)}
lat_iters=${BENCH_LAT_ITERS:-$(pick 5000 2000)}
bw_iters=${BENCH_BW_ITERS:-$(pick 20000 10000)}
post_list=${BENCH_POST_LIST:-16}
# At least 20000: under emulation the JIT needs seconds, and the warm-up ends at 10 x this at the latest.
warmup=${BENCH_WARMUP:-20000}
values_list=${BENCH_VALUES:-$(pick "1 5 8 64" "5")}
jmh_rounds=${BENCH_JMH_ROUNDS:-$(pick 2 1)}
jmh_time=${BENCH_TIME:-$(pick 2s 1s)}
jmh_iterations=(-wi "${BENCH_WI:-$(pick 6 2)}" -w "$jmh_time" -i "${BENCH_I:-$(pick 4 2)}" -r "$jmh_time")
# The profiles' cases: the targets' sizes, 64 B and samples of 5 values (64 B on the wire).
profile_bytes=64
profile_values=5
profile_rounds=${BENCH_PROFILE_ROUNDS:-$(pick 20 5)}
thrpt_cases=${BENCH_THRPT_CASES:-$(pick "vectorize=1 inline=true values=8;vectorize=1 inline=false values=8;\
vectorize=8 inline=true values=8;vectorize=8 inline=false values=8;vectorize=32 inline=true values=8;\
vectorize=32 inline=false values=8;vectorize=8 inline=false values=1;vectorize=8 inline=false values=64" \
"vectorize=8 inline=true values=8")}

bench_init "$out/runs"
mkdir -p "$bench_runs/jmh" "$out/profiles"
csv=$out/perftest.csv
echo "tool,test,bytes,round,iterations,t_min_us,t_typical_us,t_avg_us,t_max_us,p99_us,p999_us,bw_avg_MBps,msg_rate_Mpps" \
    > "$csv"
ibex="$IBEX_JAVA -jar $PWD/rdma-samples/target/ibex.jar"

{
    echo "guest: $(bench_facts | paste -sd ';' | sed 's/;/; /g')"
    echo "guest device: $SOFTROCE_DEV at $SOFTROCE_IP"
    echo "perftest and ibex: -d $SOFTROCE_DEV -x 1; sizes $sizes; $rounds rounds; latency -n $lat_iters;" \
        "bandwidth -n $bw_iters with a post list of $post_list for both tools; ibex --warmup $warmup"
    echo "ibex: $ibex (no JVM tuning: default G1 and tiered JIT)"
    echo "JMH: -f 0 (one JVM per case), ${jmh_iterations[*]}, -prof gc; round trip values $values_list," \
        "$jmh_rounds rounds; throughput cases: $thrpt_cases"
    echo "profiles (JFR thread samples): ibex clients at $profile_bytes B in round 1, --jfr --jfr-rounds" \
        "$profile_rounds (rounds of the measured iterations after the measured loop, in the same JVMs); the" \
        "channel's round trip at $profile_values values after the measured runs," \
        "-prof io.ibex.benchmarks.ThreadSamplesProfiler"
} >> "$out/machine.txt"
cat "$out/machine.txt"

# row TOOL TEST SIZE ROUND: the CSV row of the client output in $bench_result, if the pair ran.
row()
{
    local line
    [ -n "$bench_result" ] || return 0
    line=$(bench_result_line "$bench_result")
    case $2 in
        # bytes iterations t_min t_max t_typical t_avg t_stdev 99% 99.9%
        *_lat) awk -v p="$1,$2,$3,$4" '{ print p "," $2 "," $3 "," $5 "," $6 "," $4 "," $8 "," $9 ",," }' \
            <<< "$line" >> "$csv" ;;
        # bytes iterations peak average msg-rate
        *_bw) awk -v p="$1,$2,$3,$4" '{ print p "," $2 ",,,,,,," $4 "," $5 }' <<< "$line" >> "$csv" ;;
    esac
}

# args TOOL TEST SIZE ITERS: the arguments of both sides of a pair of that tool.
args()
{
    local tool=$1 test=$2 size=$3 iters=$4 verb=${2%_*} kind=${2#*_} args
    args="-d $SOFTROCE_DEV -x 1 -s $size -n $iters"
    if [ "$tool" = perftest ]; then
        [ "$kind" = bw ] && args+=" --post_list $post_list"
        echo "$args"
    else
        [ "$kind" = bw ] && args+=" --post-list $post_list"
        # a client JVM that starts slowly (a loaded host under emulation: over a minute) still meets its server
        echo "$verb-$kind --provider disni $args --warmup $warmup --timeout-ms 240000"
    fi
}

# iters TEST: the iterations of the test's measured runs.
iters() { if [ "${1#*_}" = lat ]; then echo "$lat_iters"; else echo "$bw_iters"; fi; }

# one TEST SIZE ROUND TOOL: one pair of that tool. ibex's first round at the profiles' size also records the
# profile: after its measured loop and results, the client runs the loop $profile_rounds times more under JFR
# (--jfr, --jfr-rounds; the server follows), in the same warm JVMs, so the measured figures are not slowed by it.
one()
{
    local test=$1 size=$2 round=$3 tool=$4 args profile=
    args=$(args "$tool" "$test" "$size" "$(iters "$test")")
    if [ "$tool" = perftest ]; then
        bench_pair "r$round-ib_$test-$size" c "ib_$test $args" "ib_$test $args"
    else
        if [ "$round" = 1 ] && [ "$size" = "$profile_bytes" ]; then
            profile=" --jfr $out/profiles/${test/_/-}.jfr --jfr-rounds $profile_rounds"
        fi
        bench_pair "r$round-ibex-${test/_/-}-$size" java "$ibex $args" "$ibex $args$profile"
    fi
    row "$tool" "$test" "$size" "$round"
}

start=$SECONDS
for round in $(seq 1 "$rounds")
do
    for size in $sizes
    do
        echo "--- round $round, $size bytes ($((SECONDS - start)) s, load $(cut -d' ' -f1-3 /proc/loadavg))"
        for test in send_lat write_lat send_bw write_bw
        do
            if [ $((round % 2)) = 1 ]; then
                one $test "$size" "$round" perftest
                one $test "$size" "$round" ibex
            else
                one $test "$size" "$round" ibex
                one $test "$size" "$round" perftest
            fi
        done
    done
done
{ column -s, -t < "$csv" 2>/dev/null || cat "$csv"; } | sed "s/^/    /"

# jmh KIND NAME JMH-ARGS...: one case, its JSON in runs/jmh/KIND-NAME.json; a failure is counted.
jmh()
{
    local kind=$1 name=$2
    shift 2
    bench_jmh "$kind-$name" "$@" "${jmh_iterations[@]}" -prof gc -rf json -rff "$bench_runs/jmh/$kind-$name.json" \
        || true
}

echo "--- sample channel, round trip ($((SECONDS - start)) s)"
for values in $values_list
do
    for round in $(seq 1 "$jmh_rounds")
    do
        # verbs and channel alternate: each ratio compares two neighbouring JVMs of one boot
        for path in verbs channel
        do
            jmh round-trip "$values-r$round-$path" ChannelRoundTripBenchmark -bm sample -p values="$values" \
                -p path="$path"
        done
    done
done
echo "--- sample channel, throughput ($((SECONDS - start)) s)"
IFS=';' read -r -a cases <<< "$thrpt_cases"
for case in "${cases[@]}"
do
    params=()
    for param in $case
    do
        params+=(-p "$param")
    done
    jmh throughput "$(tr ' =' '-_' <<< "$case")" ChannelThroughputBenchmark "${params[@]}"
done

# The channel's profile: its round trip once more after the measured runs (a recording perturbs what it records),
# under JFR from the first measured iteration on (io.ibex.benchmarks.ThreadSamplesProfiler), into profiles/.
echo "--- profile of the channel's round trip ($((SECONDS - start)) s)"
bench_jmh "profile-channel-round-trip-$profile_values" ChannelRoundTripBenchmark -bm sample \
    -p values="$profile_values" -p path=channel "${jmh_iterations[@]}" \
    -prof "io.ibex.benchmarks.ThreadSamplesProfiler:file=$out/profiles/channel-round-trip-$profile_values.jfr" || true

echo "--- $((SECONDS - start)) s; JVM crashes (rerun): $bench_crashes; failed runs: $bench_failures;" \
    "every output is in $bench_runs"
[ "$bench_failures" = 0 ]
