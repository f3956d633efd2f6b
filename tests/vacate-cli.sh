#!/bin/sh
# regionbench vacate on the synthetic machine of tests/kpf-tree.h, never on
# this machine's memory: option errors, --dry-run's table, CSV and JSON,
# the refusals (outside a guest, no CONFIG_MEMORY_HOTREMOVE, a state that
# is not writable) and a whole probe over the tree's plain files, run as
# an unprivileged user so that nothing of the real /sys can be written.
. "$top_srcdir/tests/cli-lib.sh"

unset REGIONBENCH_VM_FACTS
MKTREE="$top_builddir/tests/kpf-mktree"
T="$WORK/tree"
mkdir -p "$T"
"$MKTREE" "$T" all || { echo "Bail out! kpf-mktree failed"; exit 1; }
P="--proc $T/proc --sys $T/sys --region-size 256M"
M="$T/sys/devices/system/memory"

rb vacate --help
expect_rc 0 "vacate --help"
expect_out "--dry-run" "vacate --help lists --dry-run"

rb vacate $P --dry-run
expect_rc 2 "no --region"
rb vacate $P --dry-run --region 0
expect_rc 2 "--region without a slash"
expect_err "expected NODE/REGION" "says what a region looks like"
rb vacate $P --dry-run --region 0/x
expect_rc 2 "--region 0/x"
rb vacate $P --dry-run --region 0/2
expect_rc 2 "a region the node does not have"
expect_err "region 0/2: node 0 has regions 0-1" "names the regions there are"
rb vacate $P --dry-run --region 7/0
expect_rc 2 "a node that does not exist"
rb vacate $P --dry-run --region 0/1 --region 0/1
expect_rc 2 "a region given twice"
rb vacate $P --dry-run --region 0/0 --format yaml
expect_rc 2 "an unknown --format"

# --dry-run reads only: no guest, no root, no removable needed.
rb vacate $P --dry-run --region 0/0 --region 1/0
expect_rc 0 "--dry-run on the synthetic tree"
cat >"$WORK/want.txt" <<'EOF'
region 0/0: pfn 0-65536 (256M), 2 blocks: dry run, nothing offlined
  block      state     valid_zones      removable result      offline_s  migrated  failed
  memory0    online    none             absent    not-tried       0.000         0       0
             spans several zones; holes: pfn 0-256 is not System RAM
  memory1    online    Normal           absent    not-tried       0.000         0       0
region 1/0: pfn 163840-229376 (256M), 2 blocks: dry run, nothing offlined
  block      state     valid_zones      removable result      offline_s  migrated  failed
  memory5    online    Normal           absent    not-tried       0.000         0       0
  memory6    online    Normal           absent    not-tried       0.000         0       0
EOF
cmp -s "$WORK/out" "$WORK/want.txt"
ok $? "--dry-run table: exact"
cmp -s "$WORK/out" "$WORK/want.txt" || diag "$(diff "$WORK/want.txt" "$WORK/out")"
[ ! -s "$WORK/err" ]
ok $? "--dry-run says nothing on stderr"
rb vacate $P --dry-run 0/0 1/0
expect_rc 0 "regions as operands"
cmp -s "$WORK/out" "$WORK/want.txt"
ok $? "regions as operands: the same table as --region"
rb vacate $P --dry-run 0/x
expect_rc 2 "a bad region operand"
expect_err "vacate: region '0/x': expected NODE/REGION" "names it"

rb vacate $P --dry-run --region 0/1 --format csv
expect_rc 0 "--dry-run --format csv"
cat >"$WORK/want.csv" <<'EOF'
node,region,block,start_pfn,end_pfn,state_before,valid_zones,removable,result,offline_s,pgmigrate_success,pgmigrate_fail,errno,reason,state_after,valid_zones_after,notes
0,1,memory2,65536,98304,offline,Normal Movable,,not-tried,0.000000,0,0,0,,offline,Normal Movable,
0,1,memory3,98304,131072,online,Normal,,not-tried,0.000000,0,0,0,,online,Normal,
EOF
cmp -s "$WORK/out" "$WORK/want.csv"
ok $? "--dry-run csv: exact rows"
cmp -s "$WORK/out" "$WORK/want.csv" || diag "$(diff "$WORK/want.csv" "$WORK/out")"

