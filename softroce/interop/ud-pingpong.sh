#!/bin/bash
# Interop: `ibex ud-pingpong` with rdma-core's ibv_ud_pingpong, both ways round (run by
# softroce/real-verbs-guest.sh inside the Soft-RoCE guest; see lib.bash). UD queue pairs, an address handle of
# the peer, the 40-byte GRH area in front of every received message, Q_Key 0x11111111; -c validates the
# received buffer. The checks parse both outputs (pingpong-checks.bash).
set -u
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/pingpong-checks.bash"

readonly ITERS=20
readonly C_TOOL=ibv_ud_pingpong

common="-d $SOFTROCE_DEV -g 1 -n $ITERS -c"

pair "ud-pingpong: ibex server, $C_TOOL client (1024 bytes, the default)" tcp 18611 \
    "$IBEX ud-pingpong $common -p 18611" \
    "$C_TOOL $common -p 18611 $SERVER_IP" && check_pingpong 1024 $ITERS

pair "ud-pingpong: $C_TOOL server, ibex client (events, 512 bytes)" tcp 18612 \
    "$C_TOOL $common -s 512 -p 18612" \
    "$IBEX ud-pingpong $common -e -s 512 -p 18612 $SERVER_IP" && check_pingpong 512 $ITERS

finish
