# make perf: the cost of a regionbench vm boot (TCG unless /dev/kvm).
#   vm_boot_to_command_s   QEMU start to the command starting (vm.json),
#                          median of 5 boots of tests/vm-kernel's kernel
#   vm_run_true_s          `regionbench vm -- true` from start to exit, as
#                          a user waits for it (scratch disk, initramfs
#                          cache, modules, mounts, power off), median of 5
#   vm_boot_bare_s         QEMU start to exit for the same kernel on the
#                          same machine (booted the same way, with the
#                          same shares, scratch disk and serial ports) and
#                          an initramfs that only powers off, median of 5
#   vm_boot_vs_qemu_bare   vm_boot_to_command_s over vm_boot_bare_s: QEMU
#                          start to the command against QEMU start to the
#                          bare guest's exit; target <= 1.2
#   vm_run_vs_qemu_bare    vm_run_true_s over vm_boot_bare_s: both from
#                          the start of a process to its exit, so this
#                          one also counts the host's preparation, the
#                          command and the power off
# Boots are interleaved (ours, bare, ours, ...) after one boot that fills
# the cache (a first boot unpacks the kernel and builds the initramfs).
# Prints "skipped" lines without QEMU or a kernel.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}" "${REGIONBENCH:=bench/regionbench}"
kernel=${REGIONBENCH_VM_KERNEL:-}
for k in "$top_builddir"/tests/vm-kernel/boot/vmlinuz-* \
    "$top_srcdir"/tests/vm-kernel/boot/vmlinuz-*; do
	[ -z "$kernel" ] && [ -f "$k" ] && kernel=$k
done
if ! command -v qemu-system-x86_64 >/dev/null || [ -z "$kernel" ]; then
	echo "vm_boot_to_command_s=skipped (no QEMU or no tests/vm-kernel)"
	exit 0
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/rbperf.XXXXXX")
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME="$work/cache"
export REGIONBENCH_VM_INIT="$top_builddir/bench/regionbench-vm-init"

# The bare guest: an initramfs whose /init only powers off, a static
# program (built here) in a newc cpio (written here: one file and the
# trailer).
printf '#include <sys/reboot.h>\n#include <unistd.h>\nint main(void) { reboot(RB_POWER_OFF); for (;;) pause(); }\n' |
    ${CC:-cc} -static -O2 -x c -o "$work/bare-init" - ||
	{ echo "vm_boot_to_command_s=failed (cannot build a static init)"; exit 1; }
newc() {	# newc NAME MODE FILE: one cpio entry (FILE empty: no data)
	size=0
	[ -n "$3" ] && size=$(stat -c %s "$3")
	namesize=$((${#1} + 1))
	printf '070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%s\0' \
	    1 "$2" 0 0 1 0 "$size" 0 0 0 0 "$namesize" 0 "$1"
	pad=$(( (4 - (110 + namesize) % 4) % 4 ))
	head -c "$pad" /dev/zero
	if [ -n "$3" ]; then
		cat "$3"
		head -c $(( (4 - size % 4) % 4 )) /dev/zero
	fi
}
{ newc init $((0100755)) "$work/bare-init"; newc 'TRAILER!!!' 0 ''; } \
    >"$work/bare.cpio"
mkdir -p "$work/bare-out"
truncate -s 4G "$work/bare-scratch.img"

median() {
	sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
now() {
	date +%s.%N
}
: >"$work/ours"
: >"$work/ours.t"
: >"$work/bare.t"
"$REGIONBENCH" vm --kernel "$kernel" --quiet --out "$work/o0" -- true \
    >/dev/null 2>&1 || { echo "vm_boot_to_command_s=failed"; exit 1; }
# The bare boot runs on the accelerator and CPU model vm chose (a
# /dev/kvm that opens may not run a guest: docs/vm.md, Accelerator).
accel=$(sed -n 's/.*"accel": "\([a-z]*\)".*/\1/p' "$work/o0/vm.json")
cpu=$(sed -n 's/.*"cpu": "\([a-z0-9]*\)".*/\1/p' "$work/o0/vm.json")
cpu_opt=
[ -n "$cpu" ] && cpu_opt="-cpu $cpu"
echo "vm_accel=$accel${cpu:+ ($cpu)}"
for i in 1 2 3 4 5; do
	t0=$(now)
	"$REGIONBENCH" vm --kernel "$kernel" --quiet --out "$work/o$i" \
	    -- true >/dev/null 2>&1 || { echo "vm_boot_to_command_s=failed"; exit 1; }
	t1=$(now)
	awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }' >>"$work/ours.t"
	sed -n 's/.*"boot_to_command_s": \([0-9.]*\).*/\1/p' \
	    "$work/o$i/vm.json" >>"$work/ours"
	boot=$(ls "$XDG_CACHE_HOME"/regionbench/vm/vmlinux-* 2>/dev/null |
	    head -1)
	[ -n "$boot" ] || boot=$kernel
	t0=$(now)
	qemu-system-x86_64 -nodefaults -no-user-config -display none \
	    -no-reboot -accel $accel $cpu_opt -m 2048M -smp 2 -kernel "$boot" \
	    -initrd "$work/bare.cpio" -append "console=ttyS0 panic=-1 quiet pci=noacpi no_timer_check" \
	    -serial null -serial null \
	    -virtfs local,path=/,mount_tag=root,security_model=none,readonly=on,multidevs=remap \
	    -virtfs "local,path=$work/bare-out,mount_tag=out,security_model=none,multidevs=remap" \
	    -drive "file=$work/bare-scratch.img,format=raw,if=virtio,cache=unsafe" \
	    </dev/null >/dev/null 2>&1
	t1=$(now)
	awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }' >>"$work/bare.t"
done
ours=$(median <"$work/ours")
whole=$(median <"$work/ours.t")
bare=$(median <"$work/bare.t")
printf 'vm_boot_to_command_s=%.2f\n' "$ours"
printf 'vm_run_true_s=%.2f\n' "$whole"
printf 'vm_boot_bare_s=%.2f\n' "$bare"
awk -v a="$ours" -v b="$bare" 'BEGIN { printf "vm_boot_vs_qemu_bare=%.2f\n", a / b }'
awk -v a="$whole" -v b="$bare" 'BEGIN { printf "vm_run_vs_qemu_bare=%.2f\n", a / b }'
