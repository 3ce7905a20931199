#!/bin/bash
# The soft provider between two hosts, as network namespaces on this machine: host a (10.97.0.1) and host b
# (10.97.0.2) joined by a veth pair that exists only between them. Each JVM runs in its namespace with
# -Dibex.soft.address=<its address>, so its soft device, connection manager and links use that network alone.
# Checks: `ibex channel` RC and UD with the target in b and the source in a (complete, in order, intact),
# `ibex rc-pingpong`, `ud-pingpong` (addressed by GID) and `rping` (rdma_cm) between the two, and the RC channel
# while a's end of the veth goes down for 4 s and for 12 s (below and beyond the soft RC bound) and comes back.
# Ends with "N passed, N failed". Needs root (ip netns); removes the namespaces it made on exit.
# usage: softroce/test-netns.sh [-n]   (-n: no Maven build)
set -uo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "test-netns: needs root to create network namespaces" >&2; exit 1; }
if [ "${1:-}" != -n ]; then
    mvn -q -B package -DskipTests || exit 1
fi
readonly A=ibex-ns-a B=ibex-ns-b IP_A=10.97.0.1 IP_B=10.97.0.2 JAR=$PWD/rdma-samples/target/ibex.jar
work=$(mktemp -d /tmp/ibex-netns.XXXXXX)
passed=0 failed=0

