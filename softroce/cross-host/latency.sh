#!/bin/bash
# Across the wire, the figures of docs/benchmarks.md ("Across a wire"): half round trips of 64-byte SENDs, perftest's
# ib_send_lat against itself and `ibex send-lat` against itself (server in guest b, client in guest a), in turns for
# $LATENCY_ROUNDS rounds of $LATENCY_ITERS iterations; prints each run's t_typical (perftest's median) and the
# medians over the rounds. Not in test-cross-host.sh's default list; run it with
#   CROSS_HOST_SCRIPTS=softroce/cross-host/latency.sh softroce/test-cross-host.sh -n
set -u
. "$(dirname "$0")/../interop/lib.bash"

readonly ROUNDS=${LATENCY_ROUNDS:-3} ITERS=${LATENCY_ITERS:-2000}
args="-d $SOFTROCE_DEV -x 1 -s 64 -n $ITERS"
port=18900

# The client's t_typical in µs: the fifth field of perftest's result line.
typical() { perftest_result "$CLIENT_LOG" | awk '{ print $5 }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# run TOOL: one run of TOOL (ib_send_lat or ibex) across the wire; appends its t_typical to $TOOL.typical.
run()
{
    local command=$([ "$1" = ibex ] && echo "$IBEX send-lat --provider disni" || echo ib_send_lat)
    port=$((port + 1))
    pair "latency: $1, round $round" tcp $port "$command $args -p $port" "$command $args -p $port $SERVER_IP" &&
        [ "$role" = a ] && typical | tee -a "$interop_local/$1.typical" | sed "s/^/latency: $1 t_typical (µs): /"
}

for round in $(seq "$ROUNDS"); do
    if [ $((round % 2)) = 1 ]; then run ib_send_lat; run ibex; else run ibex; run ib_send_lat; fi
done
if [ "$role" = a ]; then
    c=$(median < "$interop_local/ib_send_lat.typical") ibex=$(median < "$interop_local/ibex.typical")
    echo "latency: over $ROUNDS rounds of $ITERS, 64 B: ib_send_lat $c µs, ibex send-lat $ibex µs," \
        "ratio $(awk -v a="$ibex" -v b="$c" 'BEGIN { printf "%.2f", a / b }')"
fi

finish
