#!/bin/bash
# Steps kept and CPU per 100,000 samples of cold `ibex node` runs beside VILLASnode's C runner, on the host with
# the soft provider, quiet and with one core kept busy elsewhere, configs alternating within each round:
#   ibex-file        signal -> file
#   ibex-ib          signal -> infiniband source -> infiniband target -> file (RC, loopback; every key the seed
#                    example leaves out at its default)
#   villas-file      the same signal -> file in villas-node 1.2.0 (softroce/villas-node.sh)
#   villas-loopback  signal -> loopback -> file in villas-node (its in-process hand-off; no RDMA on the host)
# and, inside the Soft-RoCE guest (benchmarks/runner/steps-guest.sh), on rxe0 at $SOFTROCE_IP:
#   ibex-rxe         ibex-ib on the disni provider (give the JVM -Dibex.native.library through STEPS_JVMS)
#   villas-rxe       signal -> infiniband source in one villas-node, infiniband target -> file in a second one
#                    (started first; a VILLAS path cannot write to an infiniband and a file node, so no generated
#                    file and no compare: its steps kept are what its target wrote)
# The signal node is the seed example's: mixed, 3 values, 100 kHz, 100,000 steps. A run's steps kept are the
# samples in its last file; CPU is the process's user + system time, start-up and JIT included. Each ibex-ib run is
# checked with `ibex compare` (what the generator made = what arrived). Each run's directory keeps its output and
# its config. After the rounds of a load, one more run of each config reads the CPU of each of its threads from /proc
# every 50 ms (runs/LOAD-CONFIG-threads/threads; not in the figures: the reading costs the runs steps).
# usage: benchmarks/runner/steps.sh [-n] [OUT-DIR]   (-n: no Maven build; OUT-DIR default target/runner-steps)
# environment: STEPS_ROUNDS (5), STEPS_LOADS ("quiet busy"), STEPS_RATE (100000), STEPS_LIMIT (100000),
#   STEPS_CONFIGS (all four), STEPS_JVMS: the JVMs each ibex config runs on, in turn, as NAME=COMMAND pairs
#   separated by ";" (default "java=java"; e.g. "c1=java -XX:TieredStopAtLevel=1;jdk25=/usr/lib/jvm/.../bin/java");
#   with more than one, an ibex config's name in the results gets "@NAME"; STEPS_THREADS= (empty) skips the
#   per-thread runs.
# Writes OUT-DIR/runs.csv (one row a run) and OUT-DIR/summary.md (medians; the ratio of each config's steps kept to
# signal -> file's of the same runner, JVM and load).
set -euo pipefail
checkout=$(cd "$(dirname "$0")/../.." && pwd)
build=1
[ "${1:-}" != -n ] || { build=0; shift; }
out=$(realpath -m "${1:-$checkout/target/runner-steps}")
rounds=${STEPS_ROUNDS:-5} rate=${STEPS_RATE:-100000} limit=${STEPS_LIMIT:-100000}
loads=${STEPS_LOADS:-quiet busy}
configs=${STEPS_CONFIGS:-ibex-file ibex-ib villas-file villas-loopback}
declare -A jvms=()
jvm_names=()
IFS=';' read -r -a jvm_pairs <<< "${STEPS_JVMS:-java=java}"
for pair in "${jvm_pairs[@]}"; do
    jvms[${pair%%=*}]=${pair#*=}
    jvm_names+=("${pair%%=*}")
done
jar=$checkout/rdma-samples/target/ibex.jar

[ $build = 0 ] || (cd "$checkout" && mvn -q -B package -DskipTests)
[ -r "$jar" ] || { echo "no $jar: build first" >&2; exit 1; }
villas=$("$checkout/softroce/villas-node.sh")
rm -rf "$out" && mkdir -p "$out/runs"

signal="siggen = { type = \"signal\", signal = \"mixed\", values = 3, frequency = 3.0, rate = $rate, limit = $limit }"
ibex_config()
{
    case $1 in
    ibex-file) cat <<CONF
nodes = {
  $signal,
  results = { type = "file", uri = "RUN/results.log" }
}
paths = ( { in = "siggen", out = "results" } )
CONF
    ;;
    ibex-ib|ibex-rxe) cat <<CONF
nodes = {
  $signal,
  generated = { type = "file", uri = "RUN/generated.log" },
  results = { type = "file", uri = "RUN/results.log" },
  source = { type = "infiniband", provider = "PROVIDER", in = { address = "IP:PORT1" },
    out = { address = "IP:PORT2" } },
  target = { type = "infiniband", provider = "PROVIDER", in = { address = "IP:PORT2" } }
}
paths = ( { in = "siggen", out = [ "source", "generated" ] }, { in = "target", out = "results" } )
CONF
    ;;
    villas-file) cat <<CONF
hugepages = 0
nodes = {
  $signal,
  results = { type = "file", uri = "RUN/results.log" }
}
paths = ( { in = "siggen", out = "results" } )
CONF
    ;;
    villas-loopback) cat <<CONF