cleanup() { ip netns del $A 2>/dev/null; ip netns del $B 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
cleanup
mkdir -p "$work"
ip netns add $A && ip netns add $B &&
    ip link add ibex-veth-a netns $A type veth peer name ibex-veth-b netns $B &&
    ip -n $A addr add $IP_A/24 dev ibex-veth-a && ip -n $B addr add $IP_B/24 dev ibex-veth-b &&
    ip -n $A link set lo up && ip -n $B link set lo up &&
    ip -n $A link set ibex-veth-a up && ip -n $B link set ibex-veth-b up ||
    { echo "test-netns: cannot create the namespaces and their veth pair" >&2; exit 1; }

check()
{
    local description=$1
    shift
    if "$@"; then echo "PASS: $description"; passed=$((passed + 1)); else echo "FAIL: $description"; failed=$((failed + 1)); fi
}

# pair NAME "TARGET ARGS" "SOURCE ARGS" [SOURCE-RC]: the target in b, then the source in a; the target must exit
# with 0, the source with SOURCE-RC (default 0).
pair()
{
    local name=$1 target=$2 source=$3 expected=${4:-0} target_rc=0 source_rc=0
    echo "--- $name"
    # shellcheck disable=SC2086 # the arguments are words
    timeout 120 ip netns exec $B java -Dibex.provider=soft -Dibex.soft.address=$IP_B -jar "$JAR" $target \
        > "$work/target.log" 2>&1 &
    local pid=$!
    sleep 3 # the target's JVM listens within a second or two
    # shellcheck disable=SC2086
    timeout 120 ip netns exec $A java -Dibex.provider=soft -Dibex.soft.address=$IP_A -jar "$JAR" $source \
        > "$work/source.log" 2>&1 || source_rc=$?
    wait $pid || target_rc=$?
    sed 's/^/  target | /' "$work/target.log" | grep -v ' INFO ' 
    sed 's/^/  source | /' "$work/source.log" | grep -v ' INFO '
    check "$name: the target exited with 0 and the source with $expected (rc $target_rc, $source_rc)" \
        test $target_rc = 0 -a $source_rc = "$expected"
}

# The example channel config with each node's address in its namespace.
channel_config()
{
    sed -e "/the source's own address/s/127\.0\.0\.1:/$IP_A:/" -e "s/127\.0\.0\.1:/$IP_B:/" \
        -e "s/rdma_transport_mode = \"RC\"/rdma_transport_mode = \"$1\"/" examples/channel-loopback.conf > "$work/channel-$1.conf"
    echo "$work/channel-$1.conf"
}

for mode in RC UD; do
    config=$(channel_config $mode)
    extra=$([ $mode = UD ] && echo "--rate 2000" || true)
    pair "channel $mode across namespaces" "channel $config target --count 2000 --timeout-ms 60000" \
        "channel $config source --count 2000 --timeout-ms 60000 $extra"
    check "channel $mode: the target read 2000 samples, complete, in order, intact" \
        grep -q "^target: read 2000 samples on $IP_B:10501 over $mode in [0-9.]* s from the first: complete, in order, intact$" "$work/target.log"
    check "channel $mode: the target's source was at $IP_A" grep -q "/$IP_A:" "$work/target.log"
done
pair "rc-pingpong across namespaces" "rc-pingpong -g 1 -n 100 -c -p 18801" "rc-pingpong -g 1 -n 100 -c -p 18801 $IP_B"
check "rc-pingpong: 100 iters on both sides" test "$(cat "$work/target.log" "$work/source.log" | grep -c '^100 iters in')" = 2
pair "ud-pingpong across namespaces, by GID" "ud-pingpong -g 1 -n 100 -c -p 18802" "ud-pingpong -g 1 -n 100 -c -p 18802 $IP_B"
check "ud-pingpong: 100 iters on both sides" test "$(cat "$work/target.log" "$work/source.log" | grep -c '^100 iters in')" = 2
pair "rping across namespaces, through rdma_cm" "rping -s -a $IP_B -p 7271 -C 5 -v" "rping -c -a $IP_B -p 7271 -C 5 -v"
check "rping: the client saw 5 pings" test "$(grep -c '^ping data: rdma-ping-' "$work/source.log")" = 5

# json_number FILE PREFIX: the number after PREFIX in the stats line (--stats-format json) of FILE.
json_number() { grep '^{' "$1" | grep -o "$2[0-9]*" | grep -o '[0-9]*$'; }

# link_down SECONDS: an RC source in a writes 200 samples a second to its target in b; a second after it connected,
# a's end of the veth goes down for SECONDS and comes back. Below the soft RC bound (about 8 s: docs/soft-provider.md,
# "A paused peer") the link survives and nothing is lost; beyond it the source reconnects. Either way what the target
# read is exactly what was sent less the lost, the lost are at most the source's dropped, and the target's skipped sum
# is the lost (docs/stats.md).
link_down()
{
    local down=$1 config name="link down for $1 s" written read lost dropped skipped reconnects
    config=$(channel_config RC)
    rm -f "$work/source.log" # the flap waits for this run's source to connect
    ( until grep -q 'connected: ' "$work/source.log" 2>/dev/null; do sleep 0.1; done; sleep 1
      ip -n $A link set ibex-veth-a down; sleep "$down"; ip -n $A link set ibex-veth-a up ) &
    local flap=$!
    pair "$name: RC channel" \
        "channel $config target --count 100000 --output $work/received.log --linger-ms 20000 --timeout-ms 60000 --stats-format json" \
        "channel $config source --count $(( (down + 6) * 200 )) --rate 200 --output $work/sent.log --timeout-ms 60000 --stats-format json" \
        $([ "$down" -lt 8 ] && echo 0 || echo 1) # a source that dropped samples says so and exits with 1
    wait $flap
    written=$(grep -c '^[0-9]' "$work/sent.log") read=$(grep -c '^[0-9]' "$work/received.log")
    lost=$((written - read))
    dropped=$(json_number "$work/source.log" '"dropped":')
    reconnects=$(json_number "$work/source.log" '"reconnects":')
    skipped=$(json_number "$work/target.log" '"skipped":{"unit":"samples","count":[0-9]*,"sum":')
    echo "$name: sent $written (dropped $dropped, reconnects $reconnects), read $read (skipped sum $skipped): lost $lost"
    check "$name: what the target read was sent, in order and exact" \
        java -jar "$JAR" compare --subset "$work/sent.log" "$work/received.log"
    check "$name: the last sample sent arrived" test "$(tail -1 "$work/sent.log")" = "$(tail -1 "$work/received.log")"
    check "$name: the lost ($lost) are at most the source's dropped ($dropped)" test "$lost" -le "$dropped"
    check "$name: the target's skipped sum ($skipped) is the lost ($lost)" test "$skipped" = "$lost"
    if [ "$down" -lt 8 ]; then
        check "$name: below the RC bound, nothing lost and no reconnect" test "$lost" = 0 -a "$reconnects" = 0
    else
        check "$name: beyond the RC bound, the source reconnected" test "$reconnects" -ge 1
        check "$name: the source's error names its $dropped dropped" grep -q "error: source: $dropped dropped" "$work/source.log"
    fi
}
link_down 4
link_down 12

echo "$passed passed, $failed failed"
[ $failed = 0 ]
