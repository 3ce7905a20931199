#!/bin/bash
# `ibex channel` as two processes on rxe0, RC and UD: the example config examples/channel-loopback.conf with
# provider = "disni" and the guest's address in place of 127.0.0.1, nothing else changed (docs/transport.md,
# "Running across hosts"). The target reads and checks every sample (count, order, values); both sides exit 0 only when
# nothing was lost, dropped or invalid.
# Run by softroce/real-verbs-guest.sh inside the Soft-RoCE guest (see lib.bash).
set -u
. "$(dirname "$0")/lib.bash"

readonly PORT=10501
ip=$SERVER_IP

# $1 mode, $2 count, $3 further source options.
channel_pair()
{
    local mode=$1 count=$2 config
    config=$(channel_config "$mode")
    check "channel $mode: the config differs from the example only in address, provider and mode" \
        test "$(diff "$CHANNEL_EXAMPLE" "$config" | grep -c '^>')" = "$([ "$mode" = RC ] && echo 5 || echo 7)"
    pair "channel $mode: target and source on $SOFTROCE_DEV" cm $PORT \
        "$IBEX channel $config target --count $count --timeout-ms $TARGET_WAIT_MS" \
        "$IBEX channel $config source --count $count --timeout-ms 60000 $3"
    check "channel $mode: the target read $count samples, complete, in order, intact" \
        grep -Eq "^target: read $count samples on $ip:$PORT over $mode in [0-9.]+ s from the first: complete, in order, intact$" \
        "$SERVER_LOG"
    check "channel $mode: the source wrote $count samples" \
        grep -Eq "^source: wrote $count samples of 3 signals to $ip:$PORT over $mode in " "$CLIENT_LOG"
    check "channel $mode: both ran on disni" grep -q "RDMA provider 'disni'" "$SERVER_LOG" "$CLIENT_LOG"
}

channel_pair RC 1000 ""
# UD has no flow control: pace the source so the target, under emulation, keeps receives posted.
channel_pair UD 200 "--rate 100"

finish
