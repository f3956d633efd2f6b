# A workload OOM-killed in the middle of a phase, deterministically: the
# runner runs in a memory cgroup of 128 MiB and the first phase's pagetest
# asks for 512 MiB.  The runner sits at oom_score_adj -1000 and the
# workload at +1000, so the kernel kills the workload; the run records it
# (events.csv oom, workloads.csv status oom-killed), goes on with the next
# phase, exits 1, and verify passes (memcg_setup: cgroup v2 or v1; the
# cgroup is removed).
. "$top_srcdir/tests/cli-lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "memory cgroups need root"
# Under ASan (gcc 12) the forked worker of a cgroup-confined run was seen
# deadlocked on a lock inherited from the runner's threads: not this test.
if nm "$REGIONBENCH" 2>/dev/null | grep -q __asan_init; then
	skip_all "ASan build (its forked workers can deadlock in a cgroup)"
fi
# The runner must be out of the OOM killer's reach: where -1000 is refused
# (some containers), a loaded machine can see a second OOM kill, before
# the workload's memory is freed, take the runner.
sh -c 'echo -1000 >/proc/self/oom_score_adj' 2>/dev/null ||
    skip_all "oom_score_adj -1000 is refused here: the runner is not protected"
memcg_setup $((128 << 20))
diag "using $CG_KIND: $CG"

out="$WORK/r"
# timeout: a hang fails the test instead of the whole make check.
in_memcg timeout -s KILL 300 "$REGIONBENCH" run "$TESTDATA/runner/oom.ini" \
    --source zone --out "$out" --no-charts --quiet >"$WORK/out" 2>"$WORK/err" </dev/null
RC=$?
expect_rc 1 "the run survives the OOM kill and says a phase failed"
expect_err "boom: pagetest was killed by the OOM killer" \
    "the error names the phase and the OOM killer"
grep -q '^[0-9.]*,oom,.*,boom$' "$out/events.csv"
ok $? "events.csv has an oom row in phase boom"
grep -q '^boom,pagetest,total,status,[0-9]*,oom-killed$' "$out/workloads.csv"
ok $? "workloads.csv: boom's status is oom-killed"
grep -q '^after,pagetest,total,status,0,done$' "$out/workloads.csv"
ok $? "the next phase ran to the end"
grep -q ',phase_end,after,after$' "$out/events.csv"
ok $? "events.csv: the next phase ended"
rb verify "$out"
expect_rc 0 "verify passes"
expect_out "whole and complete" "and the run is complete"
[ -z "$(cat "$CG/cgroup.procs")" ]
ok $? "no process left in the cgroup"
rmdir "$CG"
ok $? "the cgroup is removed"

done_testing
