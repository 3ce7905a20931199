#!/bin/bash
# Runs a command inside a throw-away qemu guest that has a real kernel Soft-RoCE device (rxe0).
#
# usage: softroce/run-in-guest.sh [-t SECS] [-w DIR]... [-e VAR]... [-k] [-n WIRE] -- COMMAND [ARGS...]
#   -t SECS  hard wall-clock limit for the guest run (SOFTROCE_TIMEOUT, default 900)
#   -w DIR   share host DIR read-write at the same path (repeatable; the checkout is always shared)
#   -e VAR   pass the host environment variable VAR into the guest (repeatable)
#   -k       keep the job directory (console log, output) even on success
#   -n WIRE  LOCAL-PORT:REMOTE-PORT: rxe0 on a virtio NIC whose frames travel as UDP datagrams between this
#            qemu and another one on 127.0.0.1 (softroce/run-pair.sh), instead of on a dummy netdev
# environment: SOFTROCE_TCG_THREAD=single|multi (default single), SOFTROCE_MEM (MiB, 4096),
#   SOFTROCE_CPUS (default nproc), SOFTROCE_CACHE (default <checkout>/target/softroce),
#   SOFTROCE_KERNEL_ARGS (appended to the guest kernel's command line, e.g. "clocksource=tsc tsc=reliable"),
#   SOFTROCE_IP (the guest's address, default 10.99.0.1), SOFTROCE_MTU (the netdev's MTU, default 1500),
#   SOFTROCE_NAME (the guest's host name, default softroce-guest)
# exit code: COMMAND's own, or 124 = hard timeout, 125 = install/boot/guest setup failure.
#
# Why a guest: the host kernel has no RDMA stack and KVM here cannot boot a stock kernel, so Debian's
# kernel runs under software emulation (TCG) and its rdma_rxe module provides the device. Without -n the
# guest has no NIC and rxe0 sits on a dummy netdev; with -n its one NIC reaches only the other qemu's.
set -u

readonly TIMEOUT_RC=124 SETUP_RC=125
readonly SOFTROCE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly CHECKOUT=$(dirname "$SOFTROCE_DIR")
readonly PACKAGES=(qemu-system-x86 linux-image-amd64 busybox-static rdma-core ibverbs-providers ibverbs-utils
    rdmacm-utils perftest libibverbs-dev librdmacm-dev iproute2 kmod cpio xz-utils)

die() { echo "run-in-guest: $*" >&2; exit "$SETUP_RC"; }
usage() { sed -n '4,18p' "$0" >&2; exit 2; }

timeout_secs=${SOFTROCE_TIMEOUT:-900}
keep=0
rw_dirs=("$CHECKOUT")
env_vars=()
nic=(-nic none)
while getopts "t:w:e:kn:" opt
do
    case $opt in
        t) timeout_secs=$OPTARG ;;
        w) dir=$(realpath -e "$OPTARG") && [ -d "$dir" ] || die "-w $OPTARG: not a directory"; rw_dirs+=("$dir") ;;
        e) env_vars+=("$OPTARG") ;;
        k) keep=1 ;;
        n) [[ $OPTARG =~ ^([0-9]+):([0-9]+)$ ]] || die "-n $OPTARG: not LOCAL-PORT:REMOTE-PORT"
           nic=(-netdev "dgram,id=wire,local.type=inet,local.host=127.0.0.1,local.port=${BASH_REMATCH[1]},remote.type=inet,remote.host=127.0.0.1,remote.port=${BASH_REMATCH[2]}"
                -device "virtio-net-pci,netdev=wire,mac=52:54:00:00:$(printf '%02x:%02x' $((BASH_REMATCH[1] / 256 % 256)) $((BASH_REMATCH[1] % 256)))")
           ;;
        *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
