#!/bin/bash
# Interop: `ibex devinfo` prints what rdma-core's ibv_devinfo prints for the same device, every line, tabs
# included (run by softroce/real-verbs-guest.sh inside the Soft-RoCE guest; see lib.bash).
set -u
. "$(dirname "$0")/lib.bash"

work=$(mktemp -d /tmp/devinfo.XXXXXX)

# Runs both with the same options and compares their whole outputs.
same()
{
    echo "--- devinfo $*"
    ibv_devinfo "$@" > "$work/c.out" 2>&1
    $IBEX devinfo "$@" > "$work/ibex.out" 2> "$work/ibex.err"
    sed 's/^/  | /' "$work/ibex.out"
    check "ibex devinfo $* prints what ibv_devinfo $* prints" diff -u "$work/c.out" "$work/ibex.out"
}

same -d "$SOFTROCE_DEV"
same -d "$SOFTROCE_DEV" -i 1
same -l

echo "--- devinfo -d $SOFTROCE_DEV -i 2 (no such port)"
$IBEX devinfo -d "$SOFTROCE_DEV" -i 2 > "$work/ibex.out" 2> "$work/ibex.err"
rc=$?
sed 's/^/  | /' "$work/ibex.err"
check "ibex devinfo -i 2 exits with 1" test $rc = 1
check "ibex devinfo -i 2 names the port" grep -q "^ibex devinfo: error: port 2 out of range" "$work/ibex.err"

rm -rf "$work"
finish
