#!/bin/bash
# Steps kept and CPU per 100,000 samples of cold `ibex node` runs beside VILLASnode's C runner, on the host with
# the soft provider, quiet and with one core kept busy elsewhere, configs alternating within each round:
#   ibex-file        signal -> file
#   ibex-ib          signal -> infiniband source -> infiniband target -> file (RC, loopback; every key the seed
#                    example leaves out at its default)
#   villas-file      the same signal -> file in villas-node 1.2.0 (softroce/villas-node.sh)
#   villas-loopback  signal -> loopback -> file in villas-node (its in-process hand-off; no RDMA on the host)
# The signal node is the seed example's: mixed, 3 values, 100 kHz, 100,000 steps. A run's steps kept are the
# samples in its last file; CPU is the process's user + system time, start-up and JIT included. Each ibex-ib run is
# checked with `ibex compare` (what the generator made = what arrived). Each run's directory keeps its output, its
# config and the CPU of each of its threads (threads).
# usage: benchmarks/runner/steps.sh [-n] [OUT-DIR]   (-n: no Maven build; OUT-DIR default target/runner-steps)
# environment: STEPS_ROUNDS (5), STEPS_LOADS ("quiet busy"), STEPS_RATE (100000), STEPS_LIMIT (100000),
#   STEPS_JAVA (java), STEPS_JAVA_OPTS (none), STEPS_CONFIGS (all four).
# Writes OUT-DIR/runs.csv (one row a run) and OUT-DIR/summary.md (medians, ratios to ibex-file of the same load).
set -euo pipefail
checkout=$(cd "$(dirname "$0")/../.." && pwd)
build=1
[ "${1:-}" != -n ] || { build=0; shift; }
out=$(realpath -m "${1:-$checkout/target/runner-steps}")
rounds=${STEPS_ROUNDS:-5} rate=${STEPS_RATE:-100000} limit=${STEPS_LIMIT:-100000}
loads=${STEPS_LOADS:-quiet busy} java=${STEPS_JAVA:-java}
configs=${STEPS_CONFIGS:-ibex-file ibex-ib villas-file villas-loopback}
read -r -a java_opts <<< "${STEPS_JAVA_OPTS:-}"
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
    ibex-ib) cat <<CONF
nodes = {
  $signal,
  generated = { type = "file", uri = "RUN/generated.log" },
  results = { type = "file", uri = "RUN/results.log" },
  source = { type = "infiniband", provider = "soft", in = { address = "127.0.0.1:PORT1" },
    out = { address = "127.0.0.1:PORT2" } },
  target = { type = "infiniband", provider = "soft", in = { address = "127.0.0.1:PORT2" } }
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
    esac
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

# Runs one config once, cold; appends its row to runs.csv.
run_one()
{
    local load=$1 config=$2 round=$3 dir port status=ok
    dir=$out/runs/$load-$config-$round
    mkdir -p "$dir"
    port=$((20000 + RANDOM % 10000))
    ibex_config "$config" | sed -e "s|RUN|$dir|g" -e "s|PORT1|$port|g" -e "s|PORT2|$((port + 1))|g" > "$dir/run.conf"
    local command=("$java" "${java_opts[@]}" -jar "$jar" node "$dir/run.conf" --status-interval 0)
    [[ $config != villas-* ]] || command=("$villas" "$dir/run.conf")
    local started ended cpu timed
    started=$(date +%s%N)
    /usr/bin/time -f '%U %S' -o "$dir/time" "${command[@]}" > "$dir/output" 2>&1 &
    timed=$!
    sample_threads "$timed" "$dir/threads" &
    if [[ $config = villas-* ]]; then
        villas_end "$dir/output" "$timed"
    fi
    wait "$timed" || status="exit $?"
    wait
    ended=$(date +%s%N)
    cpu=$(awk '{ print $1 + $2 }' "$dir/time" | tail -1)
    local kept
    kept=$(grep -c -v '^#' "$dir/results.log" 2>/dev/null || true)
    if [ "$config" = ibex-ib ] && [ "$status" = ok ]; then
        "$java" -jar "$jar" compare "$dir/generated.log" "$dir/results.log" > "$dir/compare" 2>&1 ||
            status="compare differs"
    fi
    echo "$load,$config,$round,${kept:-0},$cpu,$(((ended - started) / 1000000)),$status" >> "$out/runs.csv"
    printf '%-6s %-16s round %d: %6d steps kept, %5.2f s CPU, %s\n' "$load" "$config" "$round" "${kept:-0}" "$cpu" \
        "$status"
}

busy_pid=
stop_busy() { [ -z "$busy_pid" ] || kill "$busy_pid" 2>/dev/null || true; busy_pid=; }
trap stop_busy EXIT
{
    echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$checkout" rev-parse --short HEAD)"
    echo "cores: $(nproc), load: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "java: $("$java" -version 2>&1 | head -1) ${java_opts[*]}"
    echo "villas-node: $villas"
} > "$out/machine.txt"
echo "load,config,round,kept,cpu_s,wall_ms,status" > "$out/runs.csv"
for load in $loads; do
    if [ "$load" = busy ]; then
        sh -c 'while :; do :; done' & busy_pid=$!
        sleep 1
    fi
    for round in $(seq 1 "$rounds"); do
        for config in $configs; do
            run_one "$load" "$config" "$round"
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
        print "| load | config | runs | steps kept, median (of " limit ") | vs ibex-file | CPU s, median | CPU s per 100,000 kept | failed runs |"
        print "|---|---|---|---|---|---|---|---|"
        for (i = 1; i <= keys; i++) {
            key = order[i]; split(key, part, ",")
            k = median(kept, key, n[key]); c = median(cpu, key, n[key])
            base = median(kept, part[1] ",ibex-file", n[part[1] ",ibex-file"])
            printf "| %s | %s | %d | %d | %s | %.2f | %s | %d |\n", part[1], part[2], n[key], k,
                (base > 0 ? sprintf("%.1f %%", 100 * k / base) : "-"), c, (k > 0 ? sprintf("%.2f", c * 100000 / k) : "-"),
                bad[key]
        }
    }' "$out/runs.csv" > "$out/summary.md"
cat "$out/machine.txt" "$out/summary.md"
