#!/bin/bash
# VILLASnode 1.2.0 (the C implementation of the infiniband node-type ibex follows; patched to run, see
# ../shared/third-party/README.md) against ibex on rxe0, both ways round, RC and UD. Each pairing runs
# signal -> infiniband on the source side and infiniband -> file on the target side, the source also writing what
# it generated to a file, and compares the two files bit for bit with `ibex compare` (sequence, ts.origin, every
# value as %.17f): RC must deliver every sample generated, UD what it delivers must be exact (`--subset`) and the
# loss is printed. The generator misses steps under emulation, so the generated file, not the limit, is the truth.
#
#   villas-node source -> ibex node target        RC 1 value, UD 64 values
#   ibex node source   -> villas-node target      RC 3 and 8 values, UD 64 values
#   villas-node source -> ibex channel target     RC 3 values, UD 8 (--output: the target writes what it read)
#   ibex channel source -> villas-node target     RC 64 values, UD 1 (--output: the source writes what it sent)
#   villas-node source -> examples/java/VillasPeer.java (the SampleChannel API alone), RC 8 values, UD 3
# then the options that cross the wire, over RC: periodic signaling and buffer subtraction on both sides with the
# ibex side in poll_mode "event", each direction; an ibex source that fell back to listening (use_fallback) and a
# VILLAS source that connects to it; an ibex source whose VILLAS target is killed and started again (it reconnects;
# what both targets wrote must be exact, the loss is printed); a villas-node source run twice to one ibex target,
# which accepts the second as the first. An ibex source to a VILLAS target must have raised
# the rnr_retry 0 VILLAS grants to 7 (RnrTuning).
#
# Shapes (the table at the end): each of the values 1, 3, 8, 64 once per direction, vectorize 1 and 8 and inline
# on and off on each side, not every combination: a pairing costs 45-90 s of guest time (a JVM takes 20-55 s to
# start under emulation, `ibex compare` another 9-15 s), the whole script about 15 minutes.
# VILLAS needs: hugepages = 0; in.max_wrs = in.cq_size = 512 on a target (a larger ring outgrows its pool); the
# generated samples through a print hook (a path cannot write to an infiniband and a file node); an RC target,
# which ignores SIGINT, SIGKILLed after a grace period. ibex node targets stop on SIGINT once the source ended.
# A difference found: a VILLAS target with in.vectorize 8 hands up whole vectors only, so the last (count mod 8)
# samples of a run never reach its file (ibex delivers a partial vector); its RC check expects exactly the rest.
# $IBEX_VILLAS_NODE is the villas-node binary (softroce/villas-node.sh, passed in by softroce/test-real-verbs.sh):
# without it the script fails. IBEX_VILLAS_ONLY, a regular expression matched against "DIRECTION MODE VALUES"
# (e.g. "ibex-villas RC"), runs only the pairings it matches, for a developer.
# Run by softroce/real-verbs-guest.sh inside the Soft-RoCE guest (see lib.bash).
set -u
. "$(dirname "$0")/lib.bash"

if [ ! -x "${IBEX_VILLAS_NODE:-}" ]; then
    echo "FAIL: villas: IBEX_VILLAS_NODE='${IBEX_VILLAS_NODE:-}' is not an executable villas-node (softroce/villas-node.sh)"
    exit 1
