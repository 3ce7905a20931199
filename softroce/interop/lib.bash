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
#   perftest_result FILE
#       the fields of perftest's result line in FILE (the line under its " #bytes" header), as `ibex send-lat` and
#       the other perf programs print it too.
#   channel_config MODE
#       writes $CHANNEL_EXAMPLE (`ibex channel`'s example config) for rxe0 in transport mode MODE (provider disni,
#       the server's address in place of 127.0.0.1, the guest's own for the source's in.address, nothing else
#       changed) and prints the file's name.
#   SERVER_IP
#       the address a pair's server listens on and its client connects to: $SOFTROCE_IP in one guest.
#
# Across two guests (softroce/run-pair.sh sets SOFTROCE_ROLE), both run the same script in step: guest b runs
# each pair's server, guest a its client, a step starting when both guests reached it; logs and $interop_work
# are in the directory the pair shares ($interop_local is each guest's own), and guest a alone checks and
# counts. SERVER_IP is then guest b's address.
#
# $IBEX is the ibex command line (java with its flags and -jar ibex.jar), $SOFTROCE_DEV the device,
# $SOFTROCE_IP its address.
: "${SOFTROCE_DEV:?not inside the Soft-RoCE guest (run through softroce/test-real-verbs.sh)}"
: "${IBEX:?IBEX (the ibex command line) is unset}"

INTEROP_TIMEOUT=${INTEROP_TIMEOUT:-120}
TARGET_WAIT_MS=$(( (INTEROP_TIMEOUT - 10) * 1000 ))
interop_failures=0
interop_local=$(mktemp -d /tmp/interop.XXXXXX)
role=${SOFTROCE_ROLE:-}
if [ -n "$role" ]; then
    : "${SOFTROCE_PAIR:?SOFTROCE_ROLE without SOFTROCE_PAIR (run through softroce/run-pair.sh)}"
    interop_work=$SOFTROCE_PAIR/work/$(basename "$0" .sh)
    mkdir -p "$interop_work"
    SERVER_IP=$([ "$role" = b ] && echo "$SOFTROCE_IP" || echo "$SOFTROCE_PEER_IP")
else
    interop_work=$interop_local
    SERVER_IP=$SOFTROCE_IP
fi
SERVER_LOG=$interop_work/server.log
CLIENT_LOG=$interop_work/client.log
interop_step=0

# Whether something listens on port $2: a TCP socket ($1 = tcp) or an rdma_cm id ($1 = cm).
listening()
{
    case $1 in
        tcp) ss -Hltn "sport = :$2" | grep -q . ;;
        cm) rdma resource show cm_id | grep "state LISTEN" | grep -Eq "src-addr [^ ]*:$2( |\$)" ;;
        *) echo "interop: unknown listener kind '$1'" >&2; return 2 ;;
    esac
}

# Across two guests: waits (up to $2 tenths of a second) until file $1 exists; false if it never did.
await_file()
{
    local file=$1 tenths=$2 waited=0
    until [ -e "$file" ]; do
        [ $waited -lt "$tenths" ] || { echo "the other guest never wrote $(basename "$file")"; return 1; }
        sleep 0.1
        waited=$((waited + 1))
    done
}

# Across two guests: both reach step $1 before either goes on.
step_barrier()
{
    touch "$interop_work/$1.$role"
    await_file "$interop_work/$1.$([ "$role" = a ] && echo b || echo a)" $(( (INTEROP_TIMEOUT + 60) * 10 ))
}

pair()
{
    local name=$1 kind=$2 port=$3 server=$4 client=$5 server_pid server_rc=0 client_rc=0
    if [ -n "$role" ]; then
        pair_across "$@"
        return
    fi
    pair_header "$name" "$server" "$client"
    timeout -k 5 "$INTEROP_TIMEOUT" bash -c "$server" > "$SERVER_LOG" 2>&1 &
    server_pid=$!
    await_listening "$server_pid" "$kind" "$port"
    timeout -k 5 "$INTEROP_TIMEOUT" bash -c "$client" > "$CLIENT_LOG" 2>&1 || client_rc=$?
    # A server whose client failed may wait for ever: stop it.
    [ $client_rc = 0 ] || kill "$server_pid" 2>/dev/null
    wait "$server_pid" || server_rc=$?
    pair_verdict "$name" "$server_rc" "$client_rc"
}

