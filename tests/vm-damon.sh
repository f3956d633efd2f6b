# DAMON references in guests (docs/damon.md).  One boot of Debian 12's
# 6.12 kernel (tests/vm-kernel-6.12, fetched by tests/vm-kernel.sh; 2 GiB,
# 128 MiB regions): a writer touching 512 MiB shows up referenced exactly
# in the regions its pages occupy and nowhere else, reads idle from the
# second interval after SIGSTOP while still resident and referenced again
# after SIGCONT; a
# kdamond started by hand is refused (exit 3, its pid named) and left on;
# SIGINT turns ours off; after SIGKILL the next start cleans our leftover
# but still refuses one whose record names another pid; run records
# references per phase and turns its kdamond off after a fatal error (a
# full results filesystem).  Then one boot of
# the 6.1 kernel (Debian's has no DAMON sysfs; tried_regions came in 6.2):
# --references on exits 3 naming the kernel options, auto warns and writes no references.csv.  Skips without
# QEMU or the 6.12 kernel.
. "$top_srcdir/tests/cli-lib.sh"

vm_test_setup
kernel61=$kernel
kernel612=
for d in "$top_builddir/tests/vm-kernel-6.12" \
    "$top_srcdir/tests/vm-kernel-6.12"; do
	for k in "$d"/boot/vmlinuz-*; do
		[ -f "$k" ] && kernel612=$k && break 2
	done
done
[ -n "$kernel612" ] ||
	skip_all "no 6.12 kernel (sh tests/vm-kernel.sh tests/vm-kernel-6.12 6.12)"
writer="$top_builddir/tests/damon-writer"
[ -x "$writer" ] || skip_all "no $writer (make check builds it)"

out="$WORK/vm-damon"
{
	echo "writer='$writer'"
	cat <<'GUEST'
set -u
A=/sys/kernel/mm/damon/admin
R="--source kpageflags --region-size 128M --interval 1s --quiet"
# wait_until SECONDS COMMAND...: poll every 0.25 s (each poll forks,
# which costs an emulated guest dearly; the intervals awaited are seconds).
wait_until() {
	n=$(($1 * 4))
	shift
	while ! "$@"; do
		n=$((n - 1))
		[ $n -le 0 ] && return 1
		sleep 0.25
	done
}
exists() { [ -e "$1" ]; }
# intervals FILE: how many intervals references.csv holds (16 regions).
intervals() { echo $((($(wc -l <"$1") - 1) / 16)); }
at_least() { [ -f "$2" ] && [ "$(intervals "$2")" -ge "$1" ]; }
last_t() { tail -n 1 "$1" | cut -d, -f1; }
# intervals_after FILE T N: FILE holds rows of at least N intervals after
# time T (counted by their times, however long the intervals took).
intervals_after() {
	awk -F, -v t="$2" -v n="$3" 'NR > 1 && $1 + 0 > t + 0 && !seen[$1]++ {
	    k++ } END { exit k >= n ? 0 : 1 }' "$1"
}
cat $A/kdamonds/nr_kdamonds >nr-before.txt

# (1) A writer touching 512 MiB.
"$writer" 512 writer.ready &
w=$!
wait_until 600 exists writer.ready
# Every page of the writer is referenced in every aggregation interval
# only while the writer gets the CPU for a whole pass over them in each:
# on a busy host the guest's CPUs run a fraction of the time, and the
# writer shares them with the sampler's scans, the kdamond and this shell
# (one interval of 1 s once saw 13 MiB of a 128 MiB hot region
# referenced).  So the interval holds eight of the writer's slowest passes
# measured alone, and 3 s at the least; the sampler scans once per
# interval too.  (Under TCG the writer also flushes its own TLB each pass,
# or it sets no accessed bit at all: tests/damon-writer.c.)  DAMON's
# sampling window stays 20 ms: a longer one lets the observers' own
# accesses mark regions the writer left idle.
pass_ms=$(cat writer.ready)
aggr=$(((8 * pass_ms + 999) / 1000))
[ "$aggr" -ge 3 ] || aggr=3
echo "$pass_ms $aggr" >writer-pass.txt
regionbench placement --pid $w --region-size 128M --format csv \
    >placement.csv 2>placement.err
