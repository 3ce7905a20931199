#!/bin/bash
# Guest PID 1 after switch_root (run from the host tree by run-in-guest.sh's guest): mount the job
# and read-write shares, bring up Soft-RoCE rxe0, run the job's command, record its exit code and
# power off. Any setup failure records 125 so the host can tell it from the command's own failure.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 TERM=dumb
readonly SETUP_RC=125 DEV=rxe0
# From run-in-guest.sh, on the kernel's command line: the address, MTU and name, and whether rxe0 goes on the NIC.
IP=10.99.0.1 MTU=1500 NAME=softroce-guest WITH_NIC=0
for arg in $(cat /proc/cmdline)
do
    case $arg in
        softroce.ip=*) IP=${arg#*=} ;;
        softroce.mtu=*) MTU=${arg#*=} ;;
        softroce.name=*) NAME=${arg#*=} ;;
        softroce.nic=*) WITH_NIC=${arg#*=} ;;
    esac
done
readonly P9_OPTS=trans=virtio,version=9p2000.L,msize=512000

log() { echo "[guest $(cut -d' ' -f1 /proc/uptime)] $*" > /dev/ttyS0; }
power_off() { sync; /bin/busybox poweroff -f; sleep 5; echo o > /proc/sysrq-trigger; }
fail() { log "SETUP FAILED: $*"; echo "$SETUP_RC" > /job/rc; power_off; }

mount -t tmpfs -o mode=0755 tmpfs /run
mkdir -p /dev/pts /dev/shm /job
mount -t devpts -o gid=5,mode=0620,ptmxmode=0666 devpts /dev/pts
mount -t tmpfs -o mode=1777 tmpfs /dev/shm
mount -t 9p -o "$P9_OPTS" job /job || { log "SETUP FAILED: cannot mount the job share"; power_off; }
while read -r tag dir
do
    mkdir -p "$dir" && mount -t 9p -o "$P9_OPTS" "$tag" "$dir" || fail "mount $tag on $dir"
done < /job/mounts
hostname "$NAME"
ulimit -l unlimited   # memory registration pins pages
ulimit -n 65536

modprobe -a virtio_console dummy rdma_rxe rdma_ucm ib_uverbs ib_umad || fail "modprobe of the RDMA stack"
ip link set lo up || fail "lo up"
# No DAD: nothing else is on this link, and waiting for it only delays the GIDs.
sysctl -qw net.ipv6.conf.default.accept_dad=0 net.ipv6.conf.all.accept_dad=0
if [ "$WITH_NIC" = 1 ]; then
    # The one NIC (virtio-net, its frames carried between two qemu processes): its name is the kernel's.
    modprobe virtio_net || fail "modprobe virtio_net"
    NETDEV=
    for _ in $(seq 50)
    do
        for net in /sys/class/net/*
        do
            [ -e "$net/device" ] && NETDEV=${net##*/} && break
        done
        [ -n "$NETDEV" ] && break
        sleep 0.1
    done
    [ -n "$NETDEV" ] || fail "no NIC appeared"
else
    NETDEV=rxenet0
    ip link add "$NETDEV" type dummy || fail "dummy netdev $NETDEV"
fi
ip link set "$NETDEV" mtu "$MTU" && ip link set "$NETDEV" up && ip addr add "$IP/24" dev "$NETDEV" ||
    fail "netdev $NETDEV (mtu $MTU, $IP/24)"
rdma link add "$DEV" type rxe netdev "$NETDEV" || fail "rdma link add $DEV"
# GID 1 is the IPv4-mapped GID rdma_cm resolves $IP to; it appears asynchronously.
gid1=/sys/class/infiniband/$DEV/ports/1/gids/1
mapped=$(IFS=. read -r a b c d <<< "$IP"; printf ':ffff:%02x%02x:%02x%02x' "$a" "$b" "$c" "$d")
for _ in $(seq 100)
do
    grep -q "$mapped\$" "$gid1" 2>/dev/null && break
    sleep 0.1
done
grep -q "$mapped\$" "$gid1" 2>/dev/null || fail "GID 1 of $DEV never appeared ($(cat "$gid1" 2>&1))"
log "$DEV ready on $NETDEV ($IP, mtu $MTU): $(cat /sys/class/infiniband/$DEV/ports/1/state), gid1 $(cat "$gid1")"

# No udev: find the virtio-serial port named "out" (a file on the host) in sysfs.
out=/dev/ttyS0
for port in /sys/class/virtio-ports/*
do
    [ "$(cat "$port/name" 2>/dev/null)" = out ] && out=/dev/${port##*/}
done
cut -d' ' -f1 /proc/uptime > /job/ready
export SOFTROCE_DEV=$DEV SOFTROCE_NETDEV=$NETDEV SOFTROCE_IP=$IP
/bin/bash /job/command.sh < /dev/null > "$out" 2>&1
rc=$?
echo "$rc" > /job/rc
log "command exited with $rc"
power_off