fi
readonly VILLAS=$IBEX_VILLAS_NODE ip=$SOFTROCE_IP
# Every JVM here with the quick compiler only and the serial collector: under emulation that starts `ibex compare`
# in 9 s instead of 14-16 s (the guest has one emulated core's worth of CPU). The Java program runs with the flags of
# $IBEX (java ... -jar ibex.jar) and ibex.jar as its class path.
readonly ibex=${IBEX/#java /java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC }
readonly JAVA=${ibex% -jar *} IBEX_JAR=${ibex##* -jar }
started=$SECONDS
port=10600

# $1 file, $2 kind (villas-source, villas-target, ibex-source, ibex-target, ibex-fallback), $3 mode, $4 values, $5 vectorize,
# $6 inline (true|false), $7 directory of the files. The infiniband node is "ib" in every config. Set for one
# pairing: OUT_EXTRA (", key = value" into a source's out), IN_EXTRA (into a target's in), IBEX_KEYS ("key = value,"
# into an ibex node).
config()
{
    local file=$1 kind=$2 mode=$3 values=$4 vectorize=$5 inline=$6 dir=$7 top="" ib="" siggen=""
    if [ "${kind%-*}" = villas ]; then
        # VILLAS: no huge pages here; stop once the generator reached its limit; its path reads vectorize at once.
        # A VILLAS path cannot write to an infiniband and a file node ("Mixed memory types between path
        # destinations"), and a second path from the generator never ends: a print hook writes what it generated.
        top='hugepages = 0
idle_stop = true'
        siggen=", in = { vectorize = $vectorize,
               hooks = ( { type = \"print\", output = \"$dir/generated.log\", format = \"villas.human\" } ) }"
    else
        ib="provider = \"disni\", signals = $values, ${IBEX_KEYS:-}"
    fi
    {
        echo "$top"
        echo "nodes = {"
        echo "    ib = { type = \"infiniband\", rdma_transport_mode = \"$mode\", $ib"
        if [ "${kind#*-}" = source ]; then
            echo "        in = { address = \"$ip:$((port + 1))\" }"
            echo "        out = { address = \"$ip:$port\", vectorize = $vectorize, send_inline = $inline,"
            echo "                max_inline_data = 128, use_fallback = false ${OUT_EXTRA:-} } }"
            echo "    siggen = { type = \"signal\", signal = \"mixed\", values = $values, rate = $RATE, limit = $LIMIT$siggen }"
            if [ "${kind%-*}" = ibex ]; then
                echo "    generated = { type = \"file\", uri = \"$dir/generated.log\" }"
                echo "}"
                echo 'paths = ( { in = "siggen", out = [ "ib", "generated" ] } )'
            else
                echo "}"
                echo 'paths = ( { in = "siggen", out = "ib" } )'
            fi
        else
            echo "        in = { address = \"$ip:$port\", vectorize = $vectorize, max_wrs = 512, cq_size = 512 ${IN_EXTRA:-} }"
            # a source that found no target at port + 1 and fell back to listening on its in.address (use_fallback)
            [ "$kind" != ibex-fallback ] || echo "        out = { address = \"$ip:$((port + 1))\", use_fallback = true }"
            echo "    }"
            echo "    received = { type = \"file\", uri = \"$dir/received.log\", out = { flush = true } }"
            echo "}"
            echo 'paths = ( { in = "ib", out = "received" } )'
        fi
    } > "$file"
}

# Stops a target that is still running: SIGINT, then SIGKILL after $2 seconds. Prints how it ended.
stop()
{
    local pid=$1 grace=$2 waited=0
    kill -0 "$pid" 2>/dev/null || { echo "target: ended by itself"; return 0; }
    kill -INT "$pid"
    while kill -0 "$pid" 2>/dev/null && [ $waited -lt $((grace * 10)) ]; do sleep 0.1; waited=$((waited + 1)); done
    if kill -0 "$pid" 2>/dev/null; then
        echo "target: still running ${grace} s after SIGINT: SIGKILL"
        kill -KILL "$pid"
    else
        echo "target: stopped by SIGINT"
    fi
}

# Elapsed seconds of the pairing, for the log.
at() { echo "[$((SECONDS - t0)) s] $*"; }

# run NAME MODE "TARGET COMMAND" "SOURCE COMMAND" SELF-ENDING: starts the target, waits until it listens on $port,
# runs the source, then lets a self-ending target finish (or stops one that does not), and compares the files.
# RC: the received file equals the generated one; UD: it is an exact subset, the loss printed.
run()
{
    local name=$1 mode=$2 target=$3 source=$4 self_ending=$5 tpid waited=0 source_rc=0 target_rc=0 t0=$SECONDS ended
    echo "--- $name"
    echo "target: $target"
    echo "source: $source"
    (cd "$dir" && exec $target) > "$SERVER_LOG" 2>&1 &
    tpid=$!
    until listening cm $port
    do
        if ! kill -0 $tpid 2>/dev/null || [ $waited -ge 600 ]; then echo "target never listened on $port"; break; fi
        sleep 0.1; waited=$((waited + 1))
    done
    at "target listening"
    (cd "$dir" && timeout -k 5 "$INTEROP_TIMEOUT" bash -c "exec $source") > "$CLIENT_LOG" 2>&1 || source_rc=$?
    at "source ended"
    waited=0
    if [ "$self_ending" = 1 ]; then
        while kill -0 $tpid 2>/dev/null && [ $waited -lt 300 ]; do sleep 0.1; waited=$((waited + 1)); done
    else
        sleep 2    # what is still on the wire arrives
    fi
    # An RC VILLAS target ignores SIGINT: 3 s are enough for it; a JVM may take 10 s to stop.
    ended=$(stop $tpid $([ "${target%% *}" = "$VILLAS" ] && echo 3 || echo 10))
    wait $tpid || target_rc=$?
    at "target ended (rc $target_rc) ${ended#target: }"
    echo "target output (rc $target_rc):"; sed 's/^/  | /' "$SERVER_LOG" | grep -v ' info \| warn  *kernel:rt\| warn  *config '
    echo "source output (rc $source_rc):"; sed 's/^/  | /' "$CLIENT_LOG" | grep -v ' info \| warn  *kernel:rt\| warn  *config '
    check "$name: the source ran to its end (rc $source_rc)" test $source_rc = 0
    # An RC VILLAS target ignores SIGINT (a known defect) and is SIGKILLed; every other target ends by itself or on
    # SIGINT, with 0.
    if [ "$mode/${target%% *}" = "RC/$VILLAS" ]; then
        check "$name: the VILLAS RC target ended with 0 or was SIGKILLed ($ended, rc $target_rc)" \
            test "$target_rc" = 0 -o "$target_rc" = 137
    else
        check "$name: the target ended with 0 ($ended, rc $target_rc)" test "$target_rc" = 0
    fi
    check "$name: no RNR retry error" bash -c "! grep -qi 'RNR_RETRY_EXC\|rnr retry' '$SERVER_LOG' '$CLIENT_LOG'"
    # VILLASnode accepts with rnr_retry_count 0: an ibex RC source must have raised its QP's (RnrTuning).
    if [ "$mode/${target%% *}" = "RC/$VILLAS" ] && [ "${source%% *}" != "$VILLAS" ]; then
        check "$name: the ibex source raised the rnr_retry 0 VILLASnode granted to 7" \
            grep -q "the peer granted rnr_retry_count 0 (VILLASnode accepts with 0): raising" "$CLIENT_LOG"
    fi
    local subset= expected=$dir/generated.log generated held
    [ "$mode" = UD ] && subset=--subset
    # A VILLAS target with in.vectorize N > 1 hands up whole vectors of N only: a last, partial one stays behind
    # (ibex sends it: the same target with in.vectorize 1 gets every sample). Over RC, what it must have received
    # is then the generated samples but the last (count mod N), exactly.
    generated=$(grep -c '^[0-9]' "$dir/generated.log")
    held=$((generated % villas_vector))
    if [ "$mode" = RC ] && [ $held -gt 0 ]; then
        expected=$dir/generated-whole-vectors.log
        head -n -$held "$dir/generated.log" > "$expected"
        echo "$name: VILLAS target, in.vectorize $villas_vector: $generated samples generated, the last $held (a partial vector) not expected"
    fi
    echo "compare: $ibex compare $subset $expected $dir/received.log"
    check "$name: $([ "$mode" = UD ] && echo "what arrived is exact (UD)" || echo "every generated sample arrived, exact")" \
        $ibex compare $subset "$expected" "$dir/received.log"
    at "compared"
    port=$((port + 2))
}

# pairing DIRECTION MODE VALUES VECTORIZE INLINE: DIRECTION is villas-ibex (VILLAS source), ibex-villas, or, for the
# sample channel and the Java program, villas-channel, channel-villas, villas-java.
pairing()
{
    local direction=$1 mode=$2 values=$3 vectorize=$4 inline=$5 source target skind tkind self_ending=0 villas_vector=1
    [[ "$direction $mode $values" =~ ${IBEX_VILLAS_ONLY:-.} ]] || return 0
    dir=$interop_work/$direction-$mode-$values-$port
    mkdir -p "$dir"
    case $direction in
        villas-ibex)
            skind=villas-source tkind=ibex-target
            source="$VILLAS $dir/source.conf"; target="$ibex node $dir/target.conf --status-interval 0" ;;
        ibex-villas)
            skind=ibex-source tkind=villas-target
            source="$ibex node $dir/source.conf --status-interval 0 --connect-timeout 60s"
            target="$VILLAS $dir/target.conf"; villas_vector=$vectorize ;;
        villas-channel)
            skind=villas-source tkind=ibex-target
            source="$VILLAS $dir/source.conf"; self_ending=1
            target="$ibex channel $dir/target.conf ib --count 1000000 --timeout-ms 60000 --linger-ms 3000 --output $dir/received.log" ;;
        channel-villas)
            skind=ibex-source tkind=villas-target
            source="$ibex channel $dir/source.conf ib --count $LIMIT --rate $RATE --timeout-ms 60000 --linger-ms 3000 --output $dir/generated.log"
            target="$VILLAS $dir/target.conf"; villas_vector=$vectorize ;;
        villas-fallback)
            skind=villas-source tkind=ibex-fallback
            source="$VILLAS $dir/source.conf"
            target="$ibex node $dir/target.conf --status-interval 0 --connect-timeout $((INTEROP_TIMEOUT - 10))s" ;;
        villas-java)
            skind=villas-source tkind=ibex-target
            source="$VILLAS $dir/source.conf"; self_ending=1
            target="$JAVA -cp $IBEX_JAR $PWD/examples/java/VillasPeer.java $dir/target.conf ib $dir/received.log 3000" ;;
    esac
    config "$dir/source.conf" $skind "$mode" "$values" "$vectorize" "$inline" "$dir"
    config "$dir/target.conf" $tkind "$mode" "$values" "$vectorize" "$inline" "$dir"
    run "villas $direction $mode, $values values, vectorize $vectorize, inline $inline${OPTIONS:+, $OPTIONS}" "$mode" \
        "$target" "$source" $self_ending
    [ "$direction" != villas-fallback ] ||
        check "villas $direction: the ibex source found no target and fell back to listening (out.use_fallback)" \
            grep -q "falling back to listening" "$SERVER_LOG"
}

