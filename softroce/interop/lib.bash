# Sourced (". softroce/interop/lib.bash") by the interop scripts in this folder, which softroce/real-verbs-guest.sh runs inside the
# Soft-RoCE guest: each script pairs an ibex command with a C tool of rdma-core or perftest, both ways round.
#
#   pair NAME tcp|cm PORT "SERVER COMMAND" "CLIENT COMMAND"
#       starts the server in the background, waits until it listens on PORT (a TCP socket, or an rdma_cm
#       id in LISTEN state), runs the client, waits for the server; both are bounded by $INTEROP_TIMEOUT
#       seconds. Prints both outputs and one PASS/FAIL line; returns 0 when both exited with 0. The outputs
#       stay in $SERVER_LOG and $CLIENT_LOG for the script's own checks.
#   check DESCRIPTION COMMAND...
#       runs COMMAND, prints PASS/FAIL with the description, counts a failure.
#   finish
#       prints the summary and exits with the number of failures.
#   TARGET_WAIT_MS
#       the --timeout-ms for an `ibex channel` target: just under $INTEROP_TIMEOUT. A target's wait for its source
#       starts before the source's JVM does, which under emulation on a busy host took over 60 s; a target that gave
#       up first stopped listening, and its source then met REJECTED (status 8) until it gave up too.
#   channel_config MODE
#       writes $CHANNEL_EXAMPLE (`ibex channel`'s example config) for rxe0 in transport mode MODE (provider disni,
#       the guest's address in place of 127.0.0.1, nothing else changed) and prints the file's name.
#
# $IBEX is the ibex command line (java with its flags and -jar ibex.jar), $SOFTROCE_DEV the device,
# $SOFTROCE_IP its address.
: "${SOFTROCE_DEV:?not inside the Soft-RoCE guest (run through softroce/test-real-verbs.sh)}"
: "${IBEX:?IBEX (the ibex command line) is unset}"

INTEROP_TIMEOUT=${INTEROP_TIMEOUT:-120}
TARGET_WAIT_MS=$(( (INTEROP_TIMEOUT - 10) * 1000 ))
interop_failures=0
interop_work=$(mktemp -d /tmp/interop.XXXXXX)
SERVER_LOG=$interop_work/server.log
CLIENT_LOG=$interop_work/client.log

# Whether something listens on port $2: a TCP socket ($1 = tcp) or an rdma_cm id ($1 = cm).
listening()
{
    case $1 in
        tcp) ss -Hltn "sport = :$2" | grep -q . ;;
        cm) rdma resource show cm_id | grep "state LISTEN" | grep -Eq "src-addr [^ ]*:$2( |\$)" ;;
        *) echo "interop: unknown listener kind '$1'" >&2; return 2 ;;
    esac
}

pair()
{
    local name=$1 kind=$2 port=$3 server=$4 client=$5 server_pid server_rc=0 client_rc=0 waited=0
    echo "--- $name"
    echo "server: $server"
    echo "client: $client"
    timeout -k 5 "$INTEROP_TIMEOUT" bash -c "$server" > "$SERVER_LOG" 2>&1 &
    server_pid=$!
    # JVMs start slowly under emulation: allow a minute for the server to listen.
    until listening "$kind" "$port"
    do
        if ! kill -0 "$server_pid" 2>/dev/null || [ $waited -ge 600 ]; then
            echo "server never listened on $kind port $port"
            break
        fi
        sleep 0.1
        waited=$((waited + 1))
    done
    timeout -k 5 "$INTEROP_TIMEOUT" bash -c "$client" > "$CLIENT_LOG" 2>&1 || client_rc=$?
    # A server whose client failed may wait for ever: stop it.
    [ $client_rc = 0 ] || kill "$server_pid" 2>/dev/null
    wait "$server_pid" || server_rc=$?
    echo "server output (rc $server_rc):"; sed 's/^/  | /' "$SERVER_LOG"
    echo "client output (rc $client_rc):"; sed 's/^/  | /' "$CLIENT_LOG"
    if [ $server_rc = 0 ] && [ $client_rc = 0 ]; then
        echo "PASS: $name"
        return 0
    fi
    echo "FAIL: $name"
    interop_failures=$((interop_failures + 1))
    return 1
}

check()
{
    local description=$1
    shift
    if "$@"; then
        echo "PASS: $description"
    else
        echo "FAIL: $description"
        interop_failures=$((interop_failures + 1))
    fi
}

readonly CHANNEL_EXAMPLE=examples/channel-loopback.conf

channel_config()
{
    local config=$interop_work/channel-$1.conf
    sed -e "s/127\.0\.0\.1:/$SOFTROCE_IP:/" -e 's/provider = "soft"/provider = "disni"/' \
        -e "s/rdma_transport_mode = \"RC\"/rdma_transport_mode = \"$1\"/" "$CHANNEL_EXAMPLE" > "$config"
    echo "$config"
}

finish()
{
    rm -rf "$interop_work"
    echo "--- $(basename "$0"): $interop_failures failed"
    exit "$interop_failures"
}
