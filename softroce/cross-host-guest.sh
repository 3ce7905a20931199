#!/bin/bash
# Inside each guest of the pair (softroce/run-pair.sh, started by softroce/test-cross-host.sh): the cross-wire
# checks of $CROSS_HOST_SCRIPTS in order, in step with the other guest (guest b serves, guest a connects, checks
# and counts; see interop/lib.bash).
set -u
: "${SOFTROCE_ROLE:?not inside a guest of softroce/run-pair.sh}"
library=$PWD/rdma-core-api/target/native/libdisni.so
export IBEX="java -Dibex.native.library=$library -jar $PWD/rdma-samples/target/ibex.jar"
scripts=${CROSS_HOST_SCRIPTS:?the scripts to run (softroce/test-cross-host.sh sets them)}
echo "guest $SOFTROCE_ROLE: $SOFTROCE_IP on $SOFTROCE_NETDEV (mtu $(cat /sys/class/net/$SOFTROCE_NETDEV/mtu)," \
    "rxe0 active_mtu $(ibv_devinfo -d rxe0 | sed -n 's/.*active_mtu:\s*//p')), peer $SOFTROCE_PEER_IP"
failures=0
for script in $scripts; do
    echo "--- $script"
    bash "$script" || failures=$((failures + 1))
done
exit $failures