# restarted MODE VALUES: ibex node source -> villas-node target, which is killed (SIGKILL) once samples arrived and
# started again; the source reconnects (out.reconnect) and goes on. What the two targets wrote must be exact; the
# loss is printed: what the source counted dropped, plus what the killed target's device had acknowledged and its
# process never wrote (RC's promise ends at the peer's device).
restarted()
{
    local mode=$1 values=$2 tpid spid waited=0 source_rc=0 t0=$SECONDS name="villas restart: ibex-villas $1, the target killed and started again"
    [[ "restart $mode $values" =~ ${IBEX_VILLAS_ONLY:-.} ]] || return 0
    dir=$interop_work/restart-$mode-$port
    mkdir -p "$dir"
    echo "--- $name"
    config "$dir/source.conf" ibex-source "$mode" "$values" 1 false "$dir"
    config "$dir/target.conf" villas-target "$mode" "$values" 1 false "$dir"
    sed "s|$dir/received.log|$dir/received-2.log|" "$dir/target.conf" > "$dir/target-2.conf"
    (cd "$dir" && exec $VILLAS "$dir/target.conf") > "$dir/target-1.out" 2>&1 &
    tpid=$!
    until listening cm $port; do sleep 0.1; waited=$((waited + 1)); [ $waited -lt 600 ] || break; done
    (cd "$dir" && timeout -k 5 "$INTEROP_TIMEOUT" $ibex node "$dir/source.conf" --status-interval 0 \
        --connect-timeout 60s) > "$CLIENT_LOG" 2>&1 &
    spid=$!
    waited=0
    until [ "$(grep -c '^[0-9]' "$dir/received.log" 2>/dev/null)" -ge 50 ] || [ $waited -ge 900 ]; do
        sleep 0.1; waited=$((waited + 1))
    done
    { kill -KILL $tpid; wait $tpid; } 2>/dev/null
    at "target 1 killed after $(grep -c '^[0-9]' "$dir/received.log") samples"
    (cd "$dir" && exec $VILLAS "$dir/target-2.conf") > "$dir/target-2.out" 2>&1 &
    tpid=$!
    wait $spid || source_rc=$?
    at "source ended (rc $source_rc)"
    sleep 2
    { stop $tpid 3 > /dev/null; wait $tpid; } 2>/dev/null
    echo "source output (rc $source_rc):"; sed 's/^/  | /' "$CLIENT_LOG"
    check "$name: the source ran to its end (rc $source_rc)" test $source_rc = 0
    check "$name: the source connected twice" test "$(grep -c 'ib: connected' "$CLIENT_LOG")" -ge 2
    check "$name: the second target received samples" test "$(grep -c '^[0-9]' "$dir/received-2.log")" -gt 0
    { cat "$dir/received.log"; grep '^[0-9]' "$dir/received-2.log"; } > "$dir/received-both.log"
    echo "compare: $ibex compare --subset $dir/generated.log $dir/received-both.log"
    check "$name: what both targets wrote is exact" $ibex compare --subset "$dir/generated.log" "$dir/received-both.log"
    echo "$name: generated $(grep -c '^[0-9]' "$dir/generated.log"), the targets wrote $(grep -c '^[0-9]' \
        "$dir/received.log") + $(grep -c '^[0-9]' "$dir/received-2.log"), the source: $(grep -o 'sent [0-9]*, dropped [0-9]*' "$CLIENT_LOG")"
    at "compared"
    port=$((port + 2))
}

