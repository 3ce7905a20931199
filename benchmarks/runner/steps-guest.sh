#!/bin/bash
# benchmarks/runner/steps.sh inside the Soft-RoCE guest, where the infiniband node-type has rxe0 under it: ibex and
# villas-node side by side, signal -> file and signal -> infiniband -> file (ibex-file ibex-rxe villas-file
# villas-rxe), quiet only (the guest's vCPUs share one emulating host thread, so "a core busy" means nothing there).
# Emulation costs the generators most of their steps: read the ratios to signal -> file of the same runner, not the
# counts, and nothing here against the host's figures.
# usage: benchmarks/runner/steps-guest.sh [-n] [OUT-DIR]   (-n: no Maven build; OUT-DIR default
#   target/runner-steps-guest); STEPS_ROUNDS (3), STEPS_RATE (10000), STEPS_LIMIT (10000) as in steps.sh.
set -euo pipefail
checkout=$(cd "$(dirname "$0")/../.." && pwd)
build=1
[ "${1:-}" != -n ] || { build=0; shift; }
out=$(realpath -m "${1:-$checkout/target/runner-steps-guest}")
[ $build = 0 ] || (cd "$checkout" && mvn -q -B package -DskipTests)
library=$checkout/rdma-core-api/target/native/libdisni.so
[ -f "$library" ] || { echo "steps-guest: no $library (install libibverbs-dev librdmacm-dev, then build)" >&2; exit 1; }
"$checkout/softroce/villas-node.sh" > /dev/null # built or unpacked on the host, where the guest finds it cached
mkdir -p "$(dirname "$out")"
cd "$checkout"
export STEPS_ROUNDS=${STEPS_ROUNDS:-3} STEPS_RATE=${STEPS_RATE:-10000} STEPS_LIMIT=${STEPS_LIMIT:-10000}
export STEPS_LOADS=quiet STEPS_CONFIGS="ibex-file ibex-rxe villas-file villas-rxe" STEPS_THREADS=
export STEPS_JVMS="java=java -Dibex.native.library=$library"
exec softroce/run-in-guest.sh -t "${STEPS_GUEST_TIMEOUT:-3600}" -w "$(dirname "$out")" \
    -e STEPS_ROUNDS -e STEPS_RATE -e STEPS_LIMIT -e STEPS_LOADS -e STEPS_CONFIGS -e STEPS_JVMS -e STEPS_THREADS \
    -- bash benchmarks/runner/steps.sh -n "$out"
