# regionbench run end to end: a tiny suite, malformed suites, SIGINT,
# SIGKILL followed by verify, --repeat, and the seed suite on a replayed
# patched-kernel recording.
. "$top_srcdir/tests/cli-lib.sh"
SUITES="$TESTDATA/runner"
export REGIONBENCH_SUITES="$top_srcdir/bench/suites"

# in_phase DIR: the run in DIR has written a sample of its phase "hold", so
# that a signal lands in the middle of it.
in_phase() {
	has_row "$1/samples.csv" '^[0-9.]+,hold,'
}

# No process may outlive a run: every process of ours has the unique
# results path on its command line (workload children are forks).
no_process_left() {
	wait_for "the processes of the run to end" gone "$1"
}

# A tiny suite end to end.
out="$WORK/tiny"
rb run "$SUITES/tiny.ini" --out "$out" --no-charts --quiet
expect_rc 0 "run of a two-phase suite"
expect_out "^$out\$" "--quiet prints only the results path"
for f in meta.json regions.csv samples.csv buddy.csv events.csv workloads.csv summary.csv; do
	[ -s "$out/$f" ]
	ok $? "tiny: $f written"
done
grep -q '"status": "complete"' "$out/meta.json"
ok $? "meta.json says complete"
grep -q '"name": "tiny"' "$out/meta.json" && grep -q 'Two short phases' "$out/meta.json"
ok $? "meta.json holds the suite's name and text"
for e in 'phase_start,touch' 'phase_end,touch' 'phase_start,churn' 'checkpoint,0%' 'checkpoint,50%' 'checkpoint,100%'; do
	grep -q ",$e," "$out/events.csv"
	ok $? "events.csv has $e"
done
grep -q '^touch,pagetest,total,pages,' "$out/workloads.csv"
ok $? "workloads.csv has pagetest's page count"
grep -q '^churn,frag-churn,' "$out/workloads.csv"
ok $? "workloads.csv has frag-churn's rows"
grep -q ',churn,0,' "$out/samples.csv"
ok $? "samples are tagged with the phase"
rb verify "$out"
expect_rc 0 "verify passes on the tiny run"
expect_out "whole and complete" "verify says complete"
no_process_left "$out"
ok $? "no process left after the run"

