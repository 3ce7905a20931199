#!/bin/sh
# Guest PID 1 in the initramfs (busybox): mount the host root read-only over 9p under a tmpfs
# overlay, so the guest runs the host's own tools and may write anywhere (writes are discarded),
# then hand over to guest-init.sh from the host tree.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
while read -r module
do
    insmod "/modules/$module" || echo "initramfs: insmod $module failed"
done < /modules/order
tries=0
until mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=512000 hostroot /lower
do
    tries=$((tries + 1))
    [ $tries -ge 50 ] && { echo "initramfs: cannot mount the host root"; poweroff -f; }
    sleep 0.1
done
mount -t tmpfs -o mode=0755 overlay-rw /rw && mkdir -p /rw/upper /rw/work &&
    mount -t overlay -o lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work overlay /newroot ||
    { echo "initramfs: overlay root failed"; poweroff -f; }
for arg in $(cat /proc/cmdline)
do
    case $arg in stage2=*) stage2=${arg#stage2=} ;; esac
done
mount --move /dev /newroot/dev && mount --move /proc /newroot/proc && mount --move /sys /newroot/sys
exec switch_root /newroot /bin/bash "$stage2"
