#!/bin/bash
# Across the wire: the sample channel when the link between the guests goes down for a while and comes back. An
# RC source in guest a writes at a steady rate to its target in guest b; two seconds after it connected, guest a
# takes its NIC down for $DOWN seconds and brings it up again. The source must reconnect by itself, and the counts
# must be what docs/stats.md promises: what the target read is exactly what the source sent less what was lost,
# the lost are at most the source's `dropped`, and the target's `skipped` sum is the lost, exactly. Both sides
# write what they sent and read (--output), and `ibex compare --subset` checks the samples themselves.
# Only across two guests (softroce/run-pair.sh): one guest has no link to take down.
set -u
. "$(dirname "$0")/../interop/lib.bash"
[ -n "$role" ] || { echo "link-down: needs the guest pair (softroce/run-pair.sh)"; exit 1; }

readonly COUNT=4000 RATE=200 DOWN=5 PORT=10701
config=$interop_local/channel.conf
sed -e "s/10501/$PORT/" "$(channel_config RC)" > "$config"
sent=$interop_work/sent.log received=$interop_work/received.log
netdev=$SOFTROCE_NETDEV

pair "link down for $DOWN s and up: RC channel, source in guest a, target in guest b" cm $PORT \
    "$IBEX channel $config target --count $COUNT --output $received --timeout-ms 110000 --linger-ms 30000 \
        --stats-format json > $interop_work/target.json" \
    "( until grep -q 'connected: ' $CLIENT_LOG; do sleep 0.1; done; sleep 2
       ip link set dev $netdev down; echo \"link: $netdev down\"; sleep $DOWN
       ip link set dev $netdev up; echo \"link: $netdev up\" ) &
     $IBEX channel $config source --count $COUNT --rate $RATE --output $sent --timeout-ms 60000 \
        --stats-format json > $interop_work/source.json; rc=\$?; wait
     # a source that dropped samples says so and exits with 1, which is what this outage should give
     [ \$rc = 1 ] && grep -q 'error: source: [0-9]* dropped' $CLIENT_LOG && rc=0; exit \$rc"

counter() { jq -r ".counters.$2" "$interop_work/$1.json" 2>/dev/null; }
written=$(grep -c '^[0-9]' "$sent" 2>/dev/null)
read=$(grep -c '^[0-9]' "$received" 2>/dev/null)
lost=$(( ${written:-0} - ${read:-0} ))
dropped=$(counter source dropped)
skipped=$(jq -r '.metrics.skipped.sum' "$interop_work/target.json" 2>/dev/null)
reconnects=$(counter source reconnects)
echo "link-down: source sent ${written:-?} (dropped $dropped, reconnects $reconnects), target read ${read:-?}" \
    "(skipped sum $skipped): lost $lost"
check "link-down: the link went down and up during the run" grep -q "link: $netdev up" "$CLIENT_LOG"
check "link-down: the source reconnected" test "${reconnects:-0}" -ge 1
check "link-down: the source's error names its $dropped dropped" grep -q "error: source: $dropped dropped" "$CLIENT_LOG"
check "link-down: the last sample sent, long after the link came back, arrived" \
    test -n "$(tail -1 "$sent" 2>/dev/null)" -a "$(tail -1 "$sent" 2>/dev/null)" = "$(tail -1 "$received" 2>/dev/null)"
check "link-down: what the target read is exactly what was sent, in order (compare --subset)" \
    $IBEX compare --subset "$sent" "$received"
check "link-down: the lost ($lost) are at most the source's dropped ($dropped)" test "$lost" -le "${dropped:--1}"
check "link-down: the target's skipped sum ($skipped) is the lost ($lost)" test "${skipped:-x}" = "$lost"

finish
