#!/bin/bash
# rping (librdmacm) against `ibex rping`, both ways round, with -v and -V: the client compares the data the
# server RDMA-wrote back with what it sent, the ibex server checks the C client's data is rping's pattern, and
# the server's "server ping data" lines must equal the client's "ping data" lines, one per ping.
# Run by softroce/real-verbs-guest.sh inside the Soft-RoCE guest (see lib.bash).
set -u
. "$(dirname "$0")/lib.bash"

readonly PORT=7174 COUNT=3
ip=$SERVER_IP

# The data lines both sides printed, in order: the server's "server ping data: X", the client's "ping data: X".
same_ping_data()
{
    local server client
    server=$(sed -n 's/^server ping data: //p' "$SERVER_LOG")
    client=$(sed -n 's/^ping data: //p' "$CLIENT_LOG")
    [ "$(printf '%s\n' "$client" | grep -c '^rdma-ping-[0-9]*: ')" = $COUNT ] && [ "$server" = "$client" ]
}

# Fails unless the command fails with exit status 1 and names $1 in its error line.
fails_naming()
{
    local expected=$1 rc=0
    shift
    "$@" > "$CLIENT_LOG" 2>&1 || rc=$?
    sed 's/^/  | /' "$CLIENT_LOG"
    [ $rc = 1 ] && grep -q "error: .*$expected" "$CLIENT_LOG"
}

pair "rping: ibex server, C client" cm $PORT \
    "$IBEX rping -s -a $ip -p $PORT -v -V -C $COUNT" \
    "rping -c -a $ip -p $PORT -v -V -C $COUNT"
check "rping: ibex server and C client saw the same $COUNT pings" same_ping_data

pair "rping: C server, ibex client" cm $PORT \
    "rping -s -a $ip -p $PORT -v -V -C $COUNT" \
    "$IBEX rping -c -a $ip -p $PORT -v -V -C $COUNT"
check "rping: C server and ibex client saw the same $COUNT pings" same_ping_data

check "rping: ibex client with no server fails naming REJECTED" \
    fails_naming REJECTED $IBEX rping -c -a "$ip" -p $((PORT + 1)) -C 1

finish
