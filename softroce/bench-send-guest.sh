#!/bin/bash
# Inside the Soft-RoCE guest: the second half of softroce/bench-send.sh (read its header). $1 is the folder
# (in the checkout) where every output of every run is kept.
set -u
out=${1:?usage: bench-send-guest.sh OUT-DIR (run by softroce/bench-send.sh)}
: "${SOFTROCE_DEV:?not inside the Soft-RoCE guest}"

. softroce/bench-lib.bash
rounds=${BENCH_ROUNDS:-5}
size=${BENCH_SIZE:-64}
lat_iters=${BENCH_LAT_ITERS:-5000}
bw_iters=${BENCH_BW_ITERS:-20000}
post_list=${BENCH_POST_LIST:-16}
bench_init "$out/runs"

java_cmd="$IBEX_JAVA -jar $PWD/rdma-samples/target/ibex.jar"
common="-d $SOFTROCE_DEV -x 1 -s $size"
lat_args="$common -n $lat_iters"
bw_args="$common -n $bw_iters"

echo "--- guest facts"
bench_facts
echo "sizes: $size bytes; latency -n $lat_iters; bandwidth -n $bw_iters, post list $post_list; $rounds rounds"

# run NAME JAVA? "SERVER ARGS" "CLIENT ARGS": bench_pair; sets $result to the client's output file, or empty.
run() { bench_pair "$@"; result=$bench_result; }
field() { bench_field "$@"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print "-"; else printf "%.2f", a / b }'; }
median() { tr ' ' '\n' | grep -v '^-\?$' | sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

lat_table=()
bw_table=()
lat_ratios= bw_ratios= bw_list_ratios=
for r in $(seq 1 "$rounds")
do
    echo "--- round $r (load $(cut -d' ' -f1-3 /proc/loadavg))"
    ibex_lat= c_lat= ibex_bw= c_bw= c_bw_list=
    for turn in 1 2
    do
        if [ $(( (r + turn) % 2 )) = 0 ]; then
            run "r$r-ib_send_lat" c "ib_send_lat $lat_args" "ib_send_lat $lat_args"
            c_lat=$result
        else
            run "r$r-ibex-send-lat" java "$java_cmd send-lat --provider disni $lat_args" \
                "$java_cmd send-lat --provider disni $lat_args"
            ibex_lat=$result
        fi
    done
    for turn in 1 2
    do
        if [ $(( (r + turn) % 2 )) = 0 ]; then
            run "r$r-ib_send_bw" c "ib_send_bw $bw_args" "ib_send_bw $bw_args"
            c_bw=$result
            run "r$r-ib_send_bw-l$post_list" c "ib_send_bw $bw_args --post_list $post_list" \
                "ib_send_bw $bw_args --post_list $post_list"
            c_bw_list=$result
        else
            run "r$r-ibex-send-bw-l$post_list" java "$java_cmd send-bw --provider disni $bw_args --post-list $post_list" \
                "$java_cmd send-bw --provider disni $bw_args --post-list $post_list"
            ibex_bw=$result
        fi
    done
    c_typ=$(field "$c_lat" 5) ibex_typ=$(field "$ibex_lat" 5)
    c_rate=$(field "$c_bw" 5) c_list_rate=$(field "$c_bw_list" 5) ibex_rate=$(field "$ibex_bw" 5)
    lat_ratios+=" $(ratio "$ibex_typ" "$c_typ")"
    bw_ratios+=" $(ratio "$ibex_rate" "$c_rate")"
    bw_list_ratios+=" $(ratio "$ibex_rate" "$c_list_rate")"
    lat_table+=("| $r | $c_typ | $(field "$c_lat" 6) | $(field "$c_lat" 8) | $ibex_typ | $(field "$ibex_lat" 6) |\
 $(field "$ibex_lat" 8) | **$(ratio "$ibex_typ" "$c_typ")** |")
    bw_table+=("| $r | $c_rate | $c_list_rate | $ibex_rate | **$(ratio "$ibex_rate" "$c_rate")** |\
 **$(ratio "$ibex_rate" "$c_list_rate")** |")
    [ -n "$ibex_lat" ] && grep -h "^ ibex:" "$ibex_lat" | sed 's/^/    send-lat client:/'
    [ -n "$ibex_bw" ] && grep -h "^ ibex:" "$ibex_bw" | sed 's/^/    send-bw client:/'
done

echo
echo "--- RC SEND latency, $size bytes, -n $lat_iters: half round trip in usec (client side)"
echo "| round | ib_send_lat t_typical | t_avg | 99% | ibex send-lat t_typical | t_avg | 99% | ratio ibex/perftest t_typical |"
echo "|---|---|---|---|---|---|---|---|"
printf '%s\n' "${lat_table[@]}"
echo "median ratio (t_typical): $(echo $lat_ratios | median)"
echo
echo "--- RC SEND message rate, $size bytes, -n $bw_iters: Mpps (client side)"
echo "| round | ib_send_bw | ib_send_bw --post_list $post_list | ibex send-bw --post-list $post_list | ratio ibex/ib_send_bw | ratio ibex/ib_send_bw --post_list $post_list |"
echo "|---|---|---|---|---|---|"
printf '%s\n' "${bw_table[@]}"
echo "median ratios: ibex/ib_send_bw $(echo $bw_ratios | median), ibex/ib_send_bw --post_list $post_list $(echo $bw_list_ratios | median)"
echo
echo "--- JVM crashes (pairs rerun): $bench_crashes; failed pairs: $bench_failures; every output is in $bench_runs"
[ $bench_failures = 0 ]