rb vacate $P --dry-run --region 0/1 --format json
expect_rc 0 "--dry-run --format json"
if command -v python3 >/dev/null; then
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "complete" and d["dry_run"] is True
r = d["regions"][0]
assert (r["node"], r["region"], r["emptied"]) == (0, 1, None)
assert [b["block"] for b in r["blocks"]] == ["memory2", "memory3"]
assert [b["state_after"] for b in r["blocks"]] == ["offline", "online"]
' "$WORK/out"
	ok $? "--dry-run json: status, region and blocks"
fi

# Outside a guest: refused before anything is touched.
cp -R "$T" "$WORK/tree0"
rb vacate $P --region 1/0
expect_rc 3 "outside a guest without --force"
expect_err "refusing to offline memory outside a guest" "says why"
expect_err "--force" "says how to go on"
diff -r "$T" "$WORK/tree0" >/dev/null
ok $? "the tree is untouched"

# No removable attribute: a kernel without CONFIG_MEMORY_HOTREMOVE.
rb vacate $P --region 1/0 --force
expect_rc 3 "no removable attribute"
expect_err "memory5/removable: absent: .*CONFIG_MEMORY_HOTREMOVE" \
    "names the file and the kernel option"

# Another virtual machine (DMI naming QEMU) may be someone's live
# system: it is refused too, and named.
mkdir -p "$T/sys/class/dmi/id"
echo QEMU >"$T/sys/class/dmi/id/sys_vendor"
rb vacate $P --region 1/0
expect_rc 3 "a virtual machine that is not a regionbench vm guest"
expect_err "a virtual machine .*QEMU.*not a guest of regionbench vm" \
    "the refusal names what it saw"
rm "$T/sys/class/dmi/id/sys_vendor"

for b in 0 1 2 3 5 6; do
	echo 0 >"$M/memory$b/removable"
done
rb vacate $P --region 1/0 --force
expect_rc 3 "removable says 0"
expect_err "memory5/removable: says 0" "says so"
for b in 0 1 2 3 5 6; do
	echo 1 >"$M/memory$b/removable"
done

# Without memory blocks in sysfs.
mkdir -p "$WORK/nomem/sys/devices/system/node/node0"
rb vacate --proc "$T/proc" --sys "$WORK/nomem/sys" --region 0/0 --force
expect_rc 3 "no memory blocks in sysfs"

# A whole probe over the tree's files, as an unprivileged user, so that
# only the tree can be written.
as_user=""
if [ "$(id -u)" -eq 0 ]; then
	if command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
		as_user="setpriv --reuid=nobody --regid=$(id -g nobody) \
		    --clear-groups --inh-caps=-all"
		chown -R nobody "$T" "$WORK"
	else
		as_user=none
	fi
fi
if [ "$as_user" = none ]; then
	diag "root without setpriv: the probe over the tree is skipped"
else
	chmod 444 "$M/memory5/state"
	$as_user "$REGIONBENCH" vacate $P --region 1/0 --force \
	    >"$WORK/out" 2>"$WORK/err" </dev/null
	RC=$?
	expect_rc 3 "a state that is not writable"
	expect_err "memory5/state: not writable" "names the file"
	chmod 644 "$M/memory5/state"

	$as_user "$REGIONBENCH" vacate $P --region 0/0 --region 0/1 --force \
	    --out "$WORK/res.json" >"$WORK/out" 2>"$WORK/err" </dev/null
	RC=$?
	expect_rc 0 "the probe over the tree's files"
	expect_out "^region 0/0: .*emptied in" "region 0/0 emptied"
	expect_out "^  memory2 +offline .* skipped" "an offline block is left alone"
	expect_err "memory1: offlining" "progress lines on stderr"
	states=""
	for b in 0 1 2 3; do
		states="$states $(cat "$M/memory$b/state")"
	done
	[ "$states" = " online online offline online" ]
	ok $? "every block is as it was"
	grep -q '"status": "complete"' "$WORK/res.json" &&
	    ! grep -q '"offline_now": true' "$WORK/res.json"
	ok $? "the results file: complete, nothing offline"
	[ "$(ls "$WORK" | grep -c '^res\.json')" -eq 1 ] &&
	    [ -z "$(ls -A "$WORK" | grep -v '^res\.json$' | grep '^\.*res')" ]
	ok $? "no temporary file left next to it"
fi

done_testing
