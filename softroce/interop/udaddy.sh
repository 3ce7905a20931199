#!/bin/bash
# udaddy (librdmacm) against `ibex udaddy`, both ways round, two UD endpoints each: SIDR through rdma_cm's UDP
# port space, messages with the 40-byte GRH in front. The ibex side checks every datagram (length, GRH,
# immediate data = the sender's QPN); the ibex client also checks that the C server's replies echo what it
# sent (udaddy replies with the start of its receive buffer: the GRH, then the message).
# Run by softroce/real-verbs-guest.sh inside the Soft-RoCE guest (see lib.bash).
set -u
. "$(dirname "$0")/lib.bash"

readonly PORT=7174 COUNT=3 NODES=2 SIZE=100
ip=$SERVER_IP

# Every endpoint of the ibex side ($1: server or client log) reported its datagrams.
ibex_nodes_reported()
{
    local log=$1 pattern=$2 node
    for node in $(seq 0 $((NODES - 1)))
    do
        grep -Eq "^udaddy: node $node: received $COUNT $pattern of $SIZE bytes from QPN 0x[0-9a-f]{6}" "$log" ||
            return 1
    done
}

pair "udaddy: ibex server, C client" cm $PORT \
    "$IBEX udaddy -b $ip -c $NODES -C $COUNT -S $SIZE" \
    "udaddy -s $ip -c $NODES -C $COUNT -S $SIZE"
check "udaddy: the ibex server received $COUNT messages on each of its $NODES endpoints" \
    ibex_nodes_reported "$SERVER_LOG" messages

pair "udaddy: C server, ibex client" cm $PORT \
    "udaddy -b $ip -c $NODES -C $COUNT -S $SIZE" \
    "$IBEX udaddy -s $ip -c $NODES -C $COUNT -S $SIZE"
check "udaddy: the ibex client received $COUNT echoing replies on each of its $NODES endpoints" \
    ibex_nodes_reported "$CLIENT_LOG" "replies"

finish
