# --format json of info, list, verify, store and run against the shapes
# docs/json.md documents (tests/json-shape.py reads them from there), on
# a fixture tree, runs sampled from it and a tiny suite.
. "$top_srcdir/tests/cli-lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
DOC="$top_srcdir/docs/json.md"
SHAPE="$top_srcdir/tests/json-shape.py"

# shape NAME DESCRIPTION: the last run's stdout has NAME's shape.
shape() {
	python3 "$SHAPE" "$DOC" "$1" "$WORK/out" >"$WORK/shape" 2>&1
	st=$?
	ok $st "$2"
	[ $st -eq 0 ] || diag "$(cat "$WORK/shape")"
}

# field EXPR WANT DESCRIPTION: a Python expression over the output (d).
field() {
	got=$(python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
print($1)" "$WORK/out" 2>&1)
	[ "$got" = "$2" ]
	ok $? "$3"
	[ "$got" = "$2" ] || diag "got: $got" "want: $2"
}

rb info --proc "$FIXTURES/6.18" --format json
expect_rc 0 "info --format json"
shape info "info: the documented shape"
field 'd["source"]["name"]' zone "info: the source chosen for the fixture"
field 'd["files"]["kpageflags"]' absent "info: a file the fixture lacks"
field 'len(d["regions"]) > 0 and d["regions"][0]["managed_pages"] is not None' \
    True "info: managed pages per region key"

rb list --format json
expect_rc 0 "list --format json"
shape list "list: the documented shape"
field '[w["name"] for w in d["workloads"]][0]' pagetest "list: the registry in order"

for i in 3 1 2; do
	"$REGIONBENCH" sample --proc "$FIXTURES/6.18" --count 2 \
	    --interval 100ms --out "$WORK/g/$i" >/dev/null 2>&1 ||
	    { echo "Bail out! sample failed"; exit 1; }
done
cp -r "$WORK/g/1" "$WORK/g/0"
sed -i 's/"status": "complete"/"status": "interrupted"/; s/"run_id": "\([^"]*\)"/"run_id": "\1-0"/' \
    "$WORK/g/0/meta.json"
rb verify "$WORK/g" --format json
expect_rc 0 "verify --format json"
shape verify "verify: the documented shape"
field '[r["dir"].rsplit("/", 1)[1] for r in d["runs"]]' "['0', '1', '2', '3']" \
    "verify: the runs in name order"
field 'd["runs"][0]["status"], d["runs"][1]["verdict"]' "interrupted whole" \
    "verify: each run's status and verdict"
rb verify "$WORK/g/"
expect_out "^$WORK/g/0: whole, but not complete" "verify DIR/: no double slash"

rb store "$WORK/g/" --db "sqlite:$WORK/r.db" --format json
expect_rc 0 "store --format json"
shape store "store: the documented shape"
field 'len(d["stored"]), d["skipped"][0]["status"]' "3 interrupted" \
    "store: three stored, the interrupted one skipped"

rb run "$TESTDATA/runner/tiny.ini" --out "$WORK/run" --no-charts \
    --quiet --format json
expect_rc 0 "run --format json"
shape run "run: the documented shape"
field 'd["repetitions"][0]["status"], d["dir"] == sys.argv[1].rsplit("/", 1)[0] + "/run"' \
    "complete True" "run: the repetition's status and the results path"
field 'sorted(d["repetitions"][0]["summary"]["phases"])' "['churn', 'touch']" \
    "run: the summary of each phase"

done_testing