regionbench sample $R --interval ${aggr}s --references on \
    --damon-aggr ${aggr}s --duration 3600s --out w >w.out 2>w.err &
s=$!
wait_until 600 at_least 5 w/references.csv
grep VmRSS /proc/$w/status >rss-running.txt
ps -o comm 2>/dev/null | grep -c '^kdamond' >kdamonds-running.txt
# The last row read right after a signal: the interval that holds the
# signal ends with the next row at the latest, so from the second interval
# on the writer's state shows.  Three intervals are awaited, not a time:
# on a busy host an interval can take well over its second.
kill -STOP $w
last_t w/references.csv >stop.t
wait_until 600 intervals_after w/references.csv "$(cat stop.t)" 3
grep VmRSS /proc/$w/status >rss-stopped.txt
kill -CONT $w
last_t w/references.csv >cont.t
wait_until 600 intervals_after w/references.csv "$(cat cont.t)" 3
kill -INT $s
wait $s
echo $? >w.rc
# Where the writer's pages are now (the kernel may have moved some since
# the first placement: compaction migrates movable pages), once the
# sampler has written its last row.
regionbench placement --pid $w --region-size 128M --format csv \
    >placement-end.csv 2>>placement.err
kill $w
cat $A/kdamonds/nr_kdamonds >nr-after-w.txt

# (2) A kdamond started by hand: refused and left on.
ram=$(awk -F'[- ]' '/^[0-9a-f]+-[0-9a-f]+ : System RAM/ { e = $2 }
    END { print e }' /proc/iomem)
echo 1 >$A/kdamonds/nr_kdamonds
echo 1 >$A/kdamonds/0/contexts/nr_contexts
echo paddr >$A/kdamonds/0/contexts/0/operations
echo 1 >$A/kdamonds/0/contexts/0/targets/nr_targets
echo 1 >$A/kdamonds/0/contexts/0/targets/0/regions/nr_regions
echo $((0x100000)) >$A/kdamonds/0/contexts/0/targets/0/regions/0/start
echo $((0x$ram + 1)) >$A/kdamonds/0/contexts/0/targets/0/regions/0/end
# Configured but off: refused too.
regionbench sample $R --references on --count 2 --out f0 >f0.out 2>f0.err
echo $? >f0.rc
echo on >$A/kdamonds/0/state
cat $A/kdamonds/0/pid >foreign.pid
regionbench sample $R --references on --count 2 --out f1 >f1.out 2>f1.err
echo $? >f1.rc
regionbench sample $R --references auto --count 2 --out f2 >f2.out 2>f2.err
echo $? >f2.rc
cat $A/kdamonds/0/state $A/kdamonds/0/pid >foreign-after.txt
echo off >$A/kdamonds/0/state
echo 0 >$A/kdamonds/nr_kdamonds

# (3) SIGINT, then SIGKILL and the leftover.
regionbench sample $R --references on --duration 300s --out i >i.out 2>i.err &
s=$!
wait_until 600 at_least 1 i/references.csv
kill -INT $s
wait $s
echo $? >i.rc
cat $A/kdamonds/nr_kdamonds >nr-after-int.txt
ps -o comm 2>/dev/null | grep -c '^kdamond' >kdamonds-after-int.txt
regionbench sample $R --references on --duration 300s --out k >k.out 2>k.err &
s=$!
wait_until 600 at_least 1 k/references.csv
kill -KILL $s
wait $s
echo $? >k.rc
cat $A/kdamonds/nr_kdamonds $A/kdamonds/0/state >after-kill.txt
cp /run/regionbench/damon-kdamond record.txt
sed 's/^pid .*/pid 1/' record.txt >/run/regionbench/damon-kdamond
regionbench sample $R --references on --count 2 --out k1 >k1.out 2>k1.err
echo $? >k1.rc
cp record.txt /run/regionbench/damon-kdamond
# Until its first row of references, not for a count of samples: a busy
# host can stretch the wait for DAMON's first aggregation past any count.
regionbench sample $R --references on --duration 300s --out k2 \
    >k2.out 2>k2.err &
s=$!
wait_until 600 at_least 1 k2/references.csv
kill -INT $s
wait $s
echo $? >k2.rc
cat $A/kdamonds/nr_kdamonds >nr-after-leftover.txt

# (4) run: references per phase, and our kdamond off after a fatal error
# (the results filesystem fills up in the middle of the run).
cat >suite.ini <<'INI'
[suite]
name = refs
[phase touch]
workload = pagetest
size = 256M
threads = 1
hold = 3s
[phase churn]
workload = frag-churn
size = 64M
threads = 1
duration = 3s
INI
regionbench run suite.ini $R --references on --out r >r.out 2>r.err
echo $? >r.rc
cat $A/kdamonds/nr_kdamonds >nr-after-run.txt
mkdir full
mount -t tmpfs -o size=64k tmpfs full
sed 's/^duration = 3s/duration = 600s/' suite.ini >long.ini
regionbench run long.ini $R --interval 100ms --references on --out full/r \
    >e.out 2>e.err
echo $? >e.rc
cat $A/kdamonds/nr_kdamonds >nr-after-error.txt
ps -o comm 2>/dev/null | grep -c '^kdamond' >kdamonds-after-error.txt
cp full/r/meta.json e-meta.json 2>/dev/null
umount full
exit 0
GUEST
} >"$WORK/guest.sh"

