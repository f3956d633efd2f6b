# compare's Mann-Whitney p-values on tied data against SciPy's exact test
# (scipy.stats.mannwhitneyu(method="exact"), Debian's python3-scipy), the
# figures docs/metrics.md promises: runs whose rates tie, and run means
# that differ only in the last bit (5000/7 and 1000 * (1/7 * 5)), which
# are ties as SciPy counts the same values given equal.
. "$top_srcdir/tests/cli-lib.sh"

PY=
for p in /usr/bin/python3 python3; do
	if "$p" -c 'import scipy.stats' 2>/dev/null; then
		PY=$p
		break
	fi
done
if [ -z "$PY" ]; then
	echo "1..0 # SKIP no python3 with scipy (apt-get install python3-scipy)"
	exit 0
fi

"$REGIONBENCH" sample --proc "$FIXTURES/6.18" --count 3 --interval 100ms \
    --label x --out "$WORK/proto" >/dev/null 2>&1 ||
    { echo "Bail out! sample failed"; exit 1; }

# group DIR RATE...: a group of runs, one a rate, each a copy of the
# sampled run with its own run_id and the rate (written at 17 digits) in
# workloads.csv.
group() {
	_d=$1
	shift
	_i=0
	for _v in "$@"; do
		_i=$((_i + 1))
		cp -r "$WORK/proto" "$_d/$_i"
		sed -i 's/"run_id": "\([^"]*\)"/"run_id": "\1-'"$(basename "$_d")-$_i"'"/' \
		    "$_d/$_i/meta.json"
		printf 'sample,pagetest,total,throughput,%s,ops/s\n' "$_v" \
		    >>"$_d/$_i/workloads.csv"
	done
}

# check NAME "A..." "B..." "A_SCIPY..." "B_SCIPY...": compare's p for the
# groups of rates A and B equals SciPy's exact p on the values SciPy is
# given (the same, or with values one bit apart made equal).
check() {
	_name=$1
	rm -rf "$WORK/a" "$WORK/b"
	mkdir -p "$WORK/a" "$WORK/b"
	# shellcheck disable=SC2086
	group "$WORK/a" $2
	# shellcheck disable=SC2086
	group "$WORK/b" $3
	rb compare "$WORK/a" "$WORK/b" --unit run --test mann-whitney \
	    --format json
	"$PY" - "$WORK/out" "$4" "$5" <<'PY'
import json, math, sys
from scipy.stats import mannwhitneyu
d = json.load(open(sys.argv[1]))
m = [m for m in d["metrics"] if m["metric"] == "workload.pagetest.throughput"]
got = m[0]["groups"][1]["p_value"] if m else None
a = [float(v) for v in sys.argv[2].split()]
b = [float(v) for v in sys.argv[3].split()]
want = mannwhitneyu(a, b, alternative="two-sided", method="exact").pvalue
print("# regionbench p %s, scipy p %s" % (got, want))
sys.exit(0 if got is not None and math.isclose(got, want, rel_tol=1e-9)
         else 1)
PY
	ok $? "mann-whitney: $_name: p as SciPy's exact test"
}

x=$("$PY" -c 'print(repr(5000 / 7))')
y=$("$PY" -c 'print(repr(1000 * (1/7 + 1/7 + 1/7 + 1/7 + 1/7)))')
[ "$x" != "$y" ]
ok $? "5000/7 ($x) and 1000 * (1/7 * 5) ($y) differ in the last bit"
check "means one bit apart are ties" "100 200 $x $x" "$y 800 900 1000" \
    "100 200 $x $x" "$x 800 900 1000"
check "ties across the groups, 3 against 3" "3 4 4" "4 4 5" "3 4 4" "4 4 5"
check "ties within and across, 4 against 5" "10 10 12 15" "12 15 15 18 20" \
    "10 10 12 15" "12 15 15 18 20"
check "no ties, 5 against 5" "1 2 3 4 5" "6 7 8 9 10" "1 2 3 4 5" \
    "6 7 8 9 10"
check "many ties, 4 against 4" "1 2 2 3" "2 2 3 3" "1 2 2 3" "2 2 3 3"

done_testing
