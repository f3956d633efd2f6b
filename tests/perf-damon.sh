# make perf: the cost of DAMON references in a guest of Debian 12's 6.12
# kernel (tests/vm-kernel-6.12; TCG unless /dev/kvm, which inflates both):
#   damon_cpu_pct       the kdamond's CPU (utime + stime of /proc/PID/stat)
#                       over 10 s at the default intervals (20 ms / 1 s),
#                       16 regions of 128 MiB; target < 2 in TCG
#   damon_cpu_pct_schedstat  the same from /proc/PID/schedstat (run time in
#                       ns, not tick samples)
#   references_read_ms  one update_schemes_tried_regions and read of the
#                       tried regions, median over the run (meta.json's
#                       references.read_ms_median)
# Prints "skipped" lines without QEMU or the kernel.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}" "${REGIONBENCH:=bench/regionbench}"
kernel=
for k in "$top_builddir"/tests/vm-kernel-6.12/boot/vmlinuz-* \
    "$top_srcdir"/tests/vm-kernel-6.12/boot/vmlinuz-*; do
	[ -z "$kernel" ] && [ -f "$k" ] && kernel=$k
done
if ! command -v qemu-system-x86_64 >/dev/null || [ -z "$kernel" ]; then
	echo "damon_cpu_pct=skipped (no QEMU or no tests/vm-kernel-6.12:" \
	    "sh tests/vm-kernel.sh tests/vm-kernel-6.12 6.12)"
	echo "references_read_ms=skipped"
	exit 0
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/rbperf.XXXXXX")
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME="$work/cache"
export REGIONBENCH_VM_INIT="$top_builddir/bench/regionbench-vm-init"
cat >"$work/guest.sh" <<'GUEST'
set -u
A=/sys/kernel/mm/damon/admin/kdamonds
regionbench sample --source kpageflags --region-size 128M --interval 2s \
    --references on --duration 40s --out p --quiet >p.out 2>p.err &
s=$!
n=0
while [ "$(cat $A/0/state 2>/dev/null)" != on ] && [ $n -lt 600 ]; do
	sleep 0.1
	n=$((n + 1))
done
pid=$(cat $A/0/pid)
ticks() { awk '{ print $14 + $15 }' /proc/$pid/stat; }
ns() { cut -d' ' -f1 /proc/$pid/schedstat; }
up() { cut -d' ' -f1 /proc/uptime; }
t0=$(ticks); n0=$(ns); u0=$(up)
sleep 10
t1=$(ticks); n1=$(ns); u1=$(up)
awk -v a="$t0" -v b="$t1" -v u="$u0" -v v="$u1" \
    'BEGIN { printf "%.2f\n", (b - a) / 100 / (v - u) * 100 }' >cpu.txt
awk -v a="$n0" -v b="$n1" -v u="$u0" -v v="$u1" \
    'BEGIN { printf "%.2f\n", (b - a) / 1e9 / (v - u) * 100 }' >cpu-ns.txt
kill -INT $s
wait $s
exit 0
GUEST
"$REGIONBENCH" vm --kernel "$kernel" --memory 2G --cpus 2 --scratch 0 \
    --quiet --timeout 5m --out "$work/o" -- sh "$work/guest.sh" \
    >/dev/null 2>&1 || { echo "damon_cpu_pct=failed"; exit 1; }
printf 'damon_cpu_pct=%s\n' "$(cat "$work/o/cpu.txt" 2>/dev/null || echo failed)"
printf 'damon_cpu_pct_schedstat=%s\n' "$(cat "$work/o/cpu-ns.txt" 2>/dev/null || echo failed)"
ms=$(sed -n 's/.*"read_ms_median": \([0-9.e+-]*\).*/\1/p' "$work/o/p/meta.json")
printf 'references_read_ms=%.2f\n' "${ms:-0}"