# villas_restarted MODE VALUES: a villas-node source runs to its limit twice, as two processes, to one ibex node
# target, which accepts the second as it accepted the first: it must have written both runs, in order, exactly.
villas_restarted()
{
    local mode=$1 values=$2 tpid waited=0 rc1=0 rc2=0 target_rc=0 t0=$SECONDS
    local name="villas restart: villas-ibex $1, the source run twice"
    [[ "restart-source $mode $values" =~ ${IBEX_VILLAS_ONLY:-.} ]] || return 0
    dir=$interop_work/restart-source-$mode-$port
    mkdir -p "$dir"
    echo "--- $name"
    config "$dir/source.conf" villas-source "$mode" "$values" 1 true "$dir"
    config "$dir/target.conf" ibex-target "$mode" "$values" 1 true "$dir"
    sed "s|$dir/generated.log|$dir/generated-2.log|" "$dir/source.conf" > "$dir/source-2.conf"
    (cd "$dir" && exec $ibex node "$dir/target.conf" --status-interval 0) > "$SERVER_LOG" 2>&1 &
    tpid=$!
    until listening cm $port; do sleep 0.1; waited=$((waited + 1)); [ $waited -lt 600 ] || break; done
    (cd "$dir" && timeout -k 5 "$INTEROP_TIMEOUT" $VILLAS "$dir/source.conf") > "$CLIENT_LOG" 2>&1 || rc1=$?
    at "source 1 ended (rc $rc1)"
    (cd "$dir" && timeout -k 5 "$INTEROP_TIMEOUT" $VILLAS "$dir/source-2.conf") >> "$CLIENT_LOG" 2>&1 || rc2=$?
    at "source 2 ended (rc $rc2)"
    sleep 2
    { stop $tpid 10 > /dev/null; wait $tpid; } 2>/dev/null || target_rc=$?
    echo "target output (rc $target_rc):"; sed 's/^/  | /' "$SERVER_LOG"
    check "$name: both sources ran to their end (rc $rc1, $rc2)" test $rc1 = 0 -a $rc2 = 0
    check "$name: the target ended with 0 (rc $target_rc)" test $target_rc = 0
    check "$name: the target accepted both" test "$(grep -c 'ib: connected' "$SERVER_LOG")" -ge 2
    cat "$dir/generated.log" "$dir/generated-2.log" > "$dir/generated-both.log"
    echo "compare: $ibex compare $dir/generated-both.log $dir/received.log"
    check "$name: both runs arrived, in order, exact" $ibex compare "$dir/generated-both.log" "$dir/received.log"
    at "compared"
    port=$((port + 2))
}