[[ $timeout_secs =~ ^[0-9]+$ ]] || die "-t $timeout_secs: not a whole number of seconds"
guest_ip=${SOFTROCE_IP:-10.99.0.1}
[[ $guest_ip =~ ^10\.[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "SOFTROCE_IP=$guest_ip: the guests' addresses are private, 10.x.y.z"
guest_mtu=${SOFTROCE_MTU:-1500}
[[ $guest_mtu =~ ^[0-9]+$ ]] || die "SOFTROCE_MTU=$guest_mtu: not a number"
guest_name=${SOFTROCE_NAME:-softroce-guest}
[[ $guest_name =~ ^[a-z0-9-]+$ ]] || die "SOFTROCE_NAME=$guest_name: letters, digits and - only"

# Install only what is missing, so a prepared machine never touches the network.
install_missing()
{
    local missing=() pkg
    for pkg in "${PACKAGES[@]}"
    do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "run-in-guest: installing ${missing[*]}" >&2
    local sudo=; [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq &&
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}
cache=${SOFTROCE_CACHE:-$CHECKOUT/target/softroce}
mkdir -p "$cache/jobs" || die "cannot create cache $cache"
# Concurrent runs (run-pair.sh's two guests) share the machine's packages and one cache: set both up under a lock.
( flock 9 && install_missing ) 9> "$cache/.lock" || die "package installation failed"

kernel_version=$(ls /lib/modules | sort -V | tail -1)
[ -r "/boot/vmlinuz-$kernel_version" ] || die "no readable /boot/vmlinuz-$kernel_version"
build=$cache/build-$kernel_version

# The initramfs holds only busybox and the modules needed to mount the host root (9p + overlay).
build_initramfs()
{
    local root=$1/root module
    mkdir -p "$root"/{bin,modules,proc,sys,dev,lower,rw,newroot} || return 1
    cp "$(command -v busybox)" "$root/bin/busybox" && ln -s busybox "$root/bin/sh" || return 1
    for module in $(for name in virtio_pci 9pnet_virtio 9p overlay
                    do
                        modprobe -S "$kernel_version" --show-depends "$name"
                    done | awk '$1 == "insmod" && !seen[$2]++ { print $2 }')
    do
        cp "$module" "$root/modules/" && basename "$module" >> "$root/modules/order" || return 1
    done
    cp "$SOFTROCE_DIR/initramfs-init.sh" "$root/init" && chmod 755 "$root/init" || return 1
    (cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$1/initramfs.cpio.gz"
}

# qemu boots an uncompressed ELF vmlinux through its PVH entry, skipping seconds of xz
# decompression under emulation; fall back to the bzImage if the payload cannot be found.
extract_vmlinux()
{
    local vmlinuz=/boot/vmlinuz-$kernel_version offset
    offset=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$vmlinuz" | head -1 | cut -d: -f1)
    [ -n "$offset" ] || return 0
    tail -c +$((offset + 1)) "$vmlinuz" | xz -dcq > "$1/vmlinux" 2>/dev/null
    [ "$(head -c 4 "$1/vmlinux" | od -An -tx1 | tr -d ' ')" = 7f454c46 ] || rm -f "$1/vmlinux"
}

# Rebuild whenever an input changes: this script, the initramfs init, the kernel or busybox.
prepare()
{
    local stamp
    stamp=$(cat "$0" "$SOFTROCE_DIR/initramfs-init.sh" "/boot/vmlinuz-$kernel_version" "$(command -v busybox)" |
        sha256sum | cut -c1-16)
    [ "$(cat "$build/stamp" 2>/dev/null)" = "$stamp" ] && return 0
    local tmp=$build.tmp
    rm -rf "$tmp" && mkdir -p "$tmp" && build_initramfs "$tmp" && extract_vmlinux "$tmp" || return 1
    echo "$stamp" > "$tmp/stamp" && rm -rf "$build" && mv "$tmp" "$build"
}
( flock 9 && prepare ) 9> "$cache/.lock" || die "building the guest boot files failed"
kernel=$build/vmlinux
[ -s "$kernel" ] || kernel=/boot/vmlinuz-$kernel_version

job=$(mktemp -d "$cache/jobs/job.XXXXXX") || die "cannot create a job directory"
shares=()
: > "$job/mounts"
for i in "${!rw_dirs[@]}"
do
    shares+=(-virtfs "local,path=${rw_dirs[$i]},mount_tag=rw$i,security_model=passthrough")
    echo "rw$i ${rw_dirs[$i]}" >> "$job/mounts"
done
{
    echo '#!/bin/bash'
    for var in "${env_vars[@]}"
    do
        printf 'export %s=%q\n' "$var" "${!var-}"
    done
    printf 'cd %q || exit %d\n' "$PWD" "$SETUP_RC"
    printf '%q ' "$@"
    echo
} > "$job/command.sh"
: > "$job/output"

# Single-threaded TCG by default: multi-threaded TCG crashes about one JVM launch in six.
qemu_pid=
tail_pid=
trap '[ -n "$qemu_pid" ] && kill $qemu_pid 2>/dev/null; [ -n "$tail_pid" ] && kill $tail_pid 2>/dev/null; exit 130' \
    INT TERM HUP
started=$(date +%s%N)
# panic=-1, -no-reboot and a nonexistent fallback init make every guest failure end qemu; timeout
# bounds the rest. Output goes through a virtio-serial port into a file: a stdio chardev blocks.
timeout -k 10 "$timeout_secs" qemu-system-x86_64 \
    -accel "tcg,thread=${SOFTROCE_TCG_THREAD:-single},tb-size=512" -cpu max -M q35 \
    -smp "${SOFTROCE_CPUS:-$(nproc)}" -m "${SOFTROCE_MEM:-4096}" -nodefaults -no-user-config "${nic[@]}" \
    -kernel "$kernel" -initrd "$build/initramfs.cpio.gz" \
    -append "console=ttyS0 quiet loglevel=4 panic=-1 rdinit=/init init=/no-fallback-shell stage2=$SOFTROCE_DIR/guest-init.sh softroce.ip=$guest_ip softroce.mtu=$guest_mtu softroce.name=$guest_name softroce.nic=$([ "${nic[0]}" = -nic ] && echo 0 || echo 1) ${SOFTROCE_KERNEL_ARGS:-}" \
    -display none -monitor none -serial "file:$job/console.log" -no-reboot \
    -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
    -virtfs "local,path=$job,mount_tag=job,security_model=none" "${shares[@]}" \
    -device virtio-serial-pci -chardev "file,id=out,path=$job/output" -device virtserialport,chardev=out,name=out \
    < /dev/null > "$job/qemu.log" 2>&1 &
qemu_pid=$!
tail -n +1 -s 0.2 -f --pid="$qemu_pid" "$job/output" &
tail_pid=$!
wait "$qemu_pid"
qemu_rc=$?
qemu_pid=
wait "$tail_pid"
tail_pid=

if [ -s "$job/rc" ]
then
    rc=$(cat "$job/rc")
    [ -s "$job/ready" ] || echo "run-in-guest: guest setup failed before the command ran" >&2
elif [ "$qemu_rc" = 124 ] || [ "$qemu_rc" = 137 ]
then
    rc=$TIMEOUT_RC
    echo "run-in-guest: hard timeout after ${timeout_secs}s" >&2
else
    rc=$SETUP_RC
    echo "run-in-guest: guest stopped without an exit code (qemu rc=$qemu_rc)" >&2
fi
if [ -z "$(cat "$job/ready" 2>/dev/null)" ] || [ "$rc" = "$TIMEOUT_RC" ]
then
    echo "--- guest console (tail):" >&2
    tail -n 25 "$job/console.log" >&2
    cat "$job/qemu.log" >&2
fi
elapsed_ms=$((($(date +%s%N) - started) / 1000000))
echo "run-in-guest: rc=$rc rxe0-ready-at=$(cat "$job/ready" 2>/dev/null)s total=$((elapsed_ms / 1000)).$((elapsed_ms % 1000 / 100))s" >&2
if [ "$rc" = 0 ] && [ "$keep" = 0 ]
then
    rm -rf "$job"
else
    echo "run-in-guest: job directory kept: $job" >&2
fi
exit "$rc"
