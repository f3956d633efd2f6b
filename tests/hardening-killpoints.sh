# SIGKILL at every point where a run changes what is on disk: sample and
# run are made to kill themselves right after their Nth file operation
# (REGIONBENCH_TEST_KILL_AT, lib/killpoint.h), for N = 1, 2, ... until a
# run gets through, and with "N/torn" half of a write is done first.
# Whatever is left, verify never calls it damaged: it is whole (exit 0)
# or stopped before the first sample (exit 4).
. "$top_srcdir/tests/cli-lib.sh"

cat >"$WORK/short.ini" <<INI
; Two short phases: a start, a phase change and an end to be killed in.
[suite]
name = short
interval = 1s

[phase touch]
workload = pagetest
size = 4M
threads = 1
checkpoints = 0%,100%
settle = 0

[phase forks]
workload = fork-heavy
size = 4M
forkers = 1
forks = 10
settle = 0
INI

# sweep NAME MODE ARGS...: run regionbench ARGS with --out DIR added,
# killed after operation 1, 2, ... (MODE "" or "/torn"), until one exits by
# itself; then verify every directory at once.  One result per sweep.
sweep() {
	name=$1
	mode=$2
	shift 2
	n=0
	dir="$WORK/$name${mode#/}"
	mkdir "$dir"
	while [ $n -lt 2000 ]; do
		n=$((n + 1))
		REGIONBENCH_TEST_KILL_AT="$n$mode" "$REGIONBENCH" "$@" \
		    --out "$dir/$n" --quiet >/dev/null \
		    2>"$WORK/err" </dev/null
		rc=$?
		[ $rc -eq 137 ] || break
	done
	[ $rc -eq 0 ] || diag "$name: the last run (no kill) exited $rc:" \
	    "$(head -c 2000 "$WORK/err")"
	# Every directory made (a kill before mkdir leaves none).
	# shellcheck disable=SC2046
	set -- $(ls "$dir")
	(cd "$dir" && "$REGIONBENCH" verify "$@") \
	    >"$WORK/out" 2>"$WORK/err" </dev/null
	whole=$(grep -c ': whole' "$WORK/out")
	nodata=$(grep -c ': stopped before the first sample (no data)$' \
	    "$WORK/out")
	[ $# -gt 0 ] && [ $((whole + nodata)) -eq $# ] &&
	    ! grep -q damaged "$WORK/out"
	st=$?
	ok $st "$name$mode: killed after each of $((n - 1)) file operations, \
never damaged ($whole whole, $nodata no data)"
	[ $st -eq 0 ] || diag "$(grep -v ': whole' "$WORK/out" |
	    grep -v 'no data)$')" "$(head -c 2000 "$WORK/err")"
	rm -rf "$dir"
}

SAMPLE="sample --source zone --proc $FIXTURES/6.18 --count 2 \
--interval 10ms --pagetype-every 1"
# shellcheck disable=SC2086
sweep sample "" $SAMPLE
# shellcheck disable=SC2086
sweep sample /torn $SAMPLE
sweep run "" run "$WORK/short.ini" --source zone --no-charts
sweep run /torn run "$WORK/short.ini" --source zone --no-charts

done_testing
