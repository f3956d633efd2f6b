# The README's main job, as written there (the part after ./bootstrap),
# in a scratch directory: it must end with exit 0, a whole and complete
# results directory, its charts and its report.  In the --enable-sanitizers
# build (which CI's distcheck uses) this is the main job under ASan, UBSan
# and LeakSanitizer: any report of theirs makes the exit status non-zero.
. "$top_srcdir/tests/cli-lib.sh"

bail() { echo "Bail out! $1"; exit 1; }
readme="$top_srcdir/README.md"
# The indented command after "Set up and run the main job".
cmd=$(awk '/^Set up and run the main job/ { want = 1; next }
    want && /^    \.\/bootstrap && / { sub(/^    \.\/bootstrap && /, ""); print; exit }' \
    "$readme")
case "$cmd" in
./bench/regionbench*) ;;
*) bail "README.md: no main-job command after 'Set up and run the main job' (found '$cmd')" ;;
esac
diag "README's main job: $cmd"
args=${cmd#./bench/regionbench}

cd "$WORK" || bail "cd $WORK"
# shellcheck disable=SC2086 # the README's words, split as a shell would
"$REGIONBENCH" $args >"$WORK/out" 2>"$WORK/err" </dev/null
RC=$?
expect_rc 0 "the main job ends with exit 0"
[ "$RC" -eq 0 ] || diag "$(tail -20 "$WORK/err")"
dir=$(tail -1 "$WORK/out")
case "$dir" in
results/*) [ -d "$dir" ] ;;
*) false ;;
esac
ok $? "its last line names the results directory under results/"
rb verify "$WORK/$dir"
expect_rc 0 "verify passes"
expect_out "whole and complete" "the results are whole and complete"
for f in summary.csv report.html charts/heatmap.png; do
	[ -s "$WORK/$dir/$f" ]
	ok $? "it wrote $f"
done
! grep -q 'runtime error:\|Sanitizer' "$WORK/err"
ok $? "no sanitizer report on stderr"

done_testing