start=$(date +%s)
rb vm --kernel "$kernel612" --memory 2G --cpus 2 --scratch 0 \
    --append "page_alloc.shuffle=0" --timeout 30m --out "$out" \
    -- sh "$WORK/guest.sh"
diag "6.12 boot and command: $(($(date +%s) - start)) s"
expect_rc 0 "the 6.12 guest's script ran"
[ "$RC" -eq 0 ] || diag "$(tail -20 "$out/vm-console.log" 2>/dev/null)"
grep -q '"entry": "pvh"' "$out/vm.json"
ok $? "the 6.12 bzImage (zstd) boots unpacked, through its PVH entry"

# (1) The writer: regions it fills are hot, those without its pages cold,
# before SIGSTOP, from the second interval after it and after SIGCONT.
[ "$(cat "$out/w.rc" 2>/dev/null)" = 130 ]
ok $? "sample --references on ended by SIGINT: exit 130"
[ "$(cat "$out/w.rc" 2>/dev/null)" = 130 ] ||
    diag "$(cat "$out/w.err" "$out/placement.err" 2>/dev/null)"
diag "placement (node,region,pages): $(cut -d, -f5-7 "$out/placement.csv" 2>/dev/null |
    tr '\n' ' ')"
cmp -s "$out/placement.csv" "$out/placement-end.csv" ||
    diag "placement at the end: $(cut -d, -f5-7 \
	"$out/placement-end.csv" 2>/dev/null | tr '\n' ' ')"
diag "writer's slowest pass and DAMON's aggregation interval (ms s):" \
    "$(cat "$out/writer-pass.txt" 2>/dev/null)"
