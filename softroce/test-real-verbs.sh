#!/bin/bash
# The real-verbs tests: builds on the host, then in ONE Soft-RoCE guest boot runs
#   1. the conformance suite (io.ibex.rdma.conformance), the disni provider's own tests
#      (io.ibex.rdma.provider.disni, tagged "verbs") and rdma-transport's tests that touch a device
#      (io.ibex.transport.channel and .sample; config and stats tests need none), all on the disni provider
#      over rxe0, with kernel resource hygiene checked after every test (io.ibex.rdma.hygiene.KernelResourceHygiene);
#   2. every interop pair in softroce/interop/*.sh (ibex against the rdma-core/librdmacm C tools and, villas.sh,
#      against VILLASnode; perf.sh runs ibex send-lat/send-bw against themselves), with
#      `rdma resource show` back at its baseline after each script.
# usage: softroce/test-real-verbs.sh [-n] [JUNIT-CONSOLE-SELECTORS...]
#   -n  skip the Maven build (reuse target/ from a previous build)
#   selectors default to those packages, e.g. --select-class io.ibex.rdma.conformance.UdConformanceTest
# environment: IBEX_INTEROP (glob of interop scripts, default softroce/interop/*.sh; empty = none); passed into the
#   guest when set: IBEX_TEST_SAMPLES (MillionSamplesTest, default 100000), IBEX_TEST_CYCLES (OpenCloseCyclesTest,
#   default 20), IBEX_SOAK_SAMPLES, IBEX_SOAK_IDLE, IBEX_SOAK_DEPTH (interop/soak.sh), INTEROP_TIMEOUT (each interop
#   command, 120 s; soak.sh 300 s); IBEX_VILLAS_NODE (the villas-node for interop/villas.sh; default: what
#   softroce/villas-node.sh prints, which unpacks or builds it from shared/third-party beside the checkout; without
#   that folder villas.sh is left out with a notice, and a villas-node.sh that fails there fails the run),
#   IBEX_VILLAS_ONLY (a regular expression: the villas.sh pairings to run)
# exit code: 0 when everything passed; the guest harness's 124/125 on timeout/setup failure.
set -euo pipefail
cd "$(dirname "$0")/.."

readonly OUT=target/real-verbs
# JUnit's console launcher, matching the junit-jupiter version the root pom manages (5.10.x = 1.10.x).
readonly CONSOLE_VERSION=1.10.2

build=1
if [ "${1:-}" = "-n" ]; then build=0; shift; fi

mkdir -p "$OUT"
if [ $build = 1 ]; then
    echo "--- host: mvn package (no tests), classpath, JUnit console launcher"
    mvn -q -B package -DskipTests
    # In the reactor (-am), so that rdma-transport's rdma-core-api is this build's, not one installed in ~/.m2 (a
    # fresh machine has none); the modules write the file in build order, rdma-transport's last.
    for module in rdma-core-api rdma-transport
    do
        mvn -q -B package -DskipTests dependency:build-classpath -Dmdep.outputFile="$PWD/$OUT/classpath-$module" \
            -Dmdep.includeScope=test -pl $module -am
    done
    mvn -q -B dependency:copy -Dartifact=org.junit.platform:junit-platform-console-standalone:$CONSOLE_VERSION \
        -DoutputDirectory="$PWD/$OUT"
fi
[ -f rdma-core-api/target/native/libdisni.so ] || {
    echo "test-real-verbs: rdma-core-api/target/native/libdisni.so was not built (install libibverbs-dev librdmacm-dev)" >&2
    exit 1
}

# The VILLASnode peer of interop/villas.sh, unpacked (or built) on the host: the guest sees it read-only.
if [ -z "${IBEX_VILLAS_NODE-}" ]; then
    if [ -d "${IBEX_THIRD_PARTY:-$(dirname "$PWD")/shared/third-party}" ]; then
        echo "--- host: villas-node (softroce/villas-node.sh)"
        IBEX_VILLAS_NODE=$(softroce/villas-node.sh)
    else
        echo "test-real-verbs: NOTICE: no shared/third-party beside the checkout: interop/villas.sh is left out" >&2
    fi
fi
export IBEX_VILLAS_NODE=${IBEX_VILLAS_NODE-}

selectors=("$@")
# The fuzz tests (Jazzer) feed the decoders and config readers bytes, with no provider under them, so they add
# nothing on disni; and Jazzer's agent fails to install in the guest's JVM ("Failed to run Agent.install").
[ ${#selectors[@]} -gt 0 ] || selectors=(--select-package io.ibex.rdma.conformance --select-package io.ibex.rdma.provider.disni \
    --select-package io.ibex.transport.channel --select-package io.ibex.transport.sample \
    --exclude-classname '.*FuzzTest')
printf '%q ' "${selectors[@]}" > "$OUT/selectors"
interop=${IBEX_INTEROP-softroce/interop/*.sh}
[ -n "$IBEX_VILLAS_NODE" ] || [ -n "${IBEX_INTEROP+set}" ] || interop=$(ls softroce/interop/*.sh | grep -v '/villas\.sh$')
echo "$interop" > "$OUT/interop"

passed=()
for var in IBEX_TEST_SAMPLES IBEX_TEST_CYCLES IBEX_SOAK_SAMPLES IBEX_SOAK_IDLE IBEX_SOAK_DEPTH INTEROP_TIMEOUT \
    IBEX_VILLAS_NODE IBEX_VILLAS_ONLY
do
    [ -z "${!var-}" ] || passed+=(-e "$var")
done
echo "--- guest: real verbs on rxe0"
exec softroce/run-in-guest.sh -t "${SOFTROCE_TIMEOUT:-3000}" "${passed[@]}" -- bash softroce/real-verbs-guest.sh "$OUT"
