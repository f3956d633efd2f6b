# SIGINT/SIGTERM stop a workload: exit 130, what was done is printed, no
# process and no scratch file is left.
. "$top_srcdir/tests/cli-lib.sh"

# group_left PGID: how many live processes are in the process group.
group_left() {
	group=$1
	n=0
	for s in /proc/[0-9]*/stat; do
		{ read -r stat <"$s"; } 2>/dev/null || continue
		# After the command name in parentheses: state ppid pgrp ...
		# shellcheck disable=SC2086
		set -- ${stat##*) }
		[ "${3:-}" = "$group" ] && [ "$1" != Z ] && n=$((n + 1))
	done
	echo "$n"
}

# start_time PID: the process's start time (field 22 of its stat), or
# nothing when it is gone.
start_time() {
	{ read -r stat </proc/"$1"/stat; } 2>/dev/null || return 0
	# shellcheck disable=SC2086
	set -- ${stat##*) }
	echo "${20}"
}

# stop_run SIGNAL PATTERN ARGS...: start regionbench ARGS in the background
# with progress lines on stderr, signal it once a line matches PATTERN (the
# work the test means to interrupt has begun), wait for it.  The previous
# run's stderr is removed first: the background shell truncates the file
# only when it gets to run, and a busy machine lets wait_for match the
# previous run's lines before that.
stop_run() {
	sig=$1
	pattern=$2
	shift 2
	rm -f "$WORK/err"
	"$REGIONBENCH" "$@" --progress 50ms >"$WORK/out" 2>"$WORK/err" \
	    </dev/null &
	pid=$!
	wait_for "progress: $pattern" has_line "$WORK/err" "$pattern"
	worker=$(pgrep -P "$pid" | head -n 1)
	kill -s "$sig" "$pid"
	wait "$pid"
	RC=$?
}

stop_run INT ': forks [1-9]' workload fork-heavy --size 8M --forkers 2 \
    --duration 60s
expect_rc 130 "SIGINT stops fork-heavy with 130"
expect_out '^total +forks +[1-9]' "and prints the forks done so far"
expect_err 'interrupted' "says it was interrupted"
ok "$([ -n "$worker" ] && [ "$(group_left "$worker")" -eq 0 ]; echo $?)" \
    "no worker or child process left"

mkdir "$WORK/scratch"
stop_run TERM ': write [0-9.]*[1-9]' workload page-cache-churn --size 32M \
    --threads 1 --duration 60s --dir "$WORK/scratch"
expect_rc 130 "SIGTERM stops page-cache-churn with 130"
expect_out '^total +read +[0-9]' "and prints what was read"
ok "$([ -z "$(ls -A "$WORK/scratch")" ]; echo $?)" "no scratch file left"
ok "$([ -n "$worker" ] && [ "$(group_left "$worker")" -eq 0 ]; echo $?)" \
    "no process left"

# SIGKILL of regionbench: the worker dies with it (PR_SET_PDEATHSIG) and,
# its files being unlinked from the start, leaves no scratch behind.
rm -rf "$WORK/scratch" "$WORK/err"
mkdir "$WORK/scratch"
"$REGIONBENCH" workload page-cache-churn --size 16M --threads 1 \
    --duration 60s --dir "$WORK/scratch" --progress 50ms >/dev/null \
    2>"$WORK/err" </dev/null &
pid=$!
wait_for "page-cache-churn writing" has_line "$WORK/err" ': write [0-9.]*[1-9]'
worker=$(pgrep -P "$pid" | head -n 1)
born=$(start_time "$worker")
[ -n "$born" ] || diag "no worker found under regionbench $pid"
kill -s KILL "$pid"
wait "$pid" 2>/dev/null
# worker_gone: the worker was seen and is gone (a zombie, or its pid now
# another process's: pids wrap quickly while other tests fork).
worker_gone() {
	[ -n "$worker" ] && [ -n "$born" ] || return 1
	[ "$(start_time "$worker")" != "$born" ] && return 0
	[ "$(sed 's/.*) \(.\).*/\1/' /proc/"$worker"/stat 2>/dev/null)" = Z ]
}
wait_for "the worker to end" worker_gone
st=$?
ok $st "the worker dies with a SIGKILLed regionbench"
[ $st -eq 0 ] || diag "worker $worker (started at $born):" \
    "$(ps -e -o pid,pgid,stat,lstart,wchan:32,args |
    awk -v w="$worker" 'NR == 1 || $1 == w || $2 == w')"
ok "$([ -z "$(ls -A "$WORK/scratch")" ]; echo $?)" \
    "and leaves no scratch file"

done_testing
