# SIGKILL of the runner at different moments: no workload process
# survives it (PR_SET_PDEATHSIG), no scratch file of page-cache-churn
# remains under its --dir, and what was written passes verify.
. "$top_srcdir/tests/cli-lib.sh"

mkdir "$WORK/scratch"
cat >"$WORK/kill.ini" <<INI
; page-cache-churn with its scratch under a directory the test watches,
; then a forking workload: a SIGKILL lands in one or the other.
[suite]
name = kill
interval = 50ms

[phase cache]
workload = page-cache-churn
size = 16M
threads = 2
duration = 1500ms
dir = $WORK/scratch

[phase forks]
workload = fork-heavy
size = 8M
forkers = 2
duration = 3s
INI

# Every process of a run has the results path on its command line
# (workload children are forks of the runner).
for delay in 0.2 0.8 2.2; do
	out="$WORK/kill-$delay"
	"$REGIONBENCH" run "$WORK/kill.ini" --source zone --out "$out" \
	    --no-charts --quiet >/dev/null 2>&1 </dev/null &
	pid=$!
	sleep "$delay"
	kill -KILL $pid
	wait $pid 2>/dev/null
	left=1
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		pgrep -f -- "$out" >/dev/null || { left=0; break; }
		sleep 0.2
	done
	ok $left "SIGKILL after ${delay}s: no workload process survives"
	[ $left -eq 0 ] || diag "$(pgrep -a -f -- "$out")"
	# A kill between mkdtemp and its rmdir (slow ASan builds) may leave
	# the empty private directory; no file may remain.
	[ -z "$(find "$WORK/scratch" -type f)" ]
	ok $? "SIGKILL after ${delay}s: no scratch file left"
	[ -z "$(ls -A "$WORK/scratch")" ] || diag "$(ls -lA "$WORK/scratch")"
	# Killed before the first sample: no data (exit 4), not damage.
	if [ -f "$out/meta.json" ]; then
		rb verify "$out"
		if [ "$RC" -eq 4 ]; then
			expect_out "stopped before the first sample" \
			    "SIGKILL after ${delay}s: verify says no data"
		else
			expect_rc 0 "SIGKILL after ${delay}s: verify passes"
		fi
		expect_out "status 'running'|before the first sample" \
		    "SIGKILL after ${delay}s: meta.json says running"
	fi
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
"$REGIONBENCH" run "$WORK/short.ini" --source zone --out "$out" --quiet \
    >/dev/null 2>&1 </dev/null &
pid=$!
kids=""
watched=0
while kill -0 $pid 2>/dev/null; do
	if grep -q '"status": "complete"' "$out/meta.json" 2>/dev/null; then
		watched=1
		kids="$kids$(pgrep -P $pid)"
	fi
	sleep 0.005
done
wait $pid
[ -z "$kids" ]
ok $? "after the phases the runner has no child to leave behind"
[ -z "$kids" ] || diag "children seen: $kids"
[ $watched -eq 1 ] || diag "the run ended before it was watched"

done_testing
