# Sourced (". softroce/bench-lib.bash") by the benchmark scripts: the host side boots one guest with the
# benchmark settings, the guest side runs server/client pairs and JMH cases, detects crashed JVMs and reruns them.
#
# Host:
#   bench_build [-n]
#       mvn package (no tests) unless -n; fails unless libdisni.so, ibex.jar and benchmarks.jar are there.
#   bench_guest TIMEOUT [-e VAR | -w DIR]... -- COMMAND...
#       runs COMMAND in ONE Soft-RoCE guest boot with multi-threaded TCG (single-threaded TCG runs the vCPUs in
#       turns: a busy-polled round trip takes ~4 ms) and the TSC as the guest's clock source (System.nanoTime
#       ~0.25 us a call instead of 1-2 us with HPET); prints the host and its load before and after.
# Guest:
#   bench_init RUNS-DIR
#       every output goes to RUNS-DIR (emptied); sets IBEX_JAVA (java with the flags ibex needs, the hs_err files
#       into RUNS-DIR) and the counters bench_crashes and bench_failures.
#   bench_facts
#       prints the guest's kernel, vCPUs, clock source, rdma-core, perftest and the JDK.
#   bench_pair NAME java|c "SERVER COMMAND" "CLIENT COMMAND"
#       one server/client pair on a TCP port of its own (appended as -p PORT; the client also gets
#       $SOFTROCE_IP); a JVM pair that crashes is rerun, at most BENCH_RERUNS (3) times; each side is bounded by
#       BENCH_PAIR_TIMEOUT (300) seconds. Sets bench_result to the client's output file, empty on failure.
#   bench_jmh NAME JMH-ARGS...
#       one JMH case alone in one JVM (-f 0) on the disni provider at $SOFTROCE_IP, its log in RUNS-DIR/NAME.log;
#       a crashed JVM is rerun, at most BENCH_RERUNS times. Returns 0 when the case ran.
#   bench_result_line FILE
#       perftest's result line (the line after the one starting with " #bytes") in FILE.
#   bench_field FILE N
#       the Nth field of that line.
# A JVM crashed when it left an hs_err file or ended by a signal (exit code above 128; timeout's own 124 and
# its KILL, 137, are timeouts, not crashes): multi-threaded TCG crashes about one JVM launch in six (see the
# notes in docs/benchmarks.md). Any other failure counts in bench_failures.

bench_build()
{
    if [ "${1:-}" != "-n" ]; then
        echo "--- host: mvn package (no tests)"
        mvn -q -B package -DskipTests
    fi
    local file
    for file in rdma-core-api/target/native/libdisni.so rdma-samples/target/ibex.jar benchmarks/target/benchmarks.jar
    do
        [ -f "$file" ] || { echo "$(basename "$0"): build first ($file is missing)" >&2; return 1; }
    done
}

bench_guest()
{
    local timeout=$1 rc=0
    shift
    echo "--- host: $(nproc) cores, $(uname -r), $(qemu-system-x86_64 --version | head -1)"
    echo "--- host load before: $(uptime)"
    SOFTROCE_TCG_THREAD=multi SOFTROCE_KERNEL_ARGS="clocksource=tsc tsc=reliable" \
        softroce/run-in-guest.sh -t "$timeout" -e BENCH_RERUNS -e BENCH_PAIR_TIMEOUT "$@" || rc=$?
    echo "--- host load after: $(uptime)"
    return $rc
}

bench_init()
{
    : "${SOFTROCE_DEV:?not inside the Soft-RoCE guest}" "${SOFTROCE_IP:?not inside the Soft-RoCE guest}"
    bench_runs=$1
    rm -rf "$bench_runs" && mkdir -p "$bench_runs"
    IBEX_JAVA="java -Dibex.native.library=$PWD/rdma-core-api/target/native/libdisni.so"
    IBEX_JAVA+=" -XX:ErrorFile=$bench_runs/hs_err_pid%p.log"
    bench_crashes=0
    bench_failures=0
    bench_port=18515
    bench_result=
}

bench_facts()
{
    echo "kernel $(uname -r), $(nproc) vCPUs, clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
    echo "$(dpkg-query -W -f '${Package} ${Version}' rdma-core), $(dpkg-query -W -f '${Package} ${Version}' perftest)"
    echo "$(java -version 2>&1 | head -2 | tr '\n' ' ')"
}

