#!/bin/bash
# rdma_server / rdma_client (librdmacm) against `ibex rdma-server` / `ibex rdma-client`, both ways round: one
# RC connection through rdma_cm, one 16-byte message each way. The ibex side checks it received the 16 zero
# bytes the C tools send (its receive buffer is filled with a marker first).
# Run by softroce/real-verbs-guest.sh inside the Soft-RoCE guest (see lib.bash).
set -u
. "$(dirname "$0")/lib.bash"

readonly PORT=7471
ip=$SERVER_IP

# $1 (a log) holds the line $2.
has_line() { grep -qx "$2" "$1"; }

pair "rdma_server: ibex server, C client" cm $PORT \
    "$IBEX rdma-server -s $ip -p $PORT" \
    "rdma_client -s $ip -p $PORT"
check "rdma_server: the ibex server received and sent 16 bytes" \
    grep -Eq "^rdma-server: received 16 bytes from .*, sent 16$" "$SERVER_LOG"
check "rdma_server: rdma_client ended with status 0" has_line "$CLIENT_LOG" "rdma_client: end 0"

pair "rdma_server: C server, ibex client" cm $PORT \
    "rdma_server -s $ip -p $PORT" \
    "$IBEX rdma-client -s $ip -p $PORT"
check "rdma_server: the ibex client sent and received 16 bytes" \
    grep -Eq "^rdma-client: sent 16 bytes to .*, received 16$" "$CLIENT_LOG"
check "rdma_server: rdma_server ended with status 0" has_line "$SERVER_LOG" "rdma_server: end 0"

finish
