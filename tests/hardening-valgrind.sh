# valgrind memcheck over sample, analyze and chart on fixtures: no error
# and no definitely-lost byte (still-reachable memory at exit, e.g. hwloc's
# or fontconfig's caches, is not an error).  Run by .ci/run on the normal
# build, not by make check (it takes a minute and cannot run on an ASan
# build):
#   REGIONBENCH=bench/regionbench top_srcdir=. top_builddir=. \
#       sh tests/hardening-valgrind.sh
. "$top_srcdir/tests/cli-lib.sh"

command -v valgrind >/dev/null 2>&1 || skip_all "valgrind is not installed"
if nm -D "$REGIONBENCH" 2>/dev/null | grep -q __asan_init ||
    nm "$REGIONBENCH" 2>/dev/null | grep -q __asan_init; then
	skip_all "an ASan build cannot run under valgrind"
fi

# vg DESCRIPTION ARGS...: regionbench ARGS under memcheck, exit status kept.
vg() {
	what=$1
	shift
	valgrind -q --error-exitcode=97 --leak-check=full \
	    --errors-for-leak-kinds=definite --log-file="$WORK/vg.log" \
	    "$REGIONBENCH" "$@" >"$WORK/out" 2>"$WORK/err" </dev/null
	RC=$?
	[ "$RC" -ne 97 ] && ! grep -q 'ERROR SUMMARY: [1-9]\|definitely lost: [1-9]' \
	    "$WORK/vg.log"
	st=$?
	ok $st "valgrind: $what"
	[ $st -eq 0 ] || diag "$(head -c 4000 "$WORK/vg.log")"
	expect_rc 0 "$what"
}

F=$FIXTURES
vg "sample, patched 2.6.39 fixture" sample --source patched \
    --proc "$F/patched-2.6.39" --count 3 --interval 10ms \
    --pagetype-every 1 --out "$WORK/patched" --quiet
vg "sample, 6.18 fixture, recording" sample --source zone --proc "$F/6.18" \
    --count 2 --interval 10ms --record "$WORK/rec" --out "$WORK/zone" \
    --quiet
vg "sample --replay" sample --source zone --replay "$WORK/rec" \
    --interval 10ms --out "$WORK/replay" --quiet
if [ -x "$top_builddir/tests/kpf-mktree" ]; then
	mkdir -p "$WORK/tree"
	"$top_builddir/tests/kpf-mktree" "$WORK/tree" all
	vg "sample --source kpageflags, synthetic machine" sample \
	    --source kpageflags --proc "$WORK/tree/proc" \
	    --sys "$WORK/tree/sys" --region-size 256M --count 2 \
	    --interval 10ms --out "$WORK/kpf" --quiet
	vg "sample --openmetrics --listen, synthetic machine" sample \
	    --source kpageflags --proc "$WORK/tree/proc" \
	    --sys "$WORK/tree/sys" --region-size 256M --count 3 \
	    --interval 10ms --openmetrics "$WORK/kpf.prom" \
	    --listen 127.0.0.1:0 --quiet
	vg "vacate --dry-run, synthetic machine" vacate --dry-run \
	    --proc "$WORK/tree/proc" --sys "$WORK/tree/sys" --region-size 256M \
	    --region 0/0 --region 1/0 --format json --out "$WORK/vacate.json"
fi
vg "analyze, patched sample" analyze "$WORK/patched"
# analyze and chart write into the directory: work on a copy.
cp -R "$TESTDATA/analyze/basic" "$WORK/basic"
vg "analyze, test data" analyze "$WORK/basic"
if "$REGIONBENCH" help 2>/dev/null | grep -q '^  chart '; then
	vg "chart, test data" chart "$WORK/basic" \
	    --out "$WORK/charts" --format png,svg
	vg "chart, patched sample" chart "$WORK/patched" \
	    --out "$WORK/charts2" --format png,svg
fi

done_testing
