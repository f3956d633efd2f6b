# vacate in a guest (one boot, 2 GiB, movablecore=768M, so the top memory
# blocks are ZONE_MOVABLE; 256 MiB regions, two blocks each): with a
# workload filling the movable zone, a block that outlasts --timeout and
# a SIGTERM while the first block is being offlined leave every block
# online in the zone it was in (exit 3, 130); a movable region is
# emptied, its pages moved, and comes back online in ZONE_MOVABLE; the
# region holding the kernel image is refused with the kernel's reason; a
# suite vacates a region at a checkpoint.  Skips like vm-boot.sh.
. "$top_srcdir/tests/cli-lib.sh"

vm_test_setup

out="$WORK/vm-vacate"
cat >"$WORK/guest.sh" <<'GUEST'
set -u
blocks() {
	for b in /sys/devices/system/memory/memory*; do
		echo "${b##*/} $(cat "$b/state") $(cat "$b/valid_zones")"
	done
}
# The guest's clock at each step, for the diagnostics of a slow run.
step() {
	echo "$(cut -d' ' -f1 /proc/uptime) $*" >>steps.txt
}
movable_free() {
	awk '/^Node 0, zone +Movable/ { m = 1; next } /^Node/ { m = 0 }
	    m && /pages free/ { print $3; exit }' /proc/zoneinfo
}
blocks >before.txt
step "fill the movable zone"
# Fill most of the movable zone (768 MiB) so that offlining moves pages;
# wait until it is filled, not for a time.
regionbench workload pagetest --size 600M --threads 1 --hold 600s \
    >/dev/null 2>&1 &
wl=$!
i=0
while [ "$(movable_free)" -gt 80000 ] && [ $i -lt 3000 ]; do
	sleep 0.1
	i=$((i + 1))
done
movable_free >movable-free.txt

R="--region-size 256M"
step "vacate with a 50 ms timeout"
# A timeout far shorter than a full block takes to empty.
regionbench vacate $R --region 0/5 --timeout 50ms --format csv \
    >timeout.csv 2>timeout.err
echo $? >timeout.rc
blocks >after-timeout.txt

# SIGTERM while the first block is being offlined.
step "SIGTERM while offlining"
regionbench vacate $R --region 0/5 --region 0/6 --out intr.json \
    >intr.out 2>intr.err &
v=$!
i=0
while ! grep -q 'memory10: offlining' intr.err && [ $i -lt 3000 ]; do
	sleep 0.02
	i=$((i + 1))
done
kill -TERM $v
wait $v
echo $? >intr.rc
blocks >after-intr.txt

# A movable region, still full: emptied, then online again.
step "vacate a movable region"
# A generous timeout: emptying is what is tested, and on a busy host an
# emulated guest took over a minute for one block.
regionbench vacate $R --region 0/6 --timeout 10m --format csv \
    --out movable.json >movable.csv 2>movable.err
echo $? >movable.rc
blocks >after-movable.txt

# The region holding the kernel image.
step "vacate the kernel's region"
regionbench vacate $R --region 0/0 --out kernel.json >kernel.out 2>kernel.err
echo $? >kernel.rc
blocks >after-kernel.txt
kill $wl
wait $wl

# A suite that vacates a region at a checkpoint, the workload frozen.
step "a suite that vacates"
cat >vacate.ini <<'INI'
[suite]
name = vacate
interval = 500ms
region-size = 256M

[phase fill]
workload = pagetest
size = 300M
threads = 1
hold = 1s
checkpoints = 100%
checkpoint-freeze = yes
vacate = 0/6
vacate-timeout = 10m
INI
regionbench run vacate.ini --source kpageflags --scan-fraction 1 \
    --out suite --no-charts \
    --quiet >suite.out 2>suite.err
echo $? >suite.rc
blocks >after-suite.txt
step done
exit 0
GUEST
start=$(date +%s)
rb vm --kernel "$kernel" --memory 2G --cpus 2 --scratch 0 \
    --append "movablecore=768M" --timeout 20m --out "$out" \
    -- sh "$WORK/guest.sh"
diag "boot and command: $(($(date +%s) - start)) s; the guest's clock at each step:"
diag "$(cat "$out/steps.txt" 2>/dev/null)"
expect_rc 0 "the guest's script ran"
[ "$RC" -eq 0 ] || diag "$(tail -20 "$out/vm-console.log" 2>/dev/null)"
diag "movable zone free pages with the workload: $(cat "$out/movable-free.txt" 2>/dev/null)"
grep -q 'memory12 online Movable' "$out/before.txt" 2>/dev/null
ok $? "memory12 is online in ZONE_MOVABLE before"

# The timeout.
[ "$(cat "$out/timeout.rc" 2>/dev/null)" = 3 ]
ok $? "--timeout 50ms on a full block: exit 3"
grep -q '^0,5,memory10,.*,timeout,.*still migrating at the timeout' \
    "$out/timeout.csv" 2>/dev/null
