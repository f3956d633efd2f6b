# The workloads' own cgroup, in a guest (cgroup v2, which the guest's init
# mounts): the runner, alone in a 128 MiB memory cgroup and without
# CAP_SYS_RESOURCE (so it stays at oom_score_adj 0, as in many
# containers), runs a phase asking for 512 MiB.  The workload runs in a
# child cgroup with memory.oom.group and a memory.max below the 128 MiB, so
# the OOM kill takes the workload as a group and never the runner; afterwards every cgroup the runner made is
# gone and the limited cgroup is as it was.  Skips like vm-boot.sh.
. "$top_srcdir/tests/cli-lib.sh"

vm_test_setup
command -v setpriv >/dev/null || skip_all "no setpriv (util-linux)"

out="$WORK/vm-oom"
mkdir -p "$out"
cp "$TESTDATA/runner/oom.ini" "$out/oom.ini"
cat >"$WORK/guest.sh" <<'GUEST'
set -u
cg=/sys/fs/cgroup/rb-oom
echo +memory >/sys/fs/cgroup/cgroup.subtree_control
mkdir "$cg" && echo 128M >"$cg/memory.max" && echo 0 >"$cg/memory.swap.max"
sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" \
    setpriv --bounding-set=-sys_resource --inh-caps=-sys_resource \
    regionbench run oom.ini --source zone --out r --no-charts --quiet --force \
    >run.out 2>run.err
echo $? >run.rc
ls "$cg" | grep regionbench >left.txt
cat "$cg/cgroup.subtree_control" >subtree.txt
cat "$cg/memory.events" >events.txt
cat "$cg/cgroup.procs" >procs.txt
rmdir "$cg" && echo removed >removed.txt
GUEST
rb vm --kernel "$kernel" --memory 1G --cpus 2 --scratch 0 --timeout 15m \
    --out "$out" -- sh "$WORK/guest.sh"
expect_rc 0 "the guest's script ran"
[ "$(cat "$out/run.rc" 2>/dev/null)" = 1 ]
ok $? "the run survives the OOM kill and says a phase failed"
grep -q 'boom: pagetest was killed by the OOM killer' "$out/run.err" 2>/dev/null
ok $? "the error names the phase and the OOM killer"
[ "$RC" -eq 0 ] && [ "$(cat "$out/run.rc" 2>/dev/null)" = 1 ] ||
    diag "$(cat "$out/run.err" "$out/vm-console.log" 2>/dev/null | tail -20)"
grep -q '"runner_oom_score_adj": 0' "$out/r/meta.json" 2>/dev/null
ok $? "the runner could not protect itself (oom_score_adj 0)"
grep -q '"path": "/sys/fs/cgroup/rb-oom/regionbench-[0-9]*-workloads"' \
    "$out/r/meta.json" 2>/dev/null &&
    grep -q '"oom_group": true' "$out/r/meta.json"
ok $? "meta.json: the workloads ran in their own cgroup with oom.group"
# 128 MiB less the 16 MiB left to the runner: the workloads meet their
# own limit first, so their OOM kills never choose the runner.
grep -q '"memory_max": 117440512' "$out/r/meta.json" 2>/dev/null &&
    grep -q '"inherited_limit": 134217728' "$out/r/meta.json"
ok $? "meta.json: the workloads' memory.max is a reserve below the cgroup's"
grep -q '^boom,pagetest,total,status,[0-9]*,oom-killed$' "$out/r/workloads.csv" &&
    grep -q '^after,pagetest,total,status,0,done$' "$out/r/workloads.csv"
ok $? "workloads.csv: boom oom-killed, the next phase done"
if grep -q '^oom_group_kill' "$out/events.txt" 2>/dev/null; then
	grep -q '^oom_group_kill [1-9]' "$out/events.txt"
	ok $? "the kernel killed the workload as a group (memory.events)"
fi
rb verify "$out/r"
expect_rc 0 "verify passes"
[ -f "$out/left.txt" ] && [ ! -s "$out/left.txt" ]
ok $? "no cgroup of the runner's is left"
[ -f "$out/subtree.txt" ] && [ ! -s "$out/subtree.txt" ]
ok $? "the limited cgroup's subtree_control is as it was"
[ -f "$out/procs.txt" ] && [ ! -s "$out/procs.txt" ]
ok $? "no process left in the limited cgroup"
[ -f "$out/removed.txt" ]
ok $? "the limited cgroup could be removed"

done_testing