pair_header()
{
    echo "--- $1"
    echo "server: $2"
    echo "client: $3"
}

# Waits until the server $1 listens on $2 port $3; JVMs start slowly under emulation, so it allows a minute.
await_listening()
{
    local pid=$1 kind=$2 port=$3 waited=0
    until listening "$kind" "$port"
    do
        if ! kill -0 "$pid" 2>/dev/null || [ $waited -ge 600 ]; then
            echo "server never listened on $kind port $port"
            return 1
        fi
        sleep 0.1
        waited=$((waited + 1))
    done
}

# Prints both outputs and the pair's PASS/FAIL line (name $1, server's and client's exit codes $2 and $3), counts a
# failure; returns 0 when both exited with 0.
pair_verdict()
{
    echo "server output (rc $2):"; sed 's/^/  | /' "$SERVER_LOG"
    echo "client output (rc $3):"; sed 's/^/  | /' "$CLIENT_LOG"
    if [ "$2" = 0 ] && [ "$3" = 0 ]; then
        echo "PASS: $1"
        return 0
    fi
    echo "FAIL: $1"
    interop_failures=$((interop_failures + 1))
    return 1
}

# pair's two halves in two guests: b runs the server, a the client; both return what the pair did.
pair_across()
{
    local name=$1 kind=$2 port=$3 server=$4 client=$5 server_pid rc=0 step
    interop_step=$((interop_step + 1))
    step=step$interop_step
    step_barrier "$step" || return 1
    if [ "$role" = b ]; then
        timeout -k 5 "$INTEROP_TIMEOUT" bash -c "$server" > "$SERVER_LOG" 2>&1 &
        server_pid=$!
        await_listening "$server_pid" "$kind" "$port"
        touch "$interop_work/$step.listening"
        while kill -0 "$server_pid" 2>/dev/null; do
            [ ! -e "$interop_work/$step.client-failed" ] || kill "$server_pid" 2>/dev/null
            sleep 0.2
        done
        wait "$server_pid" || rc=$?
        echo "$rc" > "$interop_work/$step.server-rc"
        await_file "$interop_work/$step.client-rc" 600 || return 1
        [ "$(cat "$interop_work/$step.client-rc")" = 0 ] && [ $rc = 0 ]
        return
    fi
    pair_header "$name (server in guest b at $SERVER_IP, client in guest a)" "$server" "$client"
    await_file "$interop_work/$step.listening" $(( (INTEROP_TIMEOUT + 60) * 10 )) || true
    timeout -k 5 "$INTEROP_TIMEOUT" bash -c "$client" > "$CLIENT_LOG" 2>&1 || rc=$?
    [ $rc = 0 ] || touch "$interop_work/$step.client-failed"
    echo "$rc" > "$interop_work/$step.client-rc"
    await_file "$interop_work/$step.server-rc" $(( (INTEROP_TIMEOUT + 30) * 10 )) || echo 1 > "$interop_work/$step.server-rc"
    pair_verdict "$name" "$(cat "$interop_work/$step.server-rc")" "$rc"
}

check()
{
    local description=$1
    [ "$role" != b ] || return 0 # across two guests, guest a checks
    shift
    if "$@"; then
        echo "PASS: $description"
    else
        echo "FAIL: $description"
        interop_failures=$((interop_failures + 1))
    fi
}

perftest_result() { awk 'found { print; exit } /^ #bytes/ { found = 1 }' "$1"; }

readonly CHANNEL_EXAMPLE=examples/channel-loopback.conf

channel_config()
{
    local config=$interop_local/channel-$1.conf
    sed -e "/the source's own address/s/127\.0\.0\.1:/$SOFTROCE_IP:/" -e "s/127\.0\.0\.1:/$SERVER_IP:/" \
        -e 's/provider = "soft"/provider = "disni"/' \
        -e "s/rdma_transport_mode = \"RC\"/rdma_transport_mode = \"$1\"/" "$CHANNEL_EXAMPLE" > "$config"
    echo "$config"
}

finish()
{
    rm -rf "$interop_local"
    echo "--- $(basename "$0"): $interop_failures failed"
    exit "$interop_failures"
}