ok $? "timeout.csv: memory10 timed out, still migrating"
[ "$(cat "$out/timeout.rc" 2>/dev/null)" = 3 ] ||
    diag "$(cat "$out/timeout.csv" "$out/timeout.err" 2>/dev/null)"
cmp -s "$out/before.txt" "$out/after-timeout.txt"
ok $? "after the timeout every block is online"

# The interrupted probe.
diag "interrupted probe: $(tr '\n' ' ' <"$out/intr.err" 2>/dev/null)"
[ "$(cat "$out/intr.rc" 2>/dev/null)" = 130 ]
ok $? "SIGTERM while offlining: exit 130"
[ "$(cat "$out/intr.rc" 2>/dev/null)" = 130 ] ||
    diag "$(cat "$out/intr.out" "$out/intr.err" 2>/dev/null | tail -20)"
cmp -s "$out/before.txt" "$out/after-intr.txt"
ok $? "after SIGTERM every block is online in the zone it was in"
cmp -s "$out/before.txt" "$out/after-intr.txt" ||
    diag "$(diff "$out/before.txt" "$out/after-intr.txt")"
grep -q '"status": "interrupted"' "$out/intr.json" 2>/dev/null &&
    ! grep -q '"offline_now": true' "$out/intr.json" &&
    grep -q '"block": "memory10"' "$out/intr.json" &&
    grep -q '"state_after": "online"' "$out/intr.json"
ok $? "intr.json: interrupted, memory10 touched, nothing offline now"

# The movable region.
[ "$(cat "$out/movable.rc" 2>/dev/null)" = 0 ]
ok $? "a movable region is emptied (exit 0)"
[ "$(cat "$out/movable.rc" 2>/dev/null)" = 0 ] ||
    diag "$(cat "$out/movable.csv" "$out/movable.err" 2>/dev/null | tail -20)"
awk -F, 'NR > 1 && $9 == "emptied" && $15 == "online" { n++ }
    END { exit n == 2 ? 0 : 1 }' "$out/movable.csv" 2>/dev/null
ok $? "movable.csv: both blocks emptied and online again"
awk -F, 'NR > 1 { moved += $11 } END { exit moved > 0 ? 0 : 1 }' \
    "$out/movable.csv" 2>/dev/null
ok $? "offlining moved the workload's pages (pgmigrate_success)"
diag "$(cut -d, -f3,9-12 "$out/movable.csv" 2>/dev/null)"
cmp -s "$out/before.txt" "$out/after-movable.txt"
ok $? "every block is back online, memory12-13 in ZONE_MOVABLE"
grep -q '"emptied": true' "$out/movable.json" 2>/dev/null
ok $? "movable.json: emptied"

# The kernel's region.
[ "$(cat "$out/kernel.rc" 2>/dev/null)" = 3 ]
ok $? "the region holding the kernel image is refused (exit 3)"
grep -q 'memory0: .*Invalid argument\|memory0: .*busy' "$out/kernel.err" \
    2>/dev/null
ok $? "the refusal names the block and the kernel's error"
grep -q 'holds the kernel image' "$out/kernel.out" 2>/dev/null
ok $? "the report says the block holds the kernel image"
grep -q 'unmovable pages: [0-9]* reserved' "$out/kernel.out" 2>/dev/null
ok $? "the report counts the unmovable pages kpageflags shows"
[ "$(cat "$out/kernel.rc" 2>/dev/null)" = 3 ] ||
    diag "$(cat "$out/kernel.out" "$out/kernel.err" 2>/dev/null | tail -20)"
cmp -s "$out/before.txt" "$out/after-kernel.txt"
ok $? "every block is online after the refusal"

# The suite's checkpoint probe.
[ "$(cat "$out/suite.rc" 2>/dev/null)" = 0 ]
ok $? "a suite with vacate at a checkpoint runs (exit 0)"
[ "$(cat "$out/suite.rc" 2>/dev/null)" = 0 ] ||
    diag "$(tail -20 "$out/suite.err" 2>/dev/null)"
grep -q ',vacate,"100%: region 0/6 ' "$out/suite/events.csv" 2>/dev/null
ok $? "events.csv has the probe's outcome for region 0/6"
diag "$(grep ',vacate,' "$out/suite/events.csv" 2>/dev/null)"
grep -q '"checkpoint": "100%"' "$out/suite/vacate.json" 2>/dev/null &&
    grep -q '"phase": "fill"' "$out/suite/vacate.json" &&
    grep -Eq '"timeout_s": 600(\.0*)?([^0-9.]|$)' "$out/suite/vacate.json"
ok $? "vacate.json has the probe, its phase, checkpoint and vacate-timeout"
cmp -s "$out/before.txt" "$out/after-suite.txt"
ok $? "every block is online after the run"
rb verify "$out/suite"
expect_rc 0 "verify passes on the run"

done_testing
