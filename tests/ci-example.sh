# docs/ci.md's worked example, as written there: its sh blocks, in order,
# in a scratch directory with regionbench on the PATH.  The runs must
# complete, compare must print the headline metrics, and the gate, run in
# one boot, must refuse a verdict (exit 2) as the text says, while
# --unit run judges every check or finds it inconclusive at 3 runs a side.
. "$top_srcdir/tests/cli-lib.sh"

bail() { echo "Bail out! $1"; exit 1; }
doc="$top_srcdir/docs/ci.md"
# The ```sh blocks of the "Worked example" section.
awk '/^## / { want = ($0 ~ /^## Worked example/) }
    want && /^```sh$/ { inblock = 1; next }
    inblock && /^```$/ { inblock = 0; print ""; next }
    inblock { print }' "$doc" >"$WORK/example.sh"
grep -q 'regionbench run ' "$WORK/example.sh" &&
    grep -q 'regionbench gate ' "$WORK/example.sh" ||
    bail "docs/ci.md: no worked example with run and gate commands"
diag "docs/ci.md's worked example:" "$(cat "$WORK/example.sh")"

mkdir -p "$WORK/bin" "$WORK/ci"
case "$REGIONBENCH" in
/*) prog=$REGIONBENCH ;;
*) prog="$PWD/$REGIONBENCH" ;;
esac
ln -s "$prog" "$WORK/bin/regionbench" || bail "symlink"
cd "$WORK/ci" || bail "cd $WORK/ci"
PATH="$WORK/bin:$PATH" sh "$WORK/example.sh" >"$WORK/out" 2>"$WORK/err" \
    </dev/null
RC=$?
expect_rc 0 "the example's last command succeeds"

n=0
for d in results/vanilla/rep-0[123] results/patched/rep-0[123]; do
	grep -q '"status": *"complete"' "$d/meta.json" 2>/dev/null &&
	    n=$((n + 1))
done
[ "$n" -eq 6 ]
ok $? "regionbench run: three complete runs per kernel ($n of 6)"
expect_out '^  vanilla: 3 runs \(results/vanilla/rep-01' \
    "compare: the vanilla group has the three runs"
expect_out '^Amean +spread_index\.twmean +ratio' \
    "compare: the spread index is in the headline table"
expect_out '^Hmean +workload\.pagetest\.pages_per_s +pages/s' \
    "compare: the workload's rate, on harmonic means"
# The first gate: one boot a side, never a verdict.
first=$(grep '^exit ' "$WORK/out" | sed -n 1p)
[ "$first" = "exit 2" ]
ok $? "gate in one boot exits 2 ($first)"
# (On a busy machine the runs may miss samples: then data quality is why.)
expect_out '^not judged: .*(baseline has 1 boot, candidate 1; the rule needs 3 a side|data quality)' \
    "and says why, as the text does"
[ -s gate.xml ] && [ -s gate.md ]
ok $? "gate wrote gate.xml and gate.md"
second=$(grep '^exit ' "$WORK/out" | sed -n 2p)
case "$second" in
"exit 0"|"exit 1")
	grep -Eq '^(pass|FAIL): spread_index\.twmean \[fill\]: Amean baseline [0-9.]+ \(n=3\)' \
	    "$WORK/out"
	ok $? "gate --unit run judges each run ($second)"
	;;
"exit 2")
	# Three runs a side may not decide a check: it is then inconclusive,
	# saying how many runs would; or a run beyond the data-quality
	# limits (a busy machine) keeps the gate from a verdict.
	grep -Eq '^inconclusive: [a-z_.]+ \[fill\]: [AH]mean baseline [0-9.]+ \(n=3\).*(would decide it|to decide it)$' \
	    "$WORK/out" || grep -q 'data quality outside' "$WORK/out"
	ok $? "gate --unit run: judged, inconclusive with the runs that would decide, or not judged for data quality"
	;;
*)
	ok 1 "gate --unit run ends with 0, 1 or 2 ($second)"
	;;
esac

done_testing
