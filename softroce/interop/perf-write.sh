#!/bin/bash
# Real verbs: `ibex write-lat` and `ibex write-bw` on the disni provider over rxe0, each against itself (their
# address exchange is ibv_rc_pingpong's, then their receive slots', not perftest's, so they do not pair with
# ib_write_lat/ib_write_bw; run by softroce/real-verbs-guest.sh inside the Soft-RoCE guest, see lib.bash). Small
# counts: under single-threaded TCG a round trip takes milliseconds; softroce/bench-compare.sh measures them beside
# perftest. The checks read perftest's result lines and the address lines (with the rkey and address of each
# side's receive slot, which the peer writes into).
set -u
. "$(dirname "$0")/lib.bash"

common="-d $SOFTROCE_DEV -x 1 --warmup 300"

address() { sed -n "s/^ $1 address: //p" "$2"; }

check_addresses()
{
    check "the server learnt the client's address and receive slot" \
        grep -Eq 'RKey (0x)?[0-9a-f]+ VAddr 0x[0-9a-f]+$' <<< "$(address local "$CLIENT_LOG")"
    check "both sides agree on both addresses" test "$(address remote "$SERVER_LOG")" = \
        "$(address local "$CLIENT_LOG")" -a "$(address remote "$CLIENT_LOG")" = "$(address local "$SERVER_LOG")"
}

# 300 warm-up and 300 measured round trips: the byte each side watches wraps (mod 256) in both phases.
pair "write-lat: ibex server, ibex client" tcp 18630 \
    "$IBEX write-lat $common -s 64 -n 300 -p 18630" \
    "$IBEX write-lat $common -s 64 -n 300 -p 18630 $SERVER_IP" && {
    check_addresses
    for log in "$SERVER_LOG" "$CLIENT_LOG"
    do
        check "$(basename "$log" .log): 64 bytes, 300 iterations, t_min <= t_typical <= t_max" \
            awk '{ exit !($1 == 64 && $2 == 300 && $3 > 0 && $3 <= $5 && $5 <= $4) }' <<< "$(perftest_result "$log")"
    done
}

pair "write-bw --post-list 4, 4 KiB: ibex server, ibex client" tcp 18631 \
    "$IBEX write-bw $common -s 4096 -n 400 --post-list 4 -p 18631" \
    "$IBEX write-bw $common -s 4096 -n 400 --post-list 4 -p 18631 $SERVER_IP" && {
    check_addresses
    check "client: 4096 bytes, 400 messages, a message rate" \
        awk '{ exit !($1 == 4096 && $2 == 400 && $5 > 0) }' <<< "$(perftest_result "$CLIENT_LOG")"
    check "server: no result line, as perftest's" test -z "$(perftest_result "$SERVER_LOG")"
}

finish
