# regionbench ab (make check-vm; minutes under TCG, so not part of make
# check): Debian's kernel without and with page_alloc.shuffle=1, 3 boots
# each, alternated, one run of tests/data/vm/ab.ini per boot.  The gate
# (region rules only) must fail the shuffled side on spread; an A/A with
# the same arguments on both sides must not fail at alpha 0.01: it passes
# where 3 boots a side bound the change within the allowance and is
# inconclusive (exit 2, with the boots that would decide it) elsewhere.
. "$top_srcdir/tests/cli-lib.sh"

vm_test_setup

# ab NAME ARGS...: one regionbench ab into $WORK/NAME.
ab() {
	name=$1
	shift
	start=$(date +%s)
	rb ab --kernel "$kernel" --boots 3 --memory 2G --cpus 2 --scratch 256M \
	    --timeout 10m --out "$WORK/$name" "$@" \
	    -- "$TESTDATA/vm/ab.ini" --region-size 64M
	diag "$name: 6 boots in $(($(date +%s) - start)) s"
	for d in "$WORK/$name"/*/run; do
		"$REGIONBENCH" analyze "$d" --format csv 2>/dev/null |
		    grep -E '^pagetest,(spread_index.twmean|empty_regions.twmean|placement.pagetest.regions.mean),' |
		    sed "s|^|${d#$WORK/}: |" | while read -r l; do diag "$l"; done
	done
	grep -E '^(FAIL|pass):|^gate:' "$WORK/out" | while read -r l; do diag "$l"; done
}

ab shuffle --append page_alloc.shuffle=0 --append-b page_alloc.shuffle=1 \
    --label-a plain --label-b shuffle --junit "$WORK/ab.xml" \
    --markdown "$WORK/ab.md"
expect_rc 1 "A/B: the gate fails page_alloc.shuffle=1"
grep -q '^FAIL: spread_index' "$WORK/out"
ok $? "A/B: spread_index is what fails"
grep -qx "regionbench: ab: boot 3/3 of shuffle: results in $(cd "$WORK/shuffle" && pwd -P)/shuffle-3/run" \
    "$WORK/err"
ok $? "A/B: each boot ends saying where its run is on the host"
grep -q '^pass: guest kernel: no bug reported by the candidate.s kernel in its 3 runs made in guests' \
    "$WORK/out"
ok $? "A/B: the gate checked the candidate's kernel logs"
grep -q '<failure type="regression"' "$WORK/ab.xml" &&
    grep -q 'classname="gate.guest-kernel"' "$WORK/ab.xml" &&
    grep -q '^## regionbench gate: \*\*FAILED\*\*' "$WORK/ab.md"
ok $? "A/B: --junit and --markdown carry the gate's checks"
grep -q 'from 6 runs in 2 groups' "$WORK/shuffle/report.html" &&
    grep -q 'plain (baseline)' "$WORK/shuffle/report.html"
ok $? "A/B: report.html holds both sides, a group each"
# The guests' run prints its results directory, "run", last: on stderr.
! grep -qx 'run' "$WORK/out" && [ "$(grep -cx 'run' "$WORK/err")" -eq 6 ]
ok $? "A/B: the guests' output on stderr, stdout kept for the verdict"
n=$(ls -d "$WORK"/shuffle/plain-*/run "$WORK"/shuffle/shuffle-*/run | wc -l)
[ "$n" -eq 6 ]
ok $? "A/B: 6 results directories under one parent"
grep -q '"label": "shuffle"' "$WORK/shuffle/shuffle-2/run/meta.json" &&
    grep -q '"append": "page_alloc.shuffle=1"' "$WORK/shuffle/shuffle-2/run/meta.json"
ok $? "A/B: each run is labelled and records its boot arguments"

# The A/A is judged at alpha 0.01 (tests/data/vm/aa-rules.ini says why),
# its two checks' p-values Holm-adjusted together.
ab same --append page_alloc.shuffle=0 --label-a first --label-b second \
    --rules "$TESTDATA/vm/aa-rules.ini" --correction holm
[ "$RC" -eq 0 ] || { [ "$RC" -eq 2 ] &&
    ! grep -q '^not judged: ' "$WORK/out" &&
    grep -Eq '^inconclusive: .*(would decide it|to decide it)$' "$WORK/out"; }
ok $? "A/A: the same kernel and arguments on both sides never fail: pass, or inconclusive saying how many boots would decide (exit $RC)"
! grep -q '^FAIL: ' "$WORK/out"
ok $? "A/A: no check fails"
expect_out '^gate: (passed|INCONCLUSIVE) .*; p-values Holm-adjusted over [0-9]* tests\)$' \
    "A/A: ab hands --correction to the gate"

done_testing