hugepages = 0
nodes = {
  $signal,
  hop = { type = "loopback", queuelen = 8192 },
  results = { type = "file", uri = "RUN/results.log" }
}
paths = ( { in = "siggen", out = "hop" }, { in = "hop", out = "results" } )
CONF
    ;;
    villas-rxe) cat <<CONF
hugepages = 0
idle_stop = true
nodes = {
  $signal,
  source = { type = "infiniband", in = { address = "IP:PORT1" }, out = { address = "IP:PORT2" } }
}
paths = ( { in = "siggen", out = "source" } )
CONF
    ;;
    villas-rxe-target) cat <<CONF
hugepages = 0
nodes = {
  target = { type = "infiniband", in = { address = "IP:PORT2" } },
  results = { type = "file", uri = "RUN/results.log" }
}
paths = ( { in = "target", out = "results" } )
CONF
    ;;
    esac
}

# The villas-rxe target: started before its source, listening on rdma_cm within 60 s (a cold start in the guest).
villas_target_start()
{
    local dir=$1 port=$2 i
    /usr/bin/time -f '%U %S' -o "$dir/time.target" "$villas" "$dir/target.conf" > "$dir/target.output" 2>&1 &
    target_timed=$!
    for i in $(seq 600); do
        ! rdma resource show cm_id | grep "state LISTEN" | grep -Eq "src-addr [^ ]*:$port( |\$)" || return 0
        sleep 0.1
    done
    echo "villas-rxe: the target did not listen on port $port within 60 s" >&2
}

# An RC VILLAS target ignores SIGINT: SIGINT, then SIGKILL after 3 s; a second after its source ended.
villas_target_stop()
{
    local i
    sleep 1
    pkill -INT -P "$target_timed" || true
    for i in $(seq 30); do kill -0 "$target_timed" 2>/dev/null || break; sleep 0.1; done
    pkill -KILL -P "$target_timed" || true
    wait "$target_timed" || true
}

# villas-node runs on after its signal node reached the limit: SIGINT it half a second after it says so (its paths
# have written everything by then), or after 30 s.
villas_end()
{
    local output=$1 timed=$2 i
    for i in $(seq 300); do
        ! grep -q 'Reached limit' "$output" || { sleep 0.5; break; }
        sleep 0.1
    done
    pkill -INT -P "$timed" || true
}

# Keeps the CPU seconds of each thread of the process under PARENT (user + system, summed by thread name) in FILE,
# read from /proc every 50 ms until the process ends (a thread that ends early keeps its last reading).
sample_threads()
{
    local parent=$1 file=$2 pid= i
    for i in $(seq 100); do pid=$(pgrep -P "$parent" | head -1) && [ -n "$pid" ] && break; sleep 0.01; done
    [ -n "$pid" ] || return 0
    local tick readings=$file.readings
    tick=$(getconf CLK_TCK)
    while kill -0 "$pid" 2>/dev/null; do
        awk -v t="$tick" '{ o = index($0, "("); c = match($0, /\) [A-Z] /)
            split(substr($0, c + 2), f, " ")
            printf "%s\t%s\t%.2f\n", FILENAME, substr($0, o + 1, c - o - 1), (f[12] + f[13]) / t }' \
            /proc/"$pid"/task/*/stat 2>/dev/null > "$readings.new" && mv "$readings.new" "$readings.last" || true
        [ ! -s "$readings.last" ] || cat "$readings.last" >> "$readings"
        sleep 0.05
    done
    # the last reading of each thread, summed by name
    awk -F'\t' '{ last[$1] = $3; name[$1] = $2 } END { for (k in last) sum[name[k]] += last[k]
        for (n in sum) if (sum[n] > 0) printf "%6.2f s  %s\n", sum[n], n }' "$readings" 2>/dev/null | sort -rn > "$file"
    rm -f "$readings" "$readings.last" "$readings.new"
}