stop_t=$(cat "$out/stop.t" 2>/dev/null)
cont_t=$(cat "$out/cont.t" 2>/dev/null)
# check LO HI HOT_MIN HOT_MAX COLD_MAX: in every interval with
# LO < t_s <= HI, the regions the writer fills (>= 75 % of them its pages
# in the placements taken before and after: one shared with the guest's
# other programs is referenced by them too) have referenced between
# HOT_MIN times the fewer and HOT_MAX times the more of the writer's bytes
# there, the regions without its pages in either placement referenced
# <= COLD_MAX of monitored.  The observers have hot pages of their own
# (the sampler's buffers, the test's shell and the page cache of what it
# runs), and DAMON counts a whole DAMON region (up to half a memory region
# here) as referenced when any page it samples was: so one region per
# interval may break the bound in the direction the observers push it
# (referenced above COLD_MAX, or above HOT_MAX times the writer's bytes
# while it is stopped), never in the other.
check() {
	awk -F, -v lo="$1" -v hi="$2" -v hmin="$3" -v hmax="$4" -v cold="$5" '
	FNR == 1 { f++; if (f == 1) for (i = 1; i <= NF; i++) c[$i] = i
	    next }
	f <= 2 { pages[f, $c["node"] "/" $c["region"]] += $c["pages"]; next }
	$1 + 0 <= lo || $1 + 0 > hi { next }
	{
		k = $3 "/" $4
		lo_b = pages[1, k] * 4096
		hi_b = pages[2, k] * 4096
		if (lo_b > hi_b) { swap = lo_b; lo_b = hi_b; hi_b = swap }
		t[$1] = 1
		if (lo_b >= 0.75 * 128 * 1048576) {
			n_hot++
			if ($6 < hmin * lo_b) {
				strict[$1]++
				why[$1] = why[$1] " writer " k "@" $1 "=" $6
			} else if ($6 > hmax * hi_b) {
				over[$1]++
				why[$1] = why[$1] " writer " k "@" $1 "=" $6
			}
		} else if (hi_b == 0) {
			n_cold++
			if ($6 > cold * $5) {
				over[$1]++
				why[$1] = why[$1] " other " k "@" $1 "=" $6
			}
		}
	}
	END {
		for (i in t)
			if (strict[i] > 0 || over[i] > 1)
				bad = bad why[i]
		if (n_hot == 0 || n_cold == 0) bad = bad " (no rows)"
		if (bad != "") { print bad; exit 1 }
	}' "$out/placement.csv" "$out/placement-end.csv" \
	    "$out/w/references.csv"
}
# nth_after T N: the time of the Nth interval after time T.
nth_after() {
	awk -F, -v t="$1" -v n="$2" 'NR > 1 && $1 + 0 > t + 0 && !seen[$1]++ {
	    if (++k == n) { print $1; exit } }' "$out/w/references.csv" \
	    2>/dev/null
}
# The first two intervals are left out: DAMON's first look, and the one in
# which the sampler's start (its first kpageflags scan, emulated) takes the
# guest's CPUs from the writer, which on a busy host then wrote only part
# of its pages in time (13 MiB of a 128 MiB region referenced).  So is the
# interval in which each signal arrived (the first after the last row read
# before it), and the last row read after SIGCONT (it may have been written
# after it).  The windows are counted in intervals, not seconds: a busy
# host stretches them.
first_t=$(nth_after -1 2)
why=$(check "${first_t:-0}" "$(echo "$stop_t" | awk '{ print $1 - 0.001 }')" 0.5 2 0.1)
ok $? "running: the writer's regions referenced, the others not"
[ -z "$why" ] || diag "$why"
why=$(check "$(nth_after "${stop_t:-0}" 1)" \
    "$(echo "$cont_t" | awk '{ print $1 - 0.001 }')" 0 0.02 0.1)
ok $? "from the second interval after SIGSTOP: the writer's regions idle (< 2 %)"
[ -z "$why" ] || diag "$why"
diag "VmRSS running: $(cat "$out/rss-running.txt" 2>/dev/null)," \
    "stopped: $(cat "$out/rss-stopped.txt" 2>/dev/null)"
rss=$(awk '{ print $2 }' "$out/rss-stopped.txt" 2>/dev/null)
[ "${rss:-0}" -ge $((500 * 1024)) ]
ok $? "stopped, the writer still holds its 512 MiB"
why=$(check "$(nth_after "${cont_t:-0}" 1)" 1e9 0.5 2 0.1)
ok $? "after SIGCONT: referenced again"
[ -z "$why" ] || diag "$why"
grep -q '"kdamond_pid": [0-9]' "$out/w/meta.json" 2>/dev/null &&
    grep -q '"mode": "on"' "$out/w/meta.json" &&
    grep -q '"read_ms_median": [0-9.]*[1-9]' "$out/w/meta.json"
