# Safe files: results are never written through a symlink someone planted
# in the output directory.  CSVs are created with O_EXCL|O_NOFOLLOW in a
# directory that must be new or empty; meta.json and the analysis outputs
# are written to a temporary file and renamed over the name, which
# replaces a planted link instead of following it.  The victim file must
# stay untouched in every case.  Also: no system()/popen() in the tree.
. "$top_srcdir/tests/cli-lib.sh"

V="$WORK/victim"
printf 'precious\n' >"$V"
untouched() {
	[ "$(cat "$V")" = precious ]
	ok $? "$1: the symlink's target is untouched"
}

# A planted link in a non-empty --out: refused before anything is written.
for cmd in sample run; do
	d="$WORK/planted-$cmd"
	mkdir "$d"
	ln -s "$V" "$d/samples.csv"
	if [ $cmd = sample ]; then
		rb sample --source zone --proc "$FIXTURES/6.18" --count 2 \
		    --interval 10ms --out "$d" --quiet
	else
		rb run "$TESTDATA/runner/tiny.ini" --source zone --out "$d" \
		    --no-charts --quiet
	fi
	expect_rc 2 "$cmd --out with a planted samples.csv link is refused"
	expect_err "not empty" "$cmd: the message says the directory is not empty"
	untouched "$cmd --out"
done

# --out itself a symlink to a directory: refused.
mkdir "$WORK/elsewhere"
ln -s "$WORK/elsewhere" "$WORK/outlink"
rb sample --source zone --proc "$FIXTURES/6.18" --count 1 --out \
    "$WORK/outlink" --quiet
expect_rc 2 "--out that is a symlink is refused"
[ -z "$(ls -A "$WORK/elsewhere")" ]
ok $? "nothing written where the --out link points"

# An existing --out owned by another user, or writable by others without
# the sticky bit: refused (that user could swap it for a link mid-run).
if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1; then
	mkdir "$WORK/foreign"
	chown nobody "$WORK/foreign"
	rb sample --source zone --proc "$FIXTURES/6.18" --count 1 \
	    --out "$WORK/foreign" --quiet
	expect_rc 2 "an existing --out owned by another user is refused"
	expect_err "owned by" "the message says who owns it"
else
	ok 0 "# SKIP chown needs root"
	ok 0 "# SKIP chown needs root"
fi
mkdir "$WORK/open"
chmod 0777 "$WORK/open"
rb sample --source zone --proc "$FIXTURES/6.18" --count 1 --out "$WORK/open" \
    --quiet
expect_rc 2 "an existing --out writable by others is refused"
chmod 1777 "$WORK/open"
rb sample --source zone --proc "$FIXTURES/6.18" --count 1 --out "$WORK/open" \
    --quiet
expect_rc 0 "an existing --out writable by others with the sticky bit is fine"

# The results directory swapped for a link to another directory while
# sample runs: everything is still written into the directory it made,
# which it holds open; nothing lands where the link points.
mkdir "$WORK/target"
out="$WORK/swapped"
"$REGIONBENCH" sample --source zone --proc "$FIXTURES/6.18" --count 15 \
    --interval 100ms --out "$out" --quiet >/dev/null 2>"$WORK/err" </dev/null &
pid=$!
wait_for "the first sample" has_row "$out/samples.csv"
mv "$out" "$out.moved"
ln -s "$WORK/target" "$out"
wait $pid
RC=$?
expect_rc 0 "sample whose --out was swapped for a link"
[ -z "$(ls -A "$WORK/target")" ]
ok $? "nothing written where the swapped-in link points"
[ -z "$(ls -A "$WORK/target")" ] || diag "$(ls -A "$WORK/target")"
grep -q '"status": "complete"' "$out.moved/meta.json"
ok $? "the directory it made says complete"

# meta.json replaced by a link while sample runs (once it has written a
# sample; SIGINT then ends sampling without a --count, a complete run):
# the final rewrite (temporary file + rename) replaces the link, it does
# not follow it.
out="$WORK/live"
"$REGIONBENCH" sample --source zone --proc "$FIXTURES/6.18" \
    --interval 50ms --out "$out" --quiet >/dev/null 2>"$WORK/err" </dev/null &
pid=$!
wait_for "the first sample" has_row "$out/samples.csv"
ln -sf "$V" "$out/meta.json"
ln -sf "$V" "$out/.meta.json.tmp"
kill -INT $pid
wait $pid
RC=$?
expect_rc 0 "sample with links planted mid-run, ended by SIGINT"
untouched "meta.json and .meta.json.tmp links planted mid-run"
[ -f "$out/meta.json" ] && [ ! -L "$out/meta.json" ] &&
    grep -q '"status": "complete"' "$out/meta.json"
ok $? "meta.json is a regular file again, status complete"
rb verify "$out"
expect_rc 0 "verify passes"

# Analysis outputs planted as links: replaced, not followed.
ln -s "$V" "$out/summary.csv"
ln -s "$V" "$out/summary.json"
rb analyze "$out"
expect_rc 0 "analyze with planted summary links"
untouched "analyze"
[ ! -L "$out/summary.csv" ]
ok $? "summary.csv is a regular file"
if "$REGIONBENCH" help | grep -q '^  chart '; then
	mkdir "$WORK/charts"
	for f in heatmap spread seed frag placement; do
		ln -s "$V" "$WORK/charts/$f.svg"
	done
	rb chart "$out" --out "$WORK/charts" --format svg
	untouched "chart into a directory with planted links (exit $RC)"
fi

# The temporary names chart renders into, planted as links beforehand:
# the shell plants them for its own PID and then execs chart, which keeps
# it.  Both spellings: PATH.tmp.PID and .NAME.tmp.PID.N.
if "$REGIONBENCH" help | grep -q '^  chart '; then
	cd_="$WORK/tmpcharts"
	mkdir "$cd_"
	sh -c 'd=$1; v=$2; shift 2
	for f in heatmap spread seed frag placement; do
		for e in png svg; do
			ln -s "$v" "$d/$f.$e.tmp.$$"
			for n in 0 1 2 3 4 5 6 7 8 9; do
				ln -s "$v" "$d/.$f.$e.tmp.$$.$n"
			done
		done
	done
	exec "$@"' sh "$cd_" "$V" "$REGIONBENCH" chart "$out" --out "$cd_" \
	    --format png,svg >"$WORK/out" 2>"$WORK/err" </dev/null
	RC=$?
	expect_rc 0 "chart with links planted at its temporary names"
	untouched "chart's temporary names planted as links"
	[ -f "$cd_/heatmap.png" ] && [ ! -L "$cd_/heatmap.png" ]
	ok $? "heatmap.png is a regular file"
fi

# No shell is ever started with a string from options or files.
# Comment lines (" * ..." or "// ...") are prose, not calls.
n=$(grep -n -E '\b(system|popen)[[:space:]]*\(' \
    "$top_srcdir"/lib/*.c "$top_srcdir"/bench/*.c \
    "$top_srcdir"/analyze/*.c "$top_srcdir"/workloads/*.c |
    grep -v -E '^[^:]*:[0-9]+:[[:space:]]*(\*|//|/\*)' | wc -l)
ok "$n" "no system() or popen() in lib, bench, analyze, workloads"

done_testing
