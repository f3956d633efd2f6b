# Inputs that are not what they claim to be.  A FIFO (or any non-regular
# file) where a /proc file, a results file, a suite or a rules file is
# expected is refused at once with exit 2, never read (a FIFO with no
# writer would block the reader for ever).  Every command runs under a
# timeout so that a hang fails the test instead of make check.
. "$top_srcdir/tests/cli-lib.sh"

# trb ARGS...: rb under a 30 s timeout (exit 124 on a hang).
trb() {
	timeout -s KILL 30 "$REGIONBENCH" "$@" >"$WORK/out" 2>"$WORK/err" \
	    </dev/null
	RC=$?
}

MKTREE="$top_builddir/tests/kpf-mktree"

# A --proc tree with one file replaced by a FIFO.
for f in zoneinfo buddyinfo pagetypeinfo; do
	d="$WORK/proc-$f"
	cp -r "$FIXTURES/6.18" "$d"
	rm "$d/$f"
	mkfifo "$d/$f"
	trb sample --source zone --proc "$d" --count 1 --out "$WORK/s-$f" \
	    --quiet
	expect_rc 2 "sample refuses a FIFO as $f"
	expect_err "$f: .*not a regular file" "sample: the FIFO $f is named"
done

# kpageflags as a FIFO on the synthetic machine.
T="$WORK/tree"
mkdir -p "$T"
"$MKTREE" "$T" all || { echo "Bail out! kpf-mktree failed"; exit 1; }
rm "$T/proc/kpageflags"
mkfifo "$T/proc/kpageflags"
trb sample --source kpageflags --proc "$T/proc" --sys "$T/sys" \
    --region-size 256M --count 1 --out "$WORK/s-kpf" --quiet
expect_rc 2 "sample refuses a FIFO as kpageflags"
expect_err "kpageflags: .*not a regular file" "sample: the FIFO kpageflags is named"

# A results directory with samples.csv, meta.json or regions.csv a FIFO.
trb sample --source zone --proc "$FIXTURES/6.18" --count 3 \
    --interval 10ms --out "$WORK/good" --quiet
expect_rc 0 "a good results directory to damage"
for f in samples.csv meta.json regions.csv; do
	d="$WORK/fifo-$f"
	cp -r "$WORK/good" "$d"
	rm "$d/$f"
	mkfifo "$d/$f"
	for cmd in verify analyze chart report; do
		if [ $cmd = report ]; then
			trb report "$d" --out "$WORK/report-$f.html"
		elif [ $cmd = chart ]; then
			trb chart "$d" --out "$WORK/charts-$f"
		else
			trb $cmd "$d"
		fi
		# verify reports damage on stdout with exit 1.
		if [ $cmd = verify ]; then
			expect_rc 1 "verify calls a FIFO $f damage"
			cat "$WORK/out" >>"$WORK/err"
		else
			expect_rc 2 "$cmd refuses a FIFO as $f"
		fi
		expect_err "$f: a FIFO, not a regular file|no meta.json" \
		    "$cmd: the FIFO $f is named"
	done
	trb compare "$WORK/good" "$d"
	expect_rc 2 "compare refuses a FIFO as $f"
done

# A suite file, gate rules and a region map that are FIFOs.
mkfifo "$WORK/suite.ini" "$WORK/rules.ini" "$WORK/map.csv"
trb run "$WORK/suite.ini" --source zone --out "$WORK/r" --no-charts --quiet
expect_rc 2 "run refuses a FIFO as the suite file"
expect_err "suite.ini: .*not a regular file" "run: the FIFO suite is named"
trb gate --baseline "$WORK/good" --candidate "$WORK/good" --rules "$WORK/rules.ini"
expect_rc 2 "gate refuses a FIFO as its rules"
expect_err "rules.ini: .*not a regular file" "gate: the FIFO rules are named"
T2="$WORK/tree2"
mkdir -p "$T2"
"$MKTREE" "$T2" all
trb placement --proc "$T2/proc" --sys "$T2/sys" --pid 4242 \
    --region-map "$WORK/map.csv"
expect_rc 2 "placement refuses a FIFO as the region map"
expect_err "map.csv: .*not a regular file" "placement: the FIFO map is named"

# A kpageflags cut short or of odd length (not 8 bytes per pfn up to the
# end of the zones zoneinfo describes): exit 2 naming file and offset.
T3="$WORK/tree3"
mkdir -p "$T3"
"$MKTREE" "$T3" all
full=$(wc -c <"$T3/proc/kpageflags")
cp "$T3/proc/kpageflags" "$WORK/kpageflags.full"
for len in 0 1 7 1001 $((full / 2)) $((full - 4)); do
	head -c "$len" "$WORK/kpageflags.full" >"$T3/proc/kpageflags"
	trb sample --source kpageflags --proc "$T3/proc" --sys "$T3/sys" \
	    --region-size 256M --count 1 --out "$WORK/kpf-$len" --quiet
	expect_rc 2 "sample refuses a kpageflags of $len bytes"
	expect_err "kpageflags: .*offset [0-9]+" \
	    "kpageflags of $len bytes: the file and offset are named"
