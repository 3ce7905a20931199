#!/bin/bash
# Across the wire with two MTUs: guest a's NIC at 1500 bytes, guest b's at 9000 (softroce/test-cross-host.sh boots
# this pair with SOFTROCE_MTU_A=1500 SOFTROCE_MTU_B=9000). Each rxe0's active MTU is the largest IB MTU that fits its
# netdev, as the kernel sets it: 1024 in a, 4096 in b. A connection takes the path MTU of the side that connects
# (rdma_cm's route from a: 1024). Samples of 200 values (1,624 bytes) are larger than a's MTU: RC splits each into
# packets and every sample arrives intact; UD cannot, and guest a's channel refuses them by name before it sends.
set -u
. "$(dirname "$0")/../interop/lib.bash"
[ -n "$role" ] || { echo "mtu: needs the guest pair (softroce/run-pair.sh)"; exit 1; }

readonly VALUES=200 COUNT=500 PORT=10801

active_mtu() { ibv_devinfo -d "$SOFTROCE_DEV" | sed -n 's/.*active_mtu:\s*\([0-9]*\).*/\1/p'; }
active_mtu > "$interop_work/active-mtu.$role"
step_barrier active-mtu
check "mtu: guest a's rxe0 (netdev mtu 1500) is active at 1024" test "$(cat "$interop_work/active-mtu.a")" = 1024
check "mtu: guest b's rxe0 (netdev mtu 9000) is active at 4096" test "$(cat "$interop_work/active-mtu.b")" = 4096

pair "mtu: ibv_rc_pingpong -m 1024 across the two MTUs" tcp 18801 \
    "ibv_rc_pingpong -d $SOFTROCE_DEV -g 1 -m 1024 -s 4096 -n 50 -c -p 18801" \
    "ibv_rc_pingpong -d $SOFTROCE_DEV -g 1 -m 1024 -s 4096 -n 50 -c -p 18801 $SERVER_IP"

# $1 mode: the channel example with $VALUES float signals in place of its three.
big_config()
{
    local config=$interop_local/big-$1.conf
    sed -e "s/10501/$PORT/" -e '/signals = (/,/)$/c\        signals = '$VALUES "$(channel_config "$1")" > "$config"
    echo "$config"
}

config=$(big_config RC)
pair "mtu: RC channel, $VALUES values a sample, source in guest a (1024) to target in guest b (4096)" cm $PORT \
    "$IBEX channel $config target --count $COUNT --timeout-ms $TARGET_WAIT_MS" \
    "$IBEX channel $config source --count $COUNT --timeout-ms 60000"
check "mtu: the target read $COUNT samples of $VALUES values, complete, in order, intact" \
    grep -Eq "^target: read $COUNT samples on $SERVER_IP:$PORT over RC in [0-9.]+ s from the first: complete, in order, intact$" \
    "$SERVER_LOG"

if [ "$role" = a ]; then
    config=$(big_config UD)
    $IBEX channel "$config" source --count 1 --timeout-ms 5000 > "$interop_local/ud.log" 2>&1
    rc=$?
    sed 's/^/  | /' "$interop_local/ud.log"
    check "mtu: a UD source of $VALUES values in guest a ends with an error" test $rc != 0
    check "mtu: the error names the sample's size and the UD MTU" grep -q \
        "a sample of $VALUES values takes 1624 bytes, more than the UD MTU of 1024 bytes on device $SOFTROCE_DEV" \
        "$interop_local/ud.log"
fi

finish
