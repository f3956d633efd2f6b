# SIGINT or SIGTERM after the phases, while the analysis, the charts or
# the report are written: the run stops after the step in progress,
# records the interruption in meta.json and exits 130, and no temporary
# file is left.
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
	sent=""
	for try in 1 2 3 4 5; do
		out="$WORK/$sig-$try"
		"$REGIONBENCH" run "$WORK/short.ini" --source zone \
		    --out "$out" --quiet >/dev/null 2>"$WORK/err" </dev/null &
		pid=$!
		# Once meta.json says complete the runner is writing the
		# summary, charts and report.
		polls=0
		while kill -0 $pid 2>/dev/null; do
			if grep -q '"status": "complete"' "$out/meta.json" \
			    2>/dev/null; then
				kill -$sig $pid 2>/dev/null && sent=1
				break
			fi
			polls=$((polls + 1))
			if [ $polls -ge $((${WAIT_LIMIT:-180} * 200)) ]; then
				diag "the run did not finish its phases in" \
				    "${WAIT_LIMIT:-180} s"
				kill -KILL $pid 2>/dev/null
				break
			fi
			sleep 0.005
		done
		wait $pid
		RC=$?
		# Sent too late (the run had just ended): try again.
		[ -n "$sent" ] && [ "$RC" -ne 0 ] && break
		sent=""
	done
	if [ -z "$sent" ]; then
		ok 0 "# SKIP SIG$sig: the run ended before the signal"
		continue
	fi
	expect_rc 130 "SIG$sig during analysis/charts: exit 130"
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