done
cp "$WORK/kpageflags.full" "$T3/proc/kpageflags"
trb sample --source kpageflags --proc "$T3/proc" --sys "$T3/sys" \
    --region-size 256M --count 1 --out "$WORK/kpf-full" --quiet
expect_rc 0 "the whole kpageflags is still read"

# Names from a results directory with escape sequences are printed with
# the control characters escaped; a CSV cell that a spreadsheet would take
# for a formula (= + - @ tab CR first) is prefixed with a quote.
ESC=$(printf '\033')
trb sample --source zone --proc "$FIXTURES/6.18" --count 3 \
    --interval 10ms --out "$WORK/evil" --label "x${ESC}]0;owned${ESC}[2Jy" \
    --quiet
expect_rc 0 "sample with an escape sequence in its label"
for f in samples.csv buddy.csv events.csv pagetype.csv; do
	[ -f "$WORK/evil/$f" ] || continue
	sed -i 's/,sample,/,=HYPERLINK(1),/; s/,sample$/,=HYPERLINK(1)/' \
	    "$WORK/evil/$f"
done
sed -i 's/^\( *\)"sample"$/\1"=HYPERLINK(1)"/' "$WORK/evil/meta.json"
for fmt in text markdown csv; do
	trb analyze "$WORK/evil" --format $fmt
	expect_rc 0 "analyze --format $fmt of a run with hostile names"
	! grep -q "$ESC" "$WORK/out"
	ok $? "analyze --format $fmt: no raw ESC on stdout"
done
trb analyze "$WORK/evil"
grep -q 'x\\x1b\]0;owned' "$WORK/out" || grep -q 'x\\033\]0;owned' "$WORK/out"
ok $? "analyze: the label is shown with the ESC escaped"
trb analyze "$WORK/no${ESC}[2Jsuch"
grep -q 'no\\x1b\[2Jsuch' "$WORK/err" && ! grep -q "$ESC" "$WORK/err"
ok $? "error messages show the ESC of a name escaped (exit $RC)"
trb compare "$WORK/evil" "$WORK/evil"
! grep -q "$ESC" "$WORK/out"
ok $? "compare: no raw ESC on stdout (exit $RC)"
! grep -q '^=\|,=' "$WORK/evil/summary.csv"
ok $? "summary.csv: no cell begins with ="
grep -q "'=HYPERLINK" "$WORK/evil/summary.csv"
ok $? "summary.csv: the formula-like name is prefixed with a quote"

# Exit codes: an empty --out is bad input (2), not an environment error;
# a results directory whose label is megabytes long is bad input (2), not
# "out of memory" (3) from the chart.
trb sample --source zone --proc "$FIXTURES/6.18" --count 1 --out '' --quiet
expect_rc 2 "an empty --out is bad input"
trb sample --source zone --proc "$FIXTURES/6.18" --count 2 --interval 10ms \
    --out "$WORK/biglabel" --label x --quiet
{ head -c 2000000 /dev/zero | tr '\0' a; echo; } >"$WORK/big.txt"
awk -v f="$WORK/big.txt" '/"label": "x"/ { getline big <f
	sub(/"x"/, "\"" big "\"") } { print }' "$WORK/biglabel/meta.json" \
    >"$WORK/meta.big" && mv "$WORK/meta.big" "$WORK/biglabel/meta.json"
for cmd in analyze chart; do
	if [ $cmd = chart ]; then
		trb chart "$WORK/biglabel" --out "$WORK/biglabel-charts"
	else
		trb $cmd "$WORK/biglabel"
	fi
	expect_rc 2 "$cmd: a 2 MB label is bad input"
	expect_err "meta.json: label: longer than" "$cmd: the message names the key"
done

# A build that is not installed (an out-of-tree sanitizer build, or the
# binary copied elsewhere) still finds the built-in suites and gate rules.
mkdir "$WORK/bin"
cp "$REGIONBENCH" "$WORK/bin/regionbench"
"$WORK/bin/regionbench" run quick --source bogus --out "$WORK/q" \
    >"$WORK/out" 2>"$WORK/err" </dev/null
! grep -q "no suite named" "$WORK/err"
ok $? "an uninstalled regionbench finds the built-in suite quick"
"$WORK/bin/regionbench" gate --baseline "$WORK/good" --candidate \
    "$WORK/good" >"$WORK/out" 2>"$WORK/err" </dev/null
! grep -q "gate-rules.ini: cannot open" "$WORK/err"
ok $? "an uninstalled regionbench finds the built-in gate rules"

# events.csv going back in time is damage that verify names.
cp -r "$WORK/good" "$WORK/backwards"
printf '0.001,warning,late,sample\n' >>"$WORK/backwards/events.csv"
trb verify "$WORK/backwards"
expect_rc 1 "verify: events.csv out of time order is damage"
expect_out "events.csv: t_s goes backwards" "verify names events.csv"

done_testing
