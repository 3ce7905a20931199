#!/bin/bash
# Inside the Soft-RoCE guest: the second half of softroce/test-real-verbs.sh (which prepared $1).
set -u
out=${1:?usage: real-verbs-guest.sh OUT-DIR (run by softroce/test-real-verbs.sh)}
: "${SOFTROCE_DEV:?not inside the Soft-RoCE guest}"

# This build's library by path (the provider needs no other flag); the tests that cross-check with DiSNI's Java
# also need it on java.library.path (DiSNI loads libdisni) and sun.nio.ch exported (DiSNI reads buffer addresses).
library=$PWD/rdma-core-api/target/native/libdisni.so
export IBEX="java -Dibex.native.library=$library -jar $PWD/rdma-samples/target/ibex.jar"
java_flags=(-Dibex.native.library="$library" -Djava.library.path="$(dirname "$library")"
    --add-exports java.base/sun.nio.ch=ALL-UNNAMED)
export IBEX_PROVIDER=disni
failures=0

echo "--- JUnit on the disni provider: $(cat "$out/selectors")"
eval "selectors=($(cat "$out/selectors"))"
java "${java_flags[@]}" \
    -Dibex.provider=disni -Dibex.test.device="$SOFTROCE_DEV" -Dibex.test.address="$SOFTROCE_IP" \
    -Dibex.test.samples="${IBEX_TEST_SAMPLES:-100000}" -Dibex.test.cycles="${IBEX_TEST_CYCLES:-20}" \
    -Djunit.jupiter.extensions.autodetection.enabled=true \
    -jar "$out"/junit-platform-console-standalone-*.jar execute \
    -cp "rdma-core-api/target/test-classes:rdma-core-api/target/classes:rdma-transport/target/test-classes:rdma-transport/target/classes:$(cat "$out"/classpath-rdma-core-api):$(cat "$out"/classpath-rdma-transport)" \
    --disable-banner --disable-ansi-colors --details=tree --fail-if-no-tests --reports-dir="$out/reports" "${selectors[@]}" \
    || failures=$((failures + 1))

resources() { rdma resource show | sed 's/^[0-9]*: //'; }
for script in $(cat "$out/interop")
do
    [ -f "$script" ] || continue
    echo "--- interop: $script"
    before=$(resources)
    bash "$script" || { echo "FAIL: $script"; failures=$((failures + 1)); }
    after=$(resources)
    if [ "$before" != "$after" ]; then
        echo "FAIL: $script left kernel RDMA resources behind: before [$before] after [$after]"
        failures=$((failures + 1))
    fi
done

echo "--- real verbs: $failures failed group(s)"
[ $failures = 0 ]
