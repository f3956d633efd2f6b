#!/bin/busybox sh
# The init (PID 1) of a guest booted by `regionbench vm`, run by static
# busybox from the initramfs.  It loads the modules listed in /modules,
# mounts the results share (tag "out"), the host's root read-only over 9p
# (tag "root") under a tmpfs overlay, fresh proc/sys/dev/run, the
# scratch disk (/dev/vda, ext4) on /var/tmp and the results share at the
# host's own path; then runs the command the host wrote into the share in
# a chroot, with that path as working directory, writes its exit status
# next to it and powers off.  Everything it says goes to the console
# (ttyS0); the command's output goes to ttyS1, which the host relays.
/bin/busybox mkdir -p /bin /proc /sys /out /lower /upper /newroot
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
exec </dev/null >/dev/console 2>&1

say() {
	echo "regionbench-vm: $*"
}

# The guest's clock in $up, without a process (each one costs
# milliseconds under emulation).
uptime_s() {
	read -r up _ </proc/uptime
}

# Stop here: the host finds no status file and reports the console.
fail() {
	say "$*"
	sync
	poweroff -f
}

uptime_s
say "init up after $up s"
# /modules says "GROUP LEVEL NAME.ko" in load order.  The modules of one
# level need only those of lower levels, so they load side by side (under
# TCG each insmod is emulated work spread over the guest's CPUs).  Group 0
# is what the shares need; group 1, what only the scratch disk needs, and
# group 2, the overlay, load in the background while the shares are
# mounted.
load_group() {
	level=0
	while :; do
		pids=""
		while read -r g l m; do
			[ "$g" = "$1" ] && [ "$l" = "$level" ] || continue
			insmod "/lib/modules/$m" &
			pids="$pids $!:$m"
		done </modules
		[ -n "$pids" ] || break
		for p in $pids; do
			wait "${p%%:*}" || fail "cannot load module ${p#*:}" \
			    "(if the kernel enforces module signatures, boot" \
			    "it with module.sig_enforce=1 so they are kept)"
		done
		level=$((level + 1))
	done
}
load_group 1 &
scratch_modules=$!
load_group 2 &
overlay_modules=$!
load_group 0

P9="trans=virtio,version=9p2000.L,msize=512000"
mount -t 9p -o "$P9" out /out || fail "cannot mount the results share"
ctl=/out/.regionbench-vm
[ -f "$ctl/env" ] || fail "no $ctl/env in the results share"
. "$ctl/env"

mount -t 9p -o "$P9,ro,cache=loose" root /lower ||
	fail "cannot mount the host's root over 9p"
mount -t tmpfs -o mode=0755 tmpfs /upper
mkdir -p /upper/upper /upper/work
wait $overlay_modules
mount -t overlay -o lowerdir=/lower,upperdir=/upper/upper,workdir=/upper/work \
	overlay /newroot || fail "cannot mount the overlay root"
R=/newroot
mount -t proc proc $R/proc
mount -t sysfs sysfs $R/sys
mount -t devtmpfs devtmpfs $R/dev
mkdir -p $R/dev/pts $R/dev/shm $R/run $R/var/tmp
mount -t devpts devpts $R/dev/pts
mount -t tmpfs tmpfs $R/dev/shm
mount -t tmpfs tmpfs $R/run
[ -d $R/sys/fs/cgroup ] && mount -t cgroup2 cgroup2 $R/sys/fs/cgroup
wait $scratch_modules
if [ -b /dev/vda ]; then
	mount -t ext4 /dev/vda $R/var/tmp || fail "cannot mount the scratch disk"
	chmod 1777 $R/var/tmp
else
	# No scratch disk: say so plainly (tmpfs) rather than let /var/tmp
	# look like a disk while its overlay writes go to memory.
	mount -t tmpfs -o mode=1777 tmpfs $R/var/tmp
fi
hostname regionbench-vm
mkdir -p "$R$RB_OUT"
mount --move /out "$R$RB_OUT" || fail "cannot move the results share"
ctl="$RB_OUT/.regionbench-vm"

stty -F /dev/ttyS1 raw -echo 2>/dev/null
uptime_s
say "command starts after $up s"
echo "$up" >"$R$ctl/started"
env -i HOME=/root TERM=dumb LANG=C.UTF-8 PATH="$RB_PATH" \
	REGIONBENCH_VM_FACTS="$RB_OUT/vm.json" \
	chroot $R /bin/sh -c 'cd "$1" && . "$2"' sh "$RB_OUT" "$ctl/command" \
	</dev/null >/dev/ttyS1 2>&1
status=$?
uptime_s
say "command exited with status $status after $up s"
echo $status >"$R$ctl/status.tmp" && mv "$R$ctl/status.tmp" "$R$ctl/status"
sync
umount "$R$RB_OUT"
poweroff -f
