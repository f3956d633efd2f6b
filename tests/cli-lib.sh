# Helpers for the shell CLI tests: TAP output and running regionbench with
# captured stdout, stderr and exit status.  Sourced by tests/*.sh.

TAP_N=0
TAP_FAILED=0
: "${REGIONBENCH:=bench/regionbench}"
: "${FIXTURES:=tests/fixtures/proc}"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/rbtest.XXXXXX")
# A failing test keeps its work directory (the guests' logs, the runs it
# made) and names it; RB_KEEP_WORK=1 keeps it whatever the outcome.
trap 'memcg_remove
if [ "$TAP_FAILED" -gt 0 ] || [ -n "${RB_KEEP_WORK:-}" ]; then
	echo "# work directory kept: $WORK"
else
	rm -rf "$WORK"
fi' EXIT

# memcg_setup BYTES: make a memory cgroup of BYTES (cgroup v2's memory.max
# when the memory controller is there, else a v1 child of this process's
# memory cgroup) and set CG to it, or skip the whole script saying why.
# in_memcg COMMAND... runs a command in it; it is removed at exit, anything
# left in it moved out first.  For tests whose failure could otherwise
# take the host's memory.
CG=""
memcg_setup() {
	[ "$(id -u)" -eq 0 ] || skip_all "memory cgroups need root"
	if [ "$(stat -fc %T /sys/fs/cgroup 2>/dev/null)" = cgroup2fs ] &&
	    grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
		grep -qw memory /sys/fs/cgroup/cgroup.subtree_control ||
		    echo +memory >/sys/fs/cgroup/cgroup.subtree_control \
		    2>/dev/null ||
		    skip_all "cannot enable the memory controller for children"
		CG=$(mktemp -d /sys/fs/cgroup/rb-test-XXXXXX 2>/dev/null) ||
		    skip_all "cannot create a cgroup under /sys/fs/cgroup"
		echo "$1" >"$CG/memory.max" &&
		    echo 0 >"$CG/memory.swap.max" 2>/dev/null
		echo 0 >"$CG/memory.oom.group"
		CG_KIND="cgroup v2"
	else
		v1=$(awk -F: '$2 == "memory" { print $3 }' /proc/self/cgroup)
		base=/sys/fs/cgroup/memory${v1%/}
		[ -n "$v1" ] && [ -w "$base/cgroup.procs" ] ||
		    skip_all "no writable memory cgroup (v2 or v1)"
		CG="$base/rb-test-$$"
		mkdir "$CG" 2>/dev/null ||
		    { CG=""; skip_all "cannot create $base/rb-test-$$"; }
		echo "$1" >"$CG/memory.limit_in_bytes" ||
		    skip_all "cannot set memory.limit_in_bytes"
		CG_KIND="cgroup v1"
	fi
}

in_memcg() {
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$CG" "$@"
}

memcg_remove() {
	if [ -n "$CG" ] && [ -d "$CG" ]; then
		for p in $(cat "$CG/cgroup.procs" 2>/dev/null); do
			echo "$p" >"$(dirname "$CG")/cgroup.procs" 2>/dev/null
		done
		rmdir "$CG" 2>/dev/null
	fi
}

# ok COND_STATUS DESCRIPTION: report one result from a status code.
ok() {
	TAP_N=$((TAP_N + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $TAP_N - $2"
	else
		echo "not ok $TAP_N - $2"
		TAP_FAILED=$((TAP_FAILED + 1))
	fi
}

# diag TEXT: print a TAP diagnostic, one line per input line.
diag() {
	printf '%s\n' "$@" | sed 's/^/# /'
}

# rb ARGS...: run regionbench; sets RC, leaves $WORK/out and $WORK/err.
rb() {
	"$REGIONBENCH" "$@" >"$WORK/out" 2>"$WORK/err" </dev/null
	RC=$?
}

# expect_rc WANT DESCRIPTION: check the last exit status.
expect_rc() {
	[ "$RC" -eq "$1" ]
	st=$?
	ok $st "$2 (exit $RC, want $1)"
	if [ $st -ne 0 ]; then
		diag "stdout:" "$(head -c 2000 "$WORK/out")" \
		    "stderr:" "$(head -c 2000 "$WORK/err")"
	fi
}

# expect_err PATTERN DESCRIPTION: stderr of the last run matches PATTERN.
expect_err() {
	grep -qE -- "$1" "$WORK/err"
	st=$?
	ok $st "$2"
	[ $st -eq 0 ] || diag "stderr was:" "$(head -c 2000 "$WORK/err")"
}

# expect_out PATTERN DESCRIPTION: stdout of the last run matches PATTERN.
expect_out() {
	grep -qE -- "$1" "$WORK/out"
	st=$?
	ok $st "$2"
	[ $st -eq 0 ] || diag "stdout was:" "$(head -c 2000 "$WORK/out")"
}

# wait_for WHAT COMMAND...: run COMMAND every 50 ms until it succeeds, for
# at most $WAIT_LIMIT seconds (default 180: generous, for loaded machines
# and sanitizer builds).  Returns 1 with a diagnostic naming WHAT when the
# time is up.  Tests wait for the state they mean to interrupt this way,
# never with a fixed sleep.
wait_for() {
	wf_what=$1
	shift
	wf_i=0
	while ! "$@"; do
		wf_i=$((wf_i + 1))
		if [ $wf_i -ge $((${WAIT_LIMIT:-180} * 20)) ]; then
			diag "gave up after ${WAIT_LIMIT:-180} s waiting for $wf_what"
			return 1
		fi
		sleep 0.05
	done
	return 0
}

# has_row FILE [PATTERN]: FILE (a CSV table) has a row after its header,
# one matching the extended regular expression PATTERN when given.
has_row() {
	tail -n +2 "$1" 2>/dev/null | grep -qE -- "${2:-.}"
}

# has_line FILE PATTERN: a line of FILE matches PATTERN.
has_line() {
	grep -qE -- "$2" "$1" 2>/dev/null
}

# gone PATTERN: no process has PATTERN on its command line.
gone() {
	! pgrep -f -- "$1" >/dev/null
}

# skip_all REASON: skip the whole script under the TAP driver.
skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

# done_testing: print the plan and exit with the right status.
done_testing() {
	echo "1..$TAP_N"
	[ "$TAP_FAILED" -eq 0 ]
}

# vm_test_setup: for the tests that boot guests: skip without QEMU or a
# kernel (tests/vm-kernel.sh fetches Debian's), set $kernel,
# and keep the guest init and the initramfs cache in the test's directory.
vm_test_setup() {
	command -v qemu-system-x86_64 >/dev/null ||
		skip_all "no qemu-system-x86_64 (apt-get install qemu-system-x86)"
	kernel=${REGIONBENCH_VM_KERNEL:-}
	if [ -z "$kernel" ]; then
		for d in "$top_builddir/tests/vm-kernel" \
		    "$top_srcdir/tests/vm-kernel"; do
			for k in "$d"/boot/vmlinuz-*; do
				[ -f "$k" ] && kernel=$k && break 2
			done
		done
	fi
	[ -n "$kernel" ] && [ -f "$kernel" ] ||
		skip_all "no kernel to boot (sh tests/vm-kernel.sh fetches Debian's)"
	export REGIONBENCH_VM_INIT="$top_builddir/bench/regionbench-vm-init"
	export XDG_CACHE_HOME="$WORK/cache"
}
