#!/bin/bash
# Inside the Soft-RoCE guest: the second half of softroce/test-real-verbs.sh (which prepared $1).
set -u
out=${1:?usage: real-verbs-guest.sh OUT-DIR (run by softroce/test-real-verbs.sh)}
: "${SOFTROCE_DEV:?not inside the Soft-RoCE guest}"

java_flags=(--add-exports java.base/sun.nio.ch=ALL-UNNAMED -Djava.library.path="$PWD/rdma-core-api/target/native")
export IBEX="java ${java_flags[*]} -jar $PWD/rdma-samples/target/ibex.jar"
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
