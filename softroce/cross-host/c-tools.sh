#!/bin/bash
# Across the wire, C against C: rdma-core's own tools between the two guests of softroce/run-pair.sh prove the pair
# (two kernels' rxe, ARP, GIDs and RoCE v2 over UDP 4791 between two stacks) before ibex is tried on it. The server
# runs in guest b, the client in guest a (see ../interop/lib.bash).
set -u
. "$(dirname "$0")/../interop/lib.bash"
. "$(dirname "$0")/../interop/pingpong-checks.bash"

readonly ITERS=50
dev="-d $SOFTROCE_DEV -g 1"

pair "ibv_rc_pingpong across the wire" tcp 18701 \
    "ibv_rc_pingpong $dev -n $ITERS -c -p 18701" \
    "ibv_rc_pingpong $dev -n $ITERS -c -p 18701 $SERVER_IP" && check_pingpong 4096 $ITERS

# UD over RoCE addresses its peer by GID (-g): the datagram must fit the active MTU (1024 on a 1500-byte netdev).
pair "ibv_ud_pingpong across the wire, by GID" tcp 18702 \
    "ibv_ud_pingpong $dev -n $ITERS -c -s 512 -p 18702" \
    "ibv_ud_pingpong $dev -n $ITERS -c -s 512 -p 18702 $SERVER_IP" && check_pingpong 512 $ITERS

pair "rping across the wire" cm 7271 \
    "rping -s -a $SERVER_IP -p 7271 -v -V -C 5" \
    "rping -c -a $SERVER_IP -p 7271 -v -V -C 5" &&
    check "rping: the client saw 5 pings" test "$(grep -c '^ping data: rdma-ping-' "$CLIENT_LOG")" = 5

# udaddy's port is fixed: 7174.
pair "udaddy across the wire" cm 7174 \
    "udaddy -b $SERVER_IP -c 2 -C 10" \
    "udaddy -s $SERVER_IP -c 2 -C 10"

finish