# RC at 1 kHz, UD paced at 200 Hz so that the receiving side keeps its receives posted under emulation (the
# generators reach a fraction of either rate here: what they made is what is compared).
#                      direction      mode values vectorize inline
RATE=1000 LIMIT=2000
pairing villas-ibex    RC   1      1         true
pairing villas-channel RC   3      1         false
pairing villas-java    RC   8      8         true
pairing ibex-villas    RC   3      8         true
pairing ibex-villas    RC   8      1         false
RATE=200 LIMIT=400
pairing villas-ibex    UD   64     8         false
pairing ibex-villas    UD   64     1         false
pairing channel-villas UD   1      1         true
pairing villas-channel UD   8      1         true
pairing villas-java    UD   3      1         false
RATE=1000 LIMIT=2000
pairing channel-villas RC   64     1         false

# The options that cross the wire, each once over RC: signaling every few sends and more headroom on both sides, the
# ibex side waiting for completion events; a fallback; a restart.
RATE=1000 LIMIT=2000
OPTIONS="periodic_signaling 4, buffer_subtraction 64, ibex poll_mode event" OUT_EXTRA=", periodic_signaling = 4" \
    IN_EXTRA=", buffer_subtraction = 64" IBEX_KEYS='poll_mode = "event",' pairing villas-ibex RC 3 1 true
OPTIONS="periodic_signaling 8, buffer_subtraction 64, ibex poll_mode event" OUT_EXTRA=", periodic_signaling = 8" \
    IN_EXTRA=", buffer_subtraction = 64" IBEX_KEYS='poll_mode = "event",' pairing ibex-villas RC 3 1 false
pairing villas-fallback RC 3 1 true
RATE=1000 LIMIT=4000
restarted RC 3
RATE=1000 LIMIT=1000
villas_restarted RC 3

echo "--- villas: the whole script took $((SECONDS - started)) s"
finish