# Runs one config once, cold, on the JVM named (ignored for villas configs); appends its row to runs.csv.
run_one()
{
    local load=$1 config=$2 round=$3 jvm=$4 dir port status=ok name=$2 java
    [[ $config = villas-* || ${#jvm_names[@]} = 1 ]] || name=$config@$jvm
    read -r -a java <<< "${jvms[$jvm]}"
    dir=$out/runs/$load-$name-$round
    mkdir -p "$dir"
    port=$((20000 + RANDOM % 10000))
    local substitute=(-e "s|RUN|$dir|g" -e "s|PORT1|$port|g" -e "s|PORT2|$((port + 1))|g")
    case $config in
    *-rxe) substitute+=(-e "s|IP|${SOFTROCE_IP:?$config runs in the Soft-RoCE guest}|g" -e "s|PROVIDER|disni|g") ;;
    *) substitute+=(-e "s|IP|127.0.0.1|g" -e "s|PROVIDER|soft|g") ;;
    esac
    ibex_config "$config" | sed "${substitute[@]}" > "$dir/run.conf"
    local command=("${java[@]}" -jar "$jar" node "$dir/run.conf" --status-interval 0)
    [[ $config != villas-* ]] || command=("$villas" "$dir/run.conf")
    local started ended cpu timed target_timed=
    if [ "$config" = villas-rxe ]; then
        ibex_config villas-rxe-target | sed "${substitute[@]}" > "$dir/target.conf"
        villas_target_start "$dir" $((port + 1))
    fi
    started=$(date +%s%N)
    /usr/bin/time -f '%U %S' -o "$dir/time" "${command[@]}" > "$dir/output" 2>&1 &
    timed=$!
    local sampler=
    if [ "$round" = threads ]; then
        sample_threads "$timed" "$dir/threads" &
        sampler=$!
    fi
    if [[ $config = villas-* ]]; then
        villas_end "$dir/output" "$timed"
    fi
    wait "$timed" || status="exit $?"
    [ -z "$sampler" ] || wait "$sampler"
    [ -z "$target_timed" ] || villas_target_stop
    ended=$(date +%s%N)
    cpu=$(for file in "$dir"/time*; do tail -1 "$file"; done | awk '{ cpu += $1 + $2 } END { print cpu }')
    local kept
    kept=$(grep -c -v '^#' "$dir/results.log" 2>/dev/null || true)
    if [[ $config = ibex-ib || $config = ibex-rxe ]] && [ "$status" = ok ]; then
        java -jar "$jar" compare "$dir/generated.log" "$dir/results.log" > "$dir/compare" 2>&1 ||
            status="compare differs"
    fi
    if [ "$round" = threads ]; then
        printf '%-6s %-22s threads: %s\n' "$load" "$name" "$(awk '{ cpu = $1; sub(/^ *[0-9.]+ s  /, ""); printf "%s%s %s s", (NR > 1 ? ", " : ""), $0, cpu }' "$dir/threads")"
        return
    fi
    echo "$load,$name,$round,${kept:-0},$cpu,$(((ended - started) / 1000000)),$status" >> "$out/runs.csv"
    printf '%-6s %-22s round %d: %6d steps kept, %5.2f s CPU, %s\n' "$load" "$name" "$round" "${kept:-0}" "$cpu" \
        "$status"
}

busy_pid=
stop_busy() { [ -z "$busy_pid" ] || kill "$busy_pid" 2>/dev/null || true; busy_pid=; }
trap stop_busy EXIT
{
    echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$checkout" rev-parse --short HEAD)"
    echo "cores: $(nproc), load: $(cut -d' ' -f1-3 /proc/loadavg)"
    for jvm in "${jvm_names[@]}"; do
        echo "jvm $jvm: ${jvms[$jvm]} ($(${jvms[$jvm]} -version 2>&1 | head -1))"
    done
    echo "villas-node: $villas"
} > "$out/machine.txt"
echo "load,config,round,kept,cpu_s,wall_ms,status" > "$out/runs.csv"
for load in $loads; do
    if [ "$load" = busy ]; then
        sh -c 'while :; do :; done' & busy_pid=$!
        sleep 1
    fi
    for round in $(seq 1 "$rounds") ${STEPS_THREADS-threads}; do
        for config in $configs; do
            if [[ $config = villas-* ]]; then
                run_one "$load" "$config" "$round" "${jvm_names[0]}"
                continue
            fi
            for jvm in "${jvm_names[@]}"; do
                run_one "$load" "$config" "$round" "$jvm"
            done
        done
    done
    stop_busy
done

awk -F, -v limit="$limit" '
    NR == 1 { next }
    { key = $1 "," $2; n[key]++; kept[key, n[key]] = $3 == "" ? 0 : $4; cpu[key, n[key]] = $5
      if ($7 != "ok") bad[key]++; if (!(key in seen)) { seen[key] = 1; order[++keys] = key } }
    function median(arr, key, count,   i, j, t, v) {
        for (i = 1; i <= count; i++) v[i] = arr[key, i]
        for (i = 1; i <= count; i++) for (j = i + 1; j <= count; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
        return count % 2 ? v[(count + 1) / 2] : (v[count / 2] + v[count / 2 + 1]) / 2
    }
    END {
        print "| load | config | runs | steps kept, median (of " limit ") | vs signal -> file of the same runner | CPU s, median | CPU s per 100,000 kept | failed runs |"
        print "|---|---|---|---|---|---|---|---|"
        for (i = 1; i <= keys; i++) {
            key = order[i]; split(key, part, ",")
            k = median(kept, key, n[key]); c = median(cpu, key, n[key])
            at = index(part[2], "@"); suffix = at ? substr(part[2], at) : ""
            basekey = part[1] "," (part[2] ~ /^villas-/ ? "villas-file" : "ibex-file" suffix)
            base = median(kept, basekey, n[basekey])
            printf "| %s | %s | %d | %d | %s | %.2f | %s | %d |\n", part[1], part[2], n[key], k,
                (base > 0 ? sprintf("%.1f %%", 100 * k / base) : "-"), c, (k > 0 ? sprintf("%.2f", c * 100000 / k) : "-"),
                bad[key]
        }
    }' "$out/runs.csv" > "$out/summary.md"
cat "$out/machine.txt" "$out/summary.md"