# Malformed suite files: exit 2 with file:line before anything runs.
bad() {
	printf '%s\n' "$2" >"$WORK/bad-$1.ini"
	rb run "$WORK/bad-$1.ini" --out "$WORK/out-bad-$1" --quiet
	expect_rc 2 "malformed suite: $1"
	expect_err "bad-$1.ini:$3: .*$4" "$1: message names line $3 and says '$4'"
	[ ! -e "$WORK/out-bad-$1" ]
	ok $? "$1: nothing was written"
}
bad section '[suite]
name = x
[stage one]
workload = pagetest' 3 'unknown section'
bad suite-key '[suite]
colour = blue' 2 "unknown key 'colour'"
bad workload '[phase a]
workload = pagetset' 2 "unknown workload 'pagetset'"
bad value '[phase a]
workload = pagetest
size = 12X' 3 'size'
bad range '[phase a]
workload = pagetest
threads = 99999' 3 'out of range'
bad option '[phase a]
workload = pagetest
forkers = 2' 3 'forkers'
bad order '[phase a]
size = 1M
workload = pagetest' 2 'before workload'
bad twice '[phase a]
workload = pagetest
[phase a]
workload = pagetest' 3 'twice'
bad no-workload '[phase a]
settle = 1s' 1 'no workload'
bad checkpoints '[phase a]
workload = pagetest
checkpoints = 0%,150%' 3 'percentage'
bad vacate '[phase a]
workload = pagetest
checkpoints = 50%
vacate = 0/x' 4 'vacate: region .0/x.: expected NODE/REGION'
bad vacate-twice '[phase a]
workload = pagetest
checkpoints = 50%
vacate = 0/1,0/1' 4 'given twice'
bad vacate-timeout '[phase a]
workload = pagetest
checkpoints = 50%
vacate = 0/1
vacate-timeout = 0s' 5 'vacate-timeout: expected a duration above 0'
bad vacate-timeout-unit '[phase a]
workload = pagetest
checkpoints = 50%
vacate = 0/1
vacate-timeout = soon' 5 'vacate-timeout: '
bad vacate-no-checkpoint '[phase a]
workload = pagetest
vacate = 0/1' 3 'no checkpoints'
bad interval '[suite]
interval = fast
[phase a]
workload = pagetest' 2 'interval'
bad no-phase '[suite]
name = empty' 2 'no \[phase'
bad syntax '[phase a
workload = pagetest' 1 'expected'
rb run no-such-suite --quiet
expect_rc 2 "an unknown suite name"
expect_err "no suite named 'no-such-suite'" "and the message lists what exists"

# SIGINT in the middle: exit 130, interrupted, nothing left behind.
out="$WORK/int"
"$REGIONBENCH" run "$SUITES/long.ini" --out "$out" --no-charts --quiet >/dev/null 2>"$WORK/int.err" &
pid=$!
wait_for "a sample of phase hold" in_phase "$out"
kill -INT $pid
wait $pid
RC=$?
expect_rc 130 "SIGINT ends the run with 130"
grep -qxF "run: interrupted in phase 1/1 (hold); partial results in $out; check them with 'regionbench verify $out'" \
    "$WORK/int.err"
ok $? "says where it was interrupted, where the results are, what next"
grep -q '"status": "interrupted"' "$out/meta.json"
ok $? "meta.json says interrupted"
grep -q ',interrupted,' "$out/events.csv"
ok $? "events.csv records the interruption"
no_process_left "$out"
ok $? "no process left after SIGINT"
rb verify "$out"
expect_rc 0 "verify passes after SIGINT"

# SIGKILL in the middle: files still parse, meta says running.
out="$WORK/kill"
"$REGIONBENCH" run "$SUITES/long.ini" --out "$out" --no-charts --quiet >/dev/null 2>&1 &
pid=$!
wait_for "a sample of phase hold" in_phase "$out"
kill -KILL $pid
wait $pid 2>/dev/null
no_process_left "$out"
ok $? "no workload survives SIGKILL of the runner"
rb verify "$out"
expect_rc 0 "verify passes after SIGKILL"
expect_out "not complete: status 'running'" "verify says the run is not complete"

# Damage is found.
cp -r "$WORK/tiny" "$WORK/damaged"
printf '1.0,touch,0,0\n' >>"$WORK/damaged/samples.csv"
rb verify "$WORK/damaged"
expect_rc 1 "verify finds a short row"
expect_out "samples.csv" "and names the file"

# --repeat 2: one directory per repetition under --out.
out="$WORK/rep"
rb run "$SUITES/tiny.ini" --repeat 2 --out "$out" --no-charts --quiet
expect_rc 0 "run --repeat 2"
[ -f "$out/rep-01/meta.json" ] && [ -f "$out/rep-02/meta.json" ]
ok $? "rep-01 and rep-02 exist"
grep -q '"index": 2' "$out/rep-02/meta.json"
ok $? "rep-02 knows it is repetition 2"
rb verify "$out"
expect_rc 0 "verify checks every repetition"

# The seed suite on a replayed recording of a patched kernel.
rec="$WORK/patched-rec"
for i in 0 1 2 3 4 5 6 7 8 9; do
	for j in 0 1; do
		mkdir -p "$rec/00$j$i"
		cp "$FIXTURES/patched-2.6.39/zoneinfo" "$FIXTURES/patched-2.6.39/buddyinfo" \
		    "$FIXTURES/patched-2.6.39/pagetypeinfo" "$rec/00$j$i/"
		echo "$j$i.0" >"$rec/00$j$i/time"
	done
done
# Only the samples of events (start, checkpoints, phase end) read the
# recording: periodic ones would use it up on a slow machine before the
# 94% checkpoint.
rb run seed --source patched --replay "$rec" --interval 1h --out "$WORK/seed" \
    --no-charts
expect_rc 0 "seed suite on a replayed patched recording"
# Region 0: 124013 pages free in zoneinfo and 48 on the per-CPU lists.
expect_out '\| *Region 0 *\| *124061 *\| *124061 *\| *124061 *\|' "seed table: region 0 at every checkpoint"
expect_out '\| *Region 3 *\| *57332 ' "seed table: region 3"
expect_out '0% .*94% .*100%' "seed table has the three checkpoints"
# With charts: drawn, and no note about the power-states chart, which
# only a run with --references can have.
rb run seed --source patched --replay "$rec" --interval 1h \
    --out "$WORK/seed-charts"
expect_rc 0 "seed suite with its charts"
[ -s "$WORK/seed-charts/charts/heatmap.png" ] &&
    [ -s "$WORK/seed-charts/report.html" ]
ok $? "charts and report drawn"
! grep -q power-states "$WORK/err"
ok $? "no note about a chart the run did not ask for"

# A suite that vacates: refused before anything runs on the replay (no
# emulated regions), for a region the map lacks (2) and outside a guest
# (3), on the synthetic machine of tests/kpf-tree.h.
cat >"$WORK/vacate.ini" <<'INI'
[phase a]
workload = pagetest
size = 1M
checkpoints = 50%
vacate = 1/0
INI
rb run "$WORK/vacate.ini" --source patched --replay "$rec" --out "$WORK/v0" \
    --quiet
expect_rc 3 "vacate on a replay"
expect_err "vacate needs emulated regions" "says why"
T="$WORK/tree"
mkdir -p "$T"
if "$top_builddir/tests/kpf-mktree" "$T" all; then
	unset REGIONBENCH_VM_FACTS
	rb run "$WORK/vacate.ini" --source kpageflags --proc "$T/proc" \
	    --sys "$T/sys" --region-size 256M --out "$WORK/v1" --quiet
	expect_rc 3 "vacate outside a guest"
	expect_err "vacate.ini:5: refusing to vacate regions outside a guest" \
	    "names the suite's line and says why"
	[ ! -e "$WORK/v1" ]
	ok $? "nothing was written"
	sed 's|^vacate = 1/0|vacate = 1/5|' "$WORK/vacate.ini" >"$WORK/vacate5.ini"
	rb run "$WORK/vacate5.ini" --source kpageflags --proc "$T/proc" \
	    --sys "$T/sys" --region-size 256M --out "$WORK/v2" --quiet
	expect_rc 2 "vacate of a region the map lacks"
	expect_err "vacate5.ini:5: region 1/5: node 1 has regions 0-0" \
	    "names the line and the regions there are"
fi

done_testing
