#!/bin/bash
# Two guests, two kernels, one wire (softroce/run-pair.sh): rdma-core's C tools across the wire first, then each
# ibex program against its C tool, the sample channel and `ibex node` with its source in one guest and its target
# in the other, the channel through a link that goes down and up; then, on a second pair whose NICs differ in MTU,
# softroce/cross-host/mtu.sh. Ends with "N passed, N failed" over guest a's checks.
# usage: softroce/test-cross-host.sh [-n]   (-n: no Maven build)
# environment: CROSS_HOST_SCRIPTS (the scripts to run, default the list below), CROSS_HOST_TIMEOUT (seconds a
#   pair may take, default 2400), INTEROP_TIMEOUT (a pair of commands' bound, default 120)
set -uo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != -n ]; then
    echo "--- host: mvn package (no tests)"
    mvn -q -B package -DskipTests || exit 1
fi
[ -f rdma-core-api/target/native/libdisni.so ] || {
    echo "test-cross-host: rdma-core-api/target/native/libdisni.so was not built (install libibverbs-dev librdmacm-dev)" >&2
    exit 1
}
out=target/cross-host
mkdir -p "$out"
scripts=${CROSS_HOST_SCRIPTS:-softroce/cross-host/c-tools.sh softroce/interop/rc-pingpong.sh
    softroce/interop/ud-pingpong.sh softroce/interop/rping.sh softroce/interop/udaddy.sh
    softroce/interop/rdma-server.sh softroce/interop/rdma-write.sh softroce/interop/perf.sh
    softroce/interop/perf-write.sh softroce/interop/channel.sh softroce/cross-host/node-pair.sh
    softroce/cross-host/link-down.sh softroce/cross-host/mtu.sh}
# mtu.sh needs NICs of two MTUs, so it runs on a pair of its own; the others share one pair.
same_mtu=$(printf '%s\n' $scripts | grep -v '/mtu\.sh$' | xargs)
two_mtus=$(printf '%s\n' $scripts | grep '/mtu\.sh$' | xargs)
started=$SECONDS
rc=0

# run_pair NAME SCRIPTS [VAR=VALUE...]: the pair runs softroce/cross-host-guest.sh over SCRIPTS, output in $out/NAME.
run_pair()
{
    local name=$1 list=$2
    shift 2
    [ -n "$list" ] || return 0
    echo "--- guests a and b ($name): $list"
    env CROSS_HOST_SCRIPTS="$list" "$@" softroce/run-pair.sh -t "${CROSS_HOST_TIMEOUT:-2400}" -e CROSS_HOST_SCRIPTS \
        -e INTEROP_TIMEOUT -- bash softroce/cross-host-guest.sh | tee "$out/$name"
    local pair_rc=${PIPESTATUS[0]}
    echo "test-cross-host: $name: the pair's exit code $pair_rc after $((SECONDS - started)) s"
    [ "$pair_rc" = 0 ] || rc=$pair_rc
}

rm -f "$out"/same-mtu "$out"/two-mtus
run_pair same-mtu "$same_mtu"
run_pair two-mtus "$two_mtus" SOFTROCE_MTU_A=1500 SOFTROCE_MTU_B=9000
passed=$(cat "$out"/same-mtu "$out"/two-mtus 2>/dev/null | grep -c '^a| PASS: ')
failed=$(cat "$out"/same-mtu "$out"/two-mtus 2>/dev/null | grep -c '^a| FAIL: ')
echo "test-cross-host: $((SECONDS - started)) s; outputs in $out"
if [ "$rc" != 0 ] && [ "$failed" = 0 ]; then
    failed=1 # a guest failed outside any check (boot, setup, a script that stopped early)
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
