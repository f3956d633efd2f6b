# Least privilege: --user NAME on run and workload.  As root, the workload
# child switches to NAME (groups, gid, uid) before any work while the
# runner and its sampler keep root, which /proc/kpageflags and other
# processes' pagemap need.  A bad user is refused before anything runs;
# only root may use --user.
. "$top_srcdir/tests/cli-lib.sh"

[ "$(id -u)" -eq 0 ] || skip_all "switching users needs root"
id nobody >/dev/null 2>&1 || skip_all "no user 'nobody' here"
NUID=$(id -u nobody)
NGID=$(id -g nobody)

# ids PID: "uid gid" (real ids) of a process.
ids() {
	awk '/^Uid:/ { u = $2 } /^Gid:/ { g = $2 } END { print u, g }' \
	    "/proc/$1/status" 2>/dev/null
}

# workload --user: the worker runs as nobody, the parent stays root.  The
# ids are read once the pages are touched (the worker then holds them),
# then SIGINT ends the hold.
rm -f "$WORK/err"
"$REGIONBENCH" workload pagetest --size 8M --threads 1 --hold 60s \
    --user nobody --progress 50ms >"$WORK/out" 2>"$WORK/err" </dev/null &
pid=$!
wait_for "the pages touched" has_line "$WORK/err" ': pages 2048'
child=$(pgrep -P $pid | head -n 1)
worker_ids=$(ids "$child")
parent_ids=$(ids $pid)
kill -INT $pid
wait $pid
RC=$?
[ "$worker_ids" = "$NUID $NGID" ]
ok $? "workload --user nobody: the worker runs as nobody ($worker_ids)"
[ "$parent_ids" = "0 0" ]
ok $? "workload --user nobody: the parent keeps root ($parent_ids)"
expect_rc 130 "workload --user nobody: SIGINT ends its hold"
expect_out "^total +pages +2048 " "and it did its work"

rb workload pagetest --size 8M --user no-such-user-rb
expect_rc 2 "workload --user with an unknown user"
expect_err "no-such-user-rb: no such user" "and the message says so"
rb run "$TESTDATA/runner/tiny.ini" --user no-such-user-rb --out "$WORK/x"
expect_rc 2 "run --user with an unknown user"
[ ! -e "$WORK/x" ]
ok $? "run --user with an unknown user writes nothing"

# (Only when nobody can reach the program: checkouts under /root can't.)
if command -v setpriv >/dev/null 2>&1 &&
    setpriv --reuid=nobody --regid="$NGID" --clear-groups \
    test -x "$REGIONBENCH" 2>/dev/null; then
	setpriv --reuid=nobody --regid="$NGID" --clear-groups \
	    "$REGIONBENCH" workload pagetest --size 8M --user root \
	    >"$WORK/out" 2>"$WORK/err" </dev/null
	RC=$?
	expect_rc 3 "--user as a normal user is refused"
	expect_err "only root" "and the message says why"
fi

# run --user with the kpageflags source: the sampler (root) still scans
# kpageflags and the workload's pagemap; the workload runs as nobody.
if [ -r /proc/kpageflags ]; then
	out="$WORK/run"
	# The workload of long.ini touches its pages (placement taken at
	# its 100% checkpoint) then holds them: look for it, then SIGINT.
	"$REGIONBENCH" run "$TESTDATA/runner/long.ini" --source kpageflags \
	    --user nobody --out "$out" --no-charts --quiet \
	    >"$WORK/out" 2>"$WORK/err" </dev/null &
	pid=$!
	wait_for "the 100% checkpoint" has_row "$out/events.csv" \
	    ',checkpoint,100%,'
	seen=""
	for p in $(pgrep -f -- "$out"); do
		[ "$(ids "$p")" = "$NUID $NGID" ] && seen=$p
	done
	kill -INT $pid
	wait $pid
	RC=$?
	expect_rc 130 "run --user nobody --source kpageflags (SIGINT in the hold)"
	ok "$([ -n "$seen" ]; echo $?)" "a workload of the run ran as nobody"
	grep -q '"name": "kpageflags"' "$out/meta.json"
	ok $? "the sampler read /proc/kpageflags (meta.json source)"
	# Compare with the same run without --user (where placement finds
	# nothing either way, there is nothing to compare).
	"$REGIONBENCH" run "$TESTDATA/runner/tiny.ini" --source kpageflags \
	    --out "$WORK/ref" --no-charts --quiet >/dev/null 2>&1 </dev/null
	has_pages() {
		awk -F, 'NR > 1 && $7 > 0 { n++ } END { exit (n == 0) }' "$1"
	}
	if has_pages "$WORK/ref/placement.csv"; then
		has_pages "$out/placement.csv"
		ok $? "placement.csv has the workload's pages (pagemap read as root)"
	else
		ok 0 "# SKIP placement finds no pages even without --user here"
	fi
	rb verify "$out"
	expect_rc 0 "verify passes"
else
	ok 0 "# SKIP /proc/kpageflags is not readable"
fi

# Without root, auto falls back to whole zones and says so in one line.
chmod 755 "$WORK"
mkdir "$WORK/nr" && chown "$NUID:$NGID" "$WORK/nr"
if command -v setpriv >/dev/null 2>&1; then
	setpriv --reuid "$NUID" --regid "$NGID" --clear-groups \
	    "$REGIONBENCH" sample --count 1 --out "$WORK/nr/run" \
	    >"$WORK/out" 2>"$WORK/err" </dev/null
	RC=$?
	expect_rc 0 "sample as nobody"
	[ "$(grep -c 'zone: regions are whole zones' "$WORK/err")" = 1 ]
	ok $? "as nobody, one line says that regions are whole zones"
	expect_err 'zone: regions are whole zones, not emulated regions: .*kpageflags.* needs root' \
	    "and why: kpageflags needs root"
else
	ok 0 "# SKIP no setpriv to drop root"
	ok 0 "# SKIP no setpriv to drop root"
	ok 0 "# SKIP no setpriv to drop root"
fi

done_testing
