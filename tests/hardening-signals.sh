# SIGINT or SIGTERM after the phases, while a child writes the analysis,
# the charts or the report: the run stops that child, records the
# interruption in meta.json and exits 130, and no temporary file is left.
. "$top_srcdir/tests/cli-lib.sh"

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

for sig in TERM INT; do
	caught=""
	for try in 1 2 3 4 5; do
		out="$WORK/$sig-$try"
		"$REGIONBENCH" run "$WORK/short.ini" --source zone \
		    --out "$out" --quiet >/dev/null 2>"$WORK/err" </dev/null &
		pid=$!
		# The first child forked after meta.json says complete is
		# an analysis, chart or report child: stop it so that the
		# signal surely lands while it runs.
		while kill -0 $pid 2>/dev/null; do
			if grep -q '"status": "complete"' "$out/meta.json" \
			    2>/dev/null; then
				c=$(pgrep -P $pid | head -n 1)
				if [ -n "$c" ] && kill -STOP "$c" 2>/dev/null
				then
					caught=$c
					break
				fi
			fi
			sleep 0.005
		done
		[ -n "$caught" ] && break
		wait $pid 2>/dev/null
	done
	if [ -z "$caught" ]; then
		ok 0 "# SKIP SIG$sig: no analysis or chart child caught"
		continue
	fi
	kill -$sig $pid
	# The child is stopped: the runner must end it.  A runner that
	# waits for it would hang, so give it 10 s.
	for _ in $(seq 1 100); do
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 $pid 2>/dev/null; then
		kill -KILL $pid "$caught"
		kill -CONT "$caught"
	fi
	wait $pid
	RC=$?
	expect_rc 130 "SIG$sig during analysis/charts: exit 130"
	kill -0 "$caught" 2>/dev/null
	[ $? -ne 0 ]
	ok $? "SIG$sig: the child is gone"
	grep -q '"status": "interrupted"' "$out/meta.json"
	ok $? "SIG$sig: meta.json says interrupted"
	left=$(find "$out" -name '*.tmp.*')
	[ -z "$left" ]
	ok $? "SIG$sig: no temporary file left"
	[ -z "$left" ] || diag "$left"
	rb verify "$out"
	expect_rc 0 "SIG$sig: verify passes"
done

done_testing
