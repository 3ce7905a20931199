#!/bin/bash
# Inside the Soft-RoCE guest: the second half of softroce/bench-send.sh (read its header). $1 is the folder
# (in the checkout) where every output of every run is kept.
set -u
out=${1:?usage: bench-send-guest.sh OUT-DIR (run by softroce/bench-send.sh)}
: "${SOFTROCE_DEV:?not inside the Soft-RoCE guest}"

rounds=${BENCH_ROUNDS:-5}
size=${BENCH_SIZE:-64}
lat_iters=${BENCH_LAT_ITERS:-5000}
bw_iters=${BENCH_BW_ITERS:-20000}
post_list=${BENCH_POST_LIST:-16}
reruns=${BENCH_RERUNS:-3}
pair_timeout=${BENCH_PAIR_TIMEOUT:-300}
runs=$out/runs
rm -rf "$runs" && mkdir -p "$runs"

java_cmd="java --add-exports java.base/sun.nio.ch=ALL-UNNAMED -Djava.library.path=$PWD/rdma-core-api/target/native"
java_cmd+=" -XX:ErrorFile=$runs/hs_err_pid%p.log -jar $PWD/rdma-samples/target/ibex.jar"
common="-d $SOFTROCE_DEV -x 1 -s $size"
lat_args="$common -n $lat_iters"
bw_args="$common -n $bw_iters"
port=18515
crashes=0
failures=0

echo "--- guest facts"
echo "kernel $(uname -r), $(nproc) vCPUs, clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
echo "$(dpkg-query -W -f '${Package} ${Version}' rdma-core), $(dpkg-query -W -f '${Package} ${Version}' perftest)"
echo "$(java -version 2>&1 | head -2 | tr '\n' ' ')"
echo "sizes: $size bytes; latency -n $lat_iters; bandwidth -n $bw_iters, post list $post_list; $rounds rounds"

# Whether something listens on TCP port $1.
listening() { ss -Hltn "sport = :$1" | grep -q .; }

# A JVM crashed when it left an hs_err file or ended by a signal (exit code above 128; timeout's own 124 and
# its KILL, 137, are timeouts, not crashes).
crashed()
{
    local rc
    for rc in "$@"
    do
        if [ "$rc" -gt 128 ] && [ "$rc" != 137 ]; then return 0; fi
    done
    compgen -G "$runs/hs_err_pid*.log" > /dev/null
}

# run NAME JAVA? "SERVER ARGS" "CLIENT ARGS": one server/client pair on a port of its own; JVM pairs that
# crash are rerun up to $reruns times. Sets $result to the client's output file, or empty on failure.
run()
{
    local name=$1 is_java=$2 server=$3 client=$4 attempt server_pid server_rc client_rc waited log
    result=
    for attempt in $(seq 0 "$reruns")
    do
        port=$((port + 1))
        log=$runs/$name.$port
        server_rc=0 client_rc=0 waited=0
        timeout -k 5 "$pair_timeout" $server -p $port > "$log.server" 2>&1 &
        server_pid=$!
        until listening $port
        do
            if ! kill -0 $server_pid 2>/dev/null || [ $waited -ge 900 ]; then break; fi
            sleep 0.1
            waited=$((waited + 1))
        done
        if listening $port; then
            timeout -k 5 "$pair_timeout" $client -p $port "$SOFTROCE_IP" > "$log.client" 2>&1 || client_rc=$?
        else
            echo "server never listened on port $port" > "$log.client"
            client_rc=1
        fi
        [ $client_rc = 0 ] || kill $server_pid 2>/dev/null
        wait $server_pid || server_rc=$?
        if [ "$is_java" = java ] && crashed $server_rc $client_rc; then
            crashes=$((crashes + 1))
            echo "    CRASH: $name attempt $attempt (server rc $server_rc, client rc $client_rc):" \
                "$(ls "$runs"/hs_err_pid*.log 2>/dev/null | xargs -r -n1 basename | tr '\n' ' ')"
            grep -h "^# Problematic frame" -A1 "$runs"/hs_err_pid*.log 2>/dev/null | sed 's/^/      /'
            mkdir -p "$runs/crashes" && mv "$runs"/hs_err_pid*.log "$runs/crashes/" 2>/dev/null
            continue
        fi
        if [ $server_rc != 0 ] || [ $client_rc != 0 ]; then
            failures=$((failures + 1))
            echo "    FAIL: $name (server rc $server_rc, client rc $client_rc); outputs in $log.*"
            tail -3 "$log.server" "$log.client" | sed 's/^/      /'
            return
        fi
        result=$log.client
        return
    done
    failures=$((failures + 1))
    echo "    FAIL: $name crashed $((reruns + 1)) times"
}

# The field of the result line (the line after perftest's header line that starts with " #bytes").
field() { [ -n "$1" ] && awk -v f="$2" 'found { print $f; exit } /^ #bytes/ { found = 1 }' "$1"; }
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
echo "--- JVM crashes (pairs rerun): $crashes; failed pairs: $failures; every output is in $runs"
[ $failures = 0 ]
