#!/bin/bash
# `ibex node` on rxe0: the example examples/infiniband-loopback.conf with provider = "disni" and the guest's
# address in place of 127.0.0.1, nothing else changed (docs/runner.md). One process runs the signal generator,
# the infiniband source and target (RC over rxe0) and the two file nodes; then `ibex compare` checks that the
# file of what arrived equals the file of what the generator produced, sample by sample.
# Run by softroce/real-verbs-guest.sh inside the Soft-RoCE guest (see lib.bash).
set -u
. "$(dirname "$0")/lib.bash"

readonly EXAMPLE=$PWD/examples/infiniband-loopback.conf
config=$interop_work/node.conf
log=$interop_work/node.log
sed -e "s/127\.0\.0\.1:/$SOFTROCE_IP:/" -e 's/provider = "soft"/provider = "disni"/' "$EXAMPLE" > "$config"
check "node: the config differs from the example only in addresses and providers" \
    test "$(diff "$EXAMPLE" "$config" | grep -c '^>')" = 5

echo "--- node: $IBEX node $config (in $interop_work)"
rc=0
(cd "$interop_work" && timeout -k 5 "$INTEROP_TIMEOUT" $IBEX node "$config" --connect-timeout 60s) > "$log" 2>&1 ||
    rc=$?
sed 's/^/  | /' "$log"
check "node: ibex node ran the example to its end (rc $rc)" test "$rc" = 0
check "node: it stopped because its inputs ended" grep -q "stopped because its inputs ended" "$log"
check "node: the source and the target ran on disni" grep -q "RDMA provider 'disni'" "$log"
# Under emulation the generator misses most of its 10 us steps: those are gaps in the sequence ("lost" at the
# target), not losses of the network. What it did produce must all arrive, none dropped or invalid.
produced=$(sed -nE 's/^  siggen +signal +([0-9]+) samples in .*/\1/p' "$log")
check "node: the target received all ${produced:-?} samples the generator produced, none dropped or invalid" \
    grep -Eq "^  ib_node_target +infiniband +target on $SOFTROCE_IP:1337 over RC: sent 0, dropped 0, received ${produced:-none}, lost [0-9]+, reordered [0-9]+, invalid 0;" "$log"

generated=$(ls "$interop_work"/logs/ib_generated-*.log 2>/dev/null)
results=$(ls "$interop_work"/logs/ib_results-*.log 2>/dev/null)
check "node: one file of generated and one of received samples" test -f "$generated" -a -f "$results"
echo "--- node: $IBEX compare $generated $results"
check "node: the received samples compare equal to the generated ones" $IBEX compare "$generated" "$results"

finish