ok $? "meta.json records the references settings, the kdamond's pid and the reads' median time"
[ "$(grep -c 'a TCG guest: a process that keeps a CPU to itself may read unreferenced' \
    "$out/w.err" 2>/dev/null)" = 1 ] &&
    grep -q '"tcg_guest": true' "$out/w/meta.json" 2>/dev/null
ok $? "under TCG: one warning of the software TLB's blind spot, tcg_guest in meta.json"
rb verify "$out/w"
expect_rc 0 "verify passes on the run"
[ "$(cat "$out/nr-after-w.txt" 2>/dev/null)" = \
    "$(cat "$out/nr-before.txt" 2>/dev/null)" ]
ok $? "nr_kdamonds is back to what it was"

# (2) Someone else's kdamond.
[ "$(cat "$out/f0.rc" 2>/dev/null)" = 3 ] &&
    grep -q 'kdamond is configured.*kdamond 0 is off' "$out/f0.err"
ok $? "a kdamond configured by hand (off): exit 3, saying so"
[ "$(cat "$out/f0.rc" 2>/dev/null)" = 3 ] || diag "$(cat "$out/f0.err")"
pid=$(cat "$out/foreign.pid" 2>/dev/null)
[ "$(cat "$out/f1.rc" 2>/dev/null)" = 3 ] &&
    grep -q "kdamond 0 is on (pid $pid," "$out/f1.err"
ok $? "a kdamond started by hand: exit 3 naming its pid"
[ "$(cat "$out/f1.rc" 2>/dev/null)" = 3 ] || diag "$(cat "$out/f1.err")"
[ ! -e "$out/f1" ]
ok $? "nothing written when refused"
[ "$(cat "$out/f2.rc" 2>/dev/null)" = 0 ] && [ ! -e "$out/f2/references.csv" ] &&
    grep -q 'warning: --references auto: no references.csv: DAMON is in use' \
    "$out/f2.err"
ok $? "--references auto with a foreign kdamond: a warning, no references.csv"
[ "$(tr '\n' ' ' <"$out/foreign-after.txt" 2>/dev/null)" = "on $pid " ]
ok $? "the foreign kdamond is still on, same pid"

# (3) SIGINT and SIGKILL.
[ "$(cat "$out/i.rc" 2>/dev/null)" = 130 ] &&
    [ "$(cat "$out/nr-after-int.txt")" = 0 ] &&
    [ "$(cat "$out/kdamonds-running.txt")" = 1 ] &&
    [ "$(cat "$out/kdamonds-after-int.txt")" = 0 ]
ok $? "after SIGINT: exit 130, no kdamond thread (one while running), nr_kdamonds 0"
[ "$(tr '\n' ' ' <"$out/after-kill.txt" 2>/dev/null)" = "1 on " ]
ok $? "after SIGKILL our kdamond survives"
[ "$(cat "$out/k1.rc" 2>/dev/null)" = 3 ] &&
    grep -q 'kdamond 0 is on' "$out/k1.err"
ok $? "a record naming another pid: refused (exit 3)"
[ "$(cat "$out/k2.rc" 2>/dev/null)" = 130 ] &&
    grep -q 'turned off and removed the kdamond a killed regionbench left' \
    "$out/k2.err" && has_row "$out/k2/references.csv"
ok $? "the next start cleans our leftover and runs"
[ "$(cat "$out/k2.rc" 2>/dev/null)" = 130 ] ||
    diag "exit $(cat "$out/k2.rc" 2>/dev/null)" "$(cat "$out/k2.err")"
has_row "$out/k2/references.csv" || diag "k2/references.csv has no row"
[ "$(cat "$out/nr-after-leftover.txt" 2>/dev/null)" = 0 ]
ok $? "nr_kdamonds is 0 again"

