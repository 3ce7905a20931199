#!/bin/bash
# Short self-check of the guest's Soft-RoCE stack, run inside the guest:
#   softroce/run-in-guest.sh -- bash softroce/smoke.sh
# Checks that rxe0 is active and that one verbs and one perftest server/client pair pass on it.
# Exits with the number of failed checks (0 = all passed).
set -u
dev=${SOFTROCE_DEV:?not inside the Soft-RoCE guest (run through softroce/run-in-guest.sh)}
ip=${SOFTROCE_IP:?SOFTROCE_IP unset}
failures=0

check() { if "$@"; then echo "PASS: $*"; else echo "FAIL: $*"; failures=$((failures + 1)); fi; }

port_active()
{
    ibv_devinfo -d "$dev" | tee /tmp/devinfo.log
    grep -q 'state:.*PORT_ACTIVE' /tmp/devinfo.log
}

# A server waits on TCP port $1 for its client to exchange QP details; start the client only once
# it listens (bounded), and bound both so a lost peer cannot hang the guest.
pair()
{
    local port=$1 server=$2 client=$3 server_pid server_rc client_rc
    timeout 30 $server > /tmp/server.log 2>&1 &
    server_pid=$!
    for _ in $(seq 100)
    do
        ss -ltn | grep -q ":$port " && break
        sleep 0.1
    done
    timeout 30 $client > /tmp/client.log 2>&1
    client_rc=$?
    wait "$server_pid"
    server_rc=$?
    echo "--- server: $server (rc $server_rc)"; cat /tmp/server.log
    echo "--- client: $client (rc $client_rc)"; cat /tmp/client.log
    [ "$server_rc" = 0 ] && [ "$client_rc" = 0 ]
}

check port_active
# Few iterations: under single-threaded TCG each round trip costs milliseconds.
check pair 18515 "ibv_rc_pingpong -d $dev -g 1 -n 100" "ibv_rc_pingpong -d $dev -g 1 -n 100 $ip"
check pair 18515 "ib_send_lat -d $dev -x 1 -n 200" "ib_send_lat -d $dev -x 1 -n 200 $ip"
echo "smoke: $failures failed"
exit "$failures"