# Whether something listens on TCP port $1.
bench_listening() { ss -Hltn "sport = :$1" | grep -q .; }

bench_crashed()
{
    local rc
    for rc in "$@"
    do
        if [ "$rc" -gt 128 ] && [ "$rc" != 137 ]; then return 0; fi
    done
    compgen -G "$bench_runs/hs_err_pid*.log" > /dev/null
}

# Reports a crash and moves its hs_err files aside, so the rerun starts clean.
bench_crash_seen()
{
    bench_crashes=$((bench_crashes + 1))
    echo "    CRASH: $1: $(ls "$bench_runs"/hs_err_pid*.log 2>/dev/null | xargs -r -n1 basename | tr '\n' ' ')"
    grep -h "^# Problematic frame" -A1 "$bench_runs"/hs_err_pid*.log 2>/dev/null | sed 's/^/      /'
    mkdir -p "$bench_runs/crashes" && mv "$bench_runs"/hs_err_pid*.log "$bench_runs/crashes/" 2>/dev/null
    return 0
}

bench_pair()
{
    local name=$1 is_java=$2 server=$3 client=$4 attempt server_pid server_rc client_rc waited log
    local timeout=${BENCH_PAIR_TIMEOUT:-300}
    bench_result=
    for attempt in $(seq 0 "${BENCH_RERUNS:-3}")
    do
        bench_port=$((bench_port + 1))
        log=$bench_runs/$name.$bench_port
        server_rc=0 client_rc=0 waited=0
        timeout -k 5 "$timeout" $server -p $bench_port > "$log.server" 2>&1 &
        server_pid=$!
        until bench_listening $bench_port
        do
            if ! kill -0 $server_pid 2>/dev/null || [ $waited -ge 900 ]; then break; fi
            sleep 0.1
            waited=$((waited + 1))
        done
        if bench_listening $bench_port; then
            timeout -k 5 "$timeout" $client -p $bench_port "$SOFTROCE_IP" > "$log.client" 2>&1 || client_rc=$?
        else
            echo "server never listened on port $bench_port" > "$log.client"
            client_rc=1
        fi
        [ $client_rc = 0 ] || kill $server_pid 2>/dev/null
        wait $server_pid || server_rc=$?
        if [ "$is_java" = java ] && bench_crashed $server_rc $client_rc; then
            bench_crash_seen "$name attempt $attempt (server rc $server_rc, client rc $client_rc)"
            continue
        fi
        if [ $server_rc != 0 ] || [ $client_rc != 0 ]; then
            bench_failures=$((bench_failures + 1))
            echo "    FAIL: $name (server rc $server_rc, client rc $client_rc); outputs in $log.*"
            tail -3 "$log.server" "$log.client" | sed 's/^/      /'
            return 1
        fi
        bench_result=$log.client
        return 0
    done
    bench_failures=$((bench_failures + 1))
    echo "    FAIL: $name crashed $((${BENCH_RERUNS:-3} + 1)) times"
    return 1
}

bench_jmh()
{
    local name=$1 attempt rc
    shift
    for attempt in $(seq 0 "${BENCH_RERUNS:-3}")
    do
        rc=0
        $IBEX_JAVA -jar benchmarks/target/benchmarks.jar "$@" -p provider=disni -p address="$SOFTROCE_IP" -f 0 \
            -foe true > "$bench_runs/$name.log" 2>&1 || rc=$?
        if [ "$rc" = 0 ]; then
            sed -n '/^Benchmark /,$p' "$bench_runs/$name.log"
            return 0
        fi
        if ! bench_crashed "$rc"; then
            bench_failures=$((bench_failures + 1))
            echo "    FAIL: $name (exit code $rc), see $bench_runs/$name.log:"
            grep -m 5 -i "exception\|error" "$bench_runs/$name.log" | sed 's/^/      /'
            return 1
        fi
        bench_crash_seen "$name attempt $attempt (exit code $rc)"
    done
    bench_failures=$((bench_failures + 1))
    echo "    FAIL: $name crashed $((${BENCH_RERUNS:-3} + 1)) times"
    return 1
}

bench_result_line() { awk 'found { print; exit } /^ #bytes/ { found = 1 }' "$1"; }
bench_field() { [ -n "$1" ] && bench_result_line "$1" | awk -v f="$2" '{ print $f }'; }