# (4) run.
[ "$(cat "$out/r.rc" 2>/dev/null)" = 0 ]
ok $? "run --references on: exit 0"
[ "$(cat "$out/r.rc" 2>/dev/null)" = 0 ] || diag "$(cat "$out/r.err")"
awk -F, 'NR > 1 { seen[$2] = 1 } END { exit !(seen["touch"] && seen["churn"]) }' \
    "$out/r/references.csv" 2>/dev/null
ok $? "run: references.csv has rows in both phases"
rb verify "$out/r"
expect_rc 0 "verify passes on the run with references"
rb analyze "$out/r" --format csv
expect_out '^touch,referenced_regions\.mean,' "analyze: referenced_regions per phase"
[ "$(cat "$out/nr-after-run.txt" 2>/dev/null)" = 0 ]
ok $? "run: nr_kdamonds 0 after it"
[ "$(cat "$out/e.rc" 2>/dev/null)" = 3 ] &&
    grep -q 'No space left on device' "$out/e.err"
ok $? "run on a filesystem that fills up: exit 3 (ENOSPC)"
[ "$(cat "$out/e.rc" 2>/dev/null)" = 3 ] || diag "$(cat "$out/e.err")"
grep -q '"kdamond_pid": [0-9]' "$out/e-meta.json" 2>/dev/null
ok $? "its kdamond had started (meta.json names its pid)"
[ "$(cat "$out/nr-after-error.txt" 2>/dev/null)" = 0 ] &&
    [ "$(cat "$out/kdamonds-after-error.txt" 2>/dev/null)" = 0 ]
ok $? "after the fatal error: no kdamond thread, nr_kdamonds 0"

# (5) The 6.1 kernel: DAMON without tried_regions.
out61="$WORK/vm-damon-61"
cat >"$WORK/guest61.sh" <<'GUEST'
set -u
A=/sys/kernel/mm/damon/admin
R="--source kpageflags --region-size 256M --interval 1s --quiet"
regionbench sample $R --references on --count 1 --out on >on.out 2>on.err
echo $? >on.rc
regionbench sample $R --references auto --count 1 --out auto \
    >auto.out 2>auto.err
echo $? >auto.rc
# Debian's 6.1 has no DAMON sysfs at all; a kernel with it must be as found.
cat $A/kdamonds/nr_kdamonds >nr.txt 2>/dev/null || echo none >nr.txt
exit 0
GUEST
start=$(date +%s)
rb vm --kernel "$kernel61" --memory 1G --cpus 2 --scratch 0 --timeout 15m \
    --out "$out61" -- sh "$WORK/guest61.sh"
diag "6.1 boot and command: $(($(date +%s) - start)) s"
expect_rc 0 "the 6.1 guest's script ran"
[ "$(cat "$out61/on.rc" 2>/dev/null)" = 3 ] &&
    grep -q 'CONFIG_DAMON, CONFIG_DAMON_PADDR and CONFIG_DAMON_SYSFS, and kernel >= 6.2 for tried_regions' \
    "$out61/on.err"
ok $? "6.1, --references on: exit 3 naming the kernel options"
diag "$(cat "$out61/on.err" 2>/dev/null)"
[ "$(cat "$out61/auto.rc" 2>/dev/null)" = 0 ] &&
    [ ! -e "$out61/auto/references.csv" ] &&
    grep -q 'warning: --references auto' "$out61/auto.err"
ok $? "6.1, --references auto: a warning and no references.csv"
grep -Eq '"references.csv": "(no DAMON sysfs interface|DAMON schemes have no tried_regions)' \
    "$out61/auto/meta.json" 2>/dev/null
ok $? "meta.json's files_omitted says why"
case $(cat "$out61/nr.txt" 2>/dev/null) in
0|none) ok 0 "6.1: no kdamond left behind by the probe" ;;
*) ok 1 "6.1: no kdamond left behind by the probe" ;;
esac

done_testing
