#!/bin/bash
# Across the wire: `ibex node` with the source in guest a (signal -> infiniband, and the generated samples to a
# file) and the target in guest b (infiniband -> file), RC and UD, on the disni provider. RC must deliver every
# generated sample (`ibex compare` equal); UD what it delivers must be exact (`--subset`), its loss printed. The
# target stops on SIGTERM two seconds after the source ended (a script's background job ignores SIGINT). In one
# guest (without run-pair.sh) both run there.
set -u
. "$(dirname "$0")/../interop/lib.bash"

readonly RATE=500 LIMIT=1000
port=10601

# $1 mode: writes the source's and the target's configs into $interop_local, the files into $interop_work.
node_configs()
{
    local mode=$1 ib="type = \"infiniband\", provider = \"disni\", rdma_transport_mode = \"$1\""
    cat > "$interop_local/source-$mode.conf" <<CONF
nodes = {
  siggen = { type = "signal", signal = "mixed", values = 3, rate = $RATE, limit = $LIMIT },
  generated = { type = "file", uri = "$interop_work/generated-$mode.log" },
  ib = { $ib, in = { address = "$SOFTROCE_IP:$((port + 1))" }, out = { address = "$SERVER_IP:$port" } }
}
paths = ( { in = "siggen", out = [ "ib", "generated" ] } )
CONF
    cat > "$interop_local/target-$mode.conf" <<CONF
nodes = {
  ib = { $ib, in = { address = "$SERVER_IP:$port" } },
  received = { type = "file", uri = "$interop_work/received-$mode.log" }
}
paths = ( { in = "ib", out = "received" } )
CONF
}

for mode in RC UD; do
    node_configs $mode
    done_file=$interop_work/source-$mode.done
    pair "node $mode: source in guest a, target in guest b" cm $port \
        "$IBEX node $interop_local/target-$mode.conf --status-interval 0 & pid=\$!
         until [ -e $done_file ]; do sleep 0.2; done; sleep 2; kill -TERM \$pid; wait \$pid" \
        "$IBEX node $interop_local/source-$mode.conf --status-interval 0 --connect-timeout 60s; rc=\$?
         touch $done_file; exit \$rc"
    # the target's file is complete once its JVM has ended, which pair waited for
    generated=$(grep -c '^[0-9]' "$interop_work/generated-$mode.log" 2>/dev/null)
    received=$(grep -c '^[0-9]' "$interop_work/received-$mode.log" 2>/dev/null)
    echo "node $mode: generated ${generated:-none}, received ${received:-none}"
    check "node $mode: the generator made samples" test "${generated:-0}" -gt 0
    if [ $mode = RC ]; then
        check "node $mode: every generated sample arrived, exact" \
            $IBEX compare "$interop_work/generated-$mode.log" "$interop_work/received-$mode.log"
    else
        check "node $mode: what arrived is exact" \
            $IBEX compare --subset "$interop_work/generated-$mode.log" "$interop_work/received-$mode.log"
    fi
    port=$((port + 2))
done

finish
