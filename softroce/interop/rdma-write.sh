#!/bin/bash
# `ibex rdma-write` between two ibex processes (run by softroce/real-verbs-guest.sh inside the Soft-RoCE
# guest; see lib.bash): they exchange LID, QPN, PSN, GID, rkey and buffer address over TCP, the server
# RDMA-WRITEs a message into the client's registered buffer, and the client prints what arrived. Both exit
# with 0 only when it arrived intact; the checks also read the text the client printed.
set -u
. "$(dirname "$0")/lib.bash"

common="-d $SOFTROCE_DEV -g 1"
message="Soft-RoCE says hello through an RDMA WRITE"

pair "rdma-write: ibex server, ibex client" tcp 18621 \
    "$IBEX rdma-write $common -p 18621 -m '$message'" \
    "$IBEX rdma-write $common -p 18621 $SERVER_IP" &&
{
    check "the client printed the message" grep -qF "arrived: ${#message} bytes at 0x" "$CLIENT_LOG"
    check "the client printed the text" grep -qF "\"$message\"" "$CLIENT_LOG"
    check "the client says intact" grep -qx "done: the message arrived intact" "$CLIENT_LOG"
    check "the server says the client found it intact" \
        grep -qx "done: the client found the ${#message} bytes intact" "$SERVER_LOG"
}

pair "rdma-write: a message that fills the client's buffer exactly" tcp 18622 \
    "$IBEX rdma-write $common -p 18622 -m 0123456789abcdef" \
    "$IBEX rdma-write $common -p 18622 -s 16 $SERVER_IP" &&
    check "the client printed all 16 bytes" grep -qF 'arrived: 16 bytes at 0x' "$CLIENT_LOG"

finish
