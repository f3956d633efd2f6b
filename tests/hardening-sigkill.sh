# SIGKILL of the runner in the middle of each phase: no workload process
# survives it (PR_SET_PDEATHSIG), no scratch file of page-cache-churn
# remains under its --dir, and what was written passes verify.  (Kills at
# every file operation, before the first sample too: hardening-killpoints.)
. "$top_srcdir/tests/cli-lib.sh"

mkdir "$WORK/scratch"
# suite CACHE FORKS: page-cache-churn with its scratch under a directory
# the test watches, then a forking workload, for the given durations.
suite() {
	cat <<INI
[suite]
name = kill
interval = 50ms

[phase cache]
workload = page-cache-churn
size = 16M
threads = 2
duration = $1
dir = $WORK/scratch
checkpoints = 1%

[phase forks]
workload = fork-heavy
size = 8M
forkers = 2
duration = $2
INI
}
suite 60s 60s >"$WORK/cache.ini"
suite 100ms 60s >"$WORK/forks.ini"

# Every process of a run has the results path on its command line
# (workload children are forks of the runner).  The kill comes once the
# phase is under way, so it lands in it: for cache once its 1% checkpoint
# is recorded (its setup, which makes and unlinks the files, is over), for
# forks once a sample of the phase is written.
for phase in cache forks; do
	out="$WORK/kill-$phase"
	"$REGIONBENCH" run "$WORK/$phase.ini" --source zone --out "$out" \
	    --no-charts --quiet >/dev/null 2>&1 </dev/null &
	pid=$!
	if [ $phase = cache ]; then
		wait_for "the 1% checkpoint of phase cache" \
		    has_row "$out/events.csv" ',checkpoint,1%,cache$'
	else
		wait_for "a sample of phase $phase" \
		    has_row "$out/samples.csv" "^[0-9.]+,$phase,"
	fi
	ok $? "phase $phase: under way"
	kill -KILL $pid
	wait $pid 2>/dev/null
	wait_for "the processes of the run to end" gone "$out"
	left=$?
	ok $left "SIGKILL in phase $phase: no workload process survives"
	[ $left -eq 0 ] || diag "$(pgrep -a -f -- "$out")"
	# A kill between mkdtemp and its rmdir may leave the empty private
	# directory; no file may remain.
	[ -z "$(find "$WORK/scratch" -type f)" ]
	ok $? "SIGKILL in phase $phase: no scratch file left"
	[ -z "$(ls -A "$WORK/scratch")" ] || diag "$(ls -lAR "$WORK/scratch")"
	rm -rf "${WORK:?}/scratch" && mkdir "$WORK/scratch"
	rb verify "$out"
	expect_rc 0 "SIGKILL in phase $phase: verify passes"
	expect_out "status 'running'" \
	    "SIGKILL in phase $phase: meta.json says running"
done

# After the phases the runner analyzes, draws the charts and writes the
# report in its own process: no child of it exists then that could outlive
# a SIGKILL (a child would need PR_SET_PDEATHSIG and the parent check, as
# the workloads have).  Watched from meta.json saying complete to the end.
cat >"$WORK/short.ini" <<INI
[suite]
name = short
interval = 10ms

[phase touch]
workload = pagetest
size = 8M
threads = 1
hold = 1500ms
INI
out="$WORK/post"
# LeakSanitizer's exit-time check runs in a helper task that shows as a
# child of the runner: it is not the runner's, so a sanitizer build skips
# the check for this run.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
"$REGIONBENCH" run "$WORK/short.ini" --source zone --out "$out" --quiet \
    >/dev/null 2>&1 </dev/null &
pid=$!
kids=""
watched=0
polls=0
while kill -0 $pid 2>/dev/null; do
	if grep -q '"status": "complete"' "$out/meta.json" 2>/dev/null; then
		watched=1
		kids="$kids$(pgrep -P $pid)"
	fi
	polls=$((polls + 1))
	if [ $polls -ge $((${WAIT_LIMIT:-180} * 200)) ]; then
		diag "the run did not end in ${WAIT_LIMIT:-180} s"
		kill -KILL $pid 2>/dev/null
		kids="$kids (hung)"
		break
	fi
	sleep 0.005
done
wait $pid
[ -z "$kids" ]
ok $? "after the phases the runner has no child to leave behind"
[ -z "$kids" ] || diag "children seen: $kids"
[ $watched -eq 1 ] || diag "the run ended before it was watched"

done_testing
