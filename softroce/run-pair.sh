#!/bin/bash
# Two Soft-RoCE guests, each with its own kernel, joined by one wire: guest a (10.98.0.1) and guest b (10.98.0.2),
# each with rxe0 on a virtio NIC whose Ethernet frames travel as UDP datagrams between the two qemu processes on
# 127.0.0.1, so nothing leaves the machine and the subnet exists only between the two guests. Runs COMMAND in both,
# with SOFTROCE_ROLE (a or b), SOFTROCE_PEER_IP (the other guest's address) and SOFTROCE_PAIR (a directory both
# share read-write, for files both need and for barriers); streams their outputs prefixed "a| " and "b| ".
#
# usage: softroce/run-pair.sh [-t SECS] [-w DIR]... [-e VAR]... [-k] -- COMMAND [ARGS...]
#   options as softroce/run-in-guest.sh's, given to both guests
# environment: SOFTROCE_MTU_A, SOFTROCE_MTU_B (each NIC's MTU, default 1500), SOFTROCE_MEM (MiB per guest, default
#   2048), the rest as run-in-guest.sh
# The shared directory is removed when both succeed (unless -k).
# exit code: 0 when both commands exited with 0; else guest a's code if it is not 0, else guest b's.
set -u
readonly SOFTROCE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
usage() { sed -n '8,13p' "$0" >&2; exit 2; }

options=()
while getopts "t:w:e:k" opt
do
    case $opt in
        t|w|e) options+=("-$opt" "$OPTARG") ;;
        k) options+=(-k) ;;
        *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage

cache=${SOFTROCE_CACHE:-$(dirname "$SOFTROCE_DIR")/target/softroce}
mkdir -p "$cache" && SOFTROCE_PAIR=$(mktemp -d "$cache/pair.XXXXXX") || { echo "run-pair: no pair directory" >&2; exit 125; }
export SOFTROCE_PAIR SOFTROCE_MEM=${SOFTROCE_MEM:-2048}
# two UDP ports on loopback, one per qemu, even and odd
port=$((24000 + RANDOM % 2000 * 2))

# guest ROLE IP PEER-IP MTU LOCAL-PORT REMOTE-PORT COMMAND...
guest()
{
    local role=$1 ip=$2 peer=$3 mtu=$4 local_port=$5 remote_port=$6
    shift 6
    SOFTROCE_ROLE=$role SOFTROCE_IP=$ip SOFTROCE_PEER_IP=$peer SOFTROCE_MTU=$mtu SOFTROCE_NAME=guest-$role \
        "$SOFTROCE_DIR/run-in-guest.sh" "${options[@]}" -w "$SOFTROCE_PAIR" -n "$local_port:$remote_port" \
        -e SOFTROCE_ROLE -e SOFTROCE_PEER_IP -e SOFTROCE_PAIR -- "$@" 2>&1 | sed -u "s/^/$role| /"
    return "${PIPESTATUS[0]}"
}

pids=()
trap 'kill "${pids[@]}" 2>/dev/null; exit 130' INT TERM HUP
guest a 10.98.0.1 10.98.0.2 "${SOFTROCE_MTU_A:-1500}" $port $((port + 1)) "$@" &
pids+=($!)
guest b 10.98.0.2 10.98.0.1 "${SOFTROCE_MTU_B:-1500}" $((port + 1)) $port "$@" &
pids+=($!)
rc_a=0 rc_b=0
wait "${pids[0]}" || rc_a=$?
wait "${pids[1]}" || rc_b=$?
echo "run-pair: guest a rc=$rc_a, guest b rc=$rc_b" >&2
if [ "$rc_a" = 0 ] && [ "$rc_b" = 0 ] && [[ " ${options[*]} " != *" -k "* ]]; then
    rm -rf "$SOFTROCE_PAIR"
else
    echo "run-pair: the pair's shared directory kept: $SOFTROCE_PAIR" >&2
fi
[ "$rc_a" != 0 ] && exit "$rc_a"
exit "$rc_b"
