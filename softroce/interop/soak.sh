#!/bin/bash
# The soak on rxe0 (docs/reliability.md, "Soak"): `ibex channel` over RC as two JVMs on the disni provider, the
# example config for rxe0 (lib.bash's channel_config). The target reads and checks IBEX_SOAK_SAMPLES samples
# (default 3000); both sides measure their memory after a tenth of them and after the last, and fail if heap, direct
# or native memory grew by more than 5%. The JVM options are .ci/soak's. Two changes to the example config, as the
# emulated CPU makes the target's JVM slower than the guest kernel's rxe, so that a target that falls behind is not
# overrun at once (an RNR NAK makes rxe resend everything after it): the receive queues and CQs hold
# IBEX_SOAK_DEPTH (default 1024) and both sides idle with IBEX_SOAK_IDLE (default backoff), which leaves the vCPUs to
# rxe. Under emulation the JVMs take up to 100 s to start, hence a 300 s bound on each command
# unless INTEROP_TIMEOUT says otherwise; a long run needs a larger one.
# Run by softroce/real-verbs-guest.sh inside the Soft-RoCE guest (see lib.bash).
set -u
INTEROP_TIMEOUT=${INTEROP_TIMEOUT:-300}
. "$(dirname "$0")/lib.bash"

readonly PORT=10501 COUNT=${IBEX_SOAK_SAMPLES:-3000}
ip=$SERVER_IP
config=$(channel_config RC)
sed -i -e "s/^\( *\)provider = \"disni\"$/&\n\1idle_strategy = \"${IBEX_SOAK_IDLE:-backoff}\"/" \
    -e "s/^\( *\)in = {$/&\n\1    max_wrs = ${IBEX_SOAK_DEPTH:-1024}\n\1    cq_size = ${IBEX_SOAK_DEPTH:-1024}/" "$config"
ibex="${IBEX/#java /java -Xms128m -Xmx128m -XX:+AlwaysPreTouch -XX:NativeMemoryTracking=summary }"
options="--count $COUNT --memory-bound 5"

start=$SECONDS
pair "soak: $COUNT samples over RC on $SOFTROCE_DEV" cm $PORT \
    "$ibex channel $config target $options --timeout-ms $TARGET_WAIT_MS" \
    "$ibex channel $config source $options --timeout-ms 60000"
echo "soak: $COUNT samples in $((SECONDS - start)) s with the JVMs' start"
check "soak: the target read $COUNT samples, complete, in order, intact" \
    grep -Eq "^target: read $COUNT samples on $ip:$PORT over RC in [0-9.]+ s from the first: complete, in order, intact$" \
    "$SERVER_LOG"
for log in "$SERVER_LOG" "$CLIENT_LOG"
do
    check "soak: $(basename "$log" .log) measured its memory after $((COUNT / 10)) samples and after the last" \
        grep -Eq "^memory after $((COUNT / 10)) of $COUNT samples and after the last: heap .* native .* rss " "$log"
done
check "soak: both ran on disni" grep -q "RDMA provider 'disni'" "$SERVER_LOG" "$CLIENT_LOG"

finish
