#!/bin/bash
# Two guests, two kernels, one wire (softroce/run-pair.sh): rdma-core's C tools across the wire first, then each
# ibex program against its C tool, the sample channel and `ibex node` with its source in one guest and its target
# in the other (softroce/cross-host-guest.sh lists them). Ends with "N passed, N failed" over guest a's checks.
# usage: softroce/test-cross-host.sh [-n]   (-n: no Maven build)
# environment: CROSS_HOST_SCRIPTS (the scripts to run), CROSS_HOST_TIMEOUT (seconds, default 2400),
#   INTEROP_TIMEOUT (a pair's bound, default 120), SOFTROCE_MTU_A / SOFTROCE_MTU_B
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
started=$SECONDS
echo "--- guests a and b: the checks across the wire"
softroce/run-pair.sh -t "${CROSS_HOST_TIMEOUT:-2400}" -e CROSS_HOST_SCRIPTS -e INTEROP_TIMEOUT \
    -- bash softroce/cross-host-guest.sh | tee "$out/output"
rc=${PIPESTATUS[0]}
passed=$(grep -c '^a| PASS: ' "$out/output")
failed=$(grep -c '^a| FAIL: ' "$out/output")
echo "test-cross-host: $((SECONDS - started)) s; the pair's exit code $rc; output in $out/output"
if [ "$rc" != 0 ] && [ "$failed" = 0 ]; then
    failed=1 # a guest failed outside any check (boot, setup, a script that stopped early)
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
