#!/bin/bash
# Real verbs: `ibex send-lat` and `ibex send-bw` on the disni provider over rxe0, each against itself (their
# address exchange is ibv_rc_pingpong's, not perftest's, so they do not pair with ib_send_lat/ib_send_bw; run by
# softroce/real-verbs-guest.sh inside the Soft-RoCE guest, see lib.bash). Small counts: under single-threaded
# TCG a round trip takes milliseconds; softroce/bench-send.sh measures them beside perftest. The checks read
# perftest's result line of both sides, and the address lines.
set -u
. "$(dirname "$0")/lib.bash"

common="-d $SOFTROCE_DEV -x 1 -s 64 --warmup 20"

address() { sed -n "s/^ $1 address: //p" "$2"; }

check_both()
{
    local iters=$1 log
    for log in "$SERVER_LOG" "$CLIENT_LOG"
    do
        check "$(basename "$log" .log): 64 bytes, $iters iterations" \
            awk -v n="$iters" '{ exit !($1 == 64 && $2 == n) }' <<< "$(perftest_result "$log")"
    done
    check "the server learnt the client's address" test -n "$(address local "$CLIENT_LOG")" -a \
        "$(address remote "$SERVER_LOG")" = "$(address local "$CLIENT_LOG")"
}

pair "send-lat: ibex server, ibex client" tcp 18620 \
    "$IBEX send-lat $common -n 50 -p 18620" \
    "$IBEX send-lat $common -n 50 -p 18620 $SERVER_IP" && {
    check_both 50
    check "client: t_min <= t_typical <= t_max" awk '{ exit !($3 > 0 && $3 <= $5 && $5 <= $4) }' <<< \
        "$(perftest_result "$CLIENT_LOG")"
}

pair "send-bw --post-list 4: ibex server, ibex client" tcp 18621 \
    "$IBEX send-bw $common -n 200 --post-list 4 -p 18621" \
    "$IBEX send-bw $common -n 200 --post-list 4 -p 18621 $SERVER_IP" && {
    check_both 200
    check "client: a message rate" awk '{ exit !($5 > 0) }' <<< "$(perftest_result "$CLIENT_LOG")"
}

finish
