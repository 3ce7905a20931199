#!/bin/bash
# Interop: `ibex rc-pingpong` with rdma-core's ibv_rc_pingpong, both ways round (run by
# softroce/real-verbs-guest.sh inside the Soft-RoCE guest; see lib.bash). Each pair exchanges addresses over
# TCP in the C tool's format, then ping-pongs RC SENDs with -c (validate the received buffer); the checks parse
# both outputs (pingpong-checks.bash).
set -u
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/pingpong-checks.bash"

readonly ITERS=20
readonly C_TOOL=ibv_rc_pingpong

common="-d $SOFTROCE_DEV -g 1 -n $ITERS -c"

pair "rc-pingpong: ibex server (events), $C_TOOL client" tcp 18601 \
    "$IBEX rc-pingpong $common -e -p 18601" \
    "$C_TOOL $common -p 18601 $SERVER_IP" && check_pingpong 4096 $ITERS

pair "rc-pingpong: $C_TOOL server, ibex client (10000 bytes, 3 pages)" tcp 18602 \
    "$C_TOOL $common -s 10000 -p 18602" \
    "$IBEX rc-pingpong $common -s 10000 -p 18602 $SERVER_IP" && check_pingpong 10000 $ITERS

finish
