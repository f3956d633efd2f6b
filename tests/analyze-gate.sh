# The gate passes only on evidence: rules that match nothing or lack runs
# get no verdict (exit 2), runs of different suites are refused, groups of
# identical runs with realistic noise pass every time, and a candidate that
# spreads its memory over more regions fails.
. "$top_srcdir/tests/cli-lib.sh"

RULES="$top_srcdir/bench/suites/gate-rules.ini"

# mknoisy DIR SEED SPREAD [PHASE] [WORKLOAD] [SUITE] [BOOT]: a run of four
# regions
# of 1000 pages (kernel.boot_id BOOT, default none), 40 samples 0.25 s apart in one phase (default "run").
# About 900 pages (+-50) are used, all in region 0 when SPREAD is 1, a
# third in each of regions 0-2 when it is 3; in 30% of the runs one stray
# page sits in region 1 for one sample (spread_index.twmean 1.025, not 1).
# Throughput is 1000 ops/s +-1.5% (uniform).  awk's srand(SEED) makes every
# run reproducible.
mknoisy() {
	_d=$1 _seed=$2 _spread=$3 _phase=${4:-run} _wl=${5:-pagetest}
	_suite=${6:-quick}
	_boot=null
	[ -n "${7:-}" ] && _boot="\"$7\""
	mkdir -p "$_d"
	cat >"$_d/meta.json" <<META
{"schema_version": 1, "tool": {"name": "regionbench", "version": "0.1.0"},
 "command": "run", "suite": {"name": "$_suite", "text": ""},
 "label": "noisy",
 "start_time": "2026-12-01T10:00:00Z", "end_time": "2026-12-01T10:00:10Z",
 "host": "h1", "kernel": {"release": "6.18.0", "version": "#1",
 "cmdline": "", "boot_id": $_boot}, "page_size": 4096, "source": {"name": "kpageflags", "accuracy": {}},
 "region_size_bytes": null, "interval_s": 0.25, "status": "complete",
 "samples": 40, "phases": ["$_phase"]}
META
	printf 'node,region,zone,start_pfn,spanned_pages,present_pages,managed_pages\n' \
	    >"$_d/regions.csv"
	for _r in 0 1 2 3; do
		echo "0,$_r,Normal,$((_r * 1000)),1000,1000,1000" >>"$_d/regions.csv"
	done
	awk -v seed="$_seed" -v spread="$_spread" -v phase="$_phase" \
	    -v wl="$_wl" -v dir="$_d" 'BEGIN {
		srand(seed)
		stray = rand() < 0.3 ? int(rand() * 40) : -1
		used = 850 + int(rand() * 101)
		s = dir "/samples.csv"
		print "t_s,phase,node,region,zone,present_pages,free_pages," \
		    "managed_pages,anon_pages,file_pages,slab_pages," \
		    "pgtable_pages,other_pages" > s
		for (i = 0; i < 40; i++) {
			for (r = 0; r < 4; r++) {
				u = 0
				if (spread == 1 && r == 0)
					u = used
				else if (spread == 3 && r < 3)
					u = int(used / 3)
				if (r == 1 && i == stray)
					u += 1
				printf "%.3f,%s,0,%d,Normal,1000,%d,1000,,,,,\n",
				    i * 0.25, phase, r, 1000 - u > s
			}
		}
		w = dir "/workloads.csv"
		print "phase,workload,thread,metric,value,unit" > w
		printf "%s,%s,total,throughput,%.1f,ops/s\n", phase, wl,
		    1000 * (1 + (rand() - 0.5) * 0.03) > w
		e = dir "/events.csv"
		print "t_s,event,detail,phase" > e
		printf "0.000,phase_start,,%s\n10.000,phase_end,,%s\n", phase,
		    phase > e
	}'
}

# mkgroup DIR FIRST_SEED SPREAD [N]: N (default 3) runs of mknoisy.
mkgroup() {
	_n=${4:-3}
	_i=0
	while [ "$_i" -lt "$_n" ]; do
		mknoisy "$1/$_i" $(($2 + _i)) "$3"
		_i=$((_i + 1))
	done
}

# A vacuous gate: no rule matches any metric.
printf '[nothing]\nmetric = no_such_metric\nbetter = lower\nmax_change = 5%%\n' \
    >"$WORK/none.ini"
mkgroup "$WORK/base" 100 1
mkgroup "$WORK/cand" 200 1
rb gate --baseline "$WORK/base" --candidate "$WORK/cand" \
    --rules "$WORK/none.ini" --junit "$WORK/none.xml" --markdown "$WORK/none.md"
expect_rc 2 "gate: rules that match nothing are not a pass"
expect_out '^not judged: rule \[nothing\]: matches no metric present in both groups' \
    "the rule is printed as not judged"
expect_out '^gate: NOT JUDGED \(1 check, 0 failed, 1 not judged' \
    "the summary says not judged"
expect_err 'got no verdict' "and the reason is on stderr"
grep -q 'skipped="1"' "$WORK/none.xml"
ok $? "JUnit counts the check as skipped"
grep -q 'regionbench gate: \*\*NOT JUDGED\*\*' "$WORK/none.md"
ok $? "markdown says not judged"
rb gate --baseline "$WORK/base" --candidate "$WORK/cand" \
    --rules "$WORK/none.ini" --allow-unjudged
expect_rc 0 "--allow-unjudged passes without a verdict"

# Too few runs for the default rules (3 a side).
rb gate --baseline "$WORK/base/0" --baseline "$WORK/base/1" \
    --candidate "$WORK/cand" --rules "$RULES"
expect_rc 2 "gate: two baseline runs are too few for the default rules"
expect_out '^not judged: spread_index.twmean \[run\]: baseline has 2 boots, candidate 3; the rule needs 3 a side' \
    "and the check says how many it needs"
printf '[spread]\nmetric = spread_index.twmean\nbetter = lower\nmax_change = 5%%\nrequire_significance = yes\nmin_runs = 1\n' \
    >"$WORK/one.ini"
rb gate --baseline "$WORK/base/0" --candidate "$WORK/cand/0" \
    --rules "$WORK/one.ini"
expect_rc 2 "gate: a significance rule needs 2 runs a side whatever min_runs says"
printf '[thr]\nmetric = workload.*\nbetter = higher\nmax_change = 5%%\nmean = geometric\n' \
    >"$WORK/badmean.ini"
rb gate --baseline "$WORK/base" --candidate "$WORK/cand" \
    --rules "$WORK/badmean.ini"
expect_rc 2 "gate: an unknown mean is bad input"
expect_err 'badmean.ini:5: mean: expected arithmetic or harmonic' \
    "with file and line"

# Runs of different suites.
mknoisy "$WORK/fill/0" 300 1 fill
mknoisy "$WORK/fill/1" 301 1 fill
mknoisy "$WORK/fill/2" 302 1 fill
rb gate --baseline "$WORK/base" --candidate "$WORK/fill" --rules "$RULES"
expect_rc 2 "gate: runs with other phases are refused"
expect_err 'phases \(workloads\) differs: run \(pagetest\) \(.*/base/0\); fill \(pagetest\)' \
    "naming the phases"
mknoisy "$WORK/wl/0" 400 1 run memhog
mknoisy "$WORK/wl/1" 401 1 run memhog
mknoisy "$WORK/wl/2" 402 1 run memhog
rb gate --baseline "$WORK/base" --candidate "$WORK/wl" --rules "$RULES" --force
expect_rc 2 "gate: runs with other workloads are refused, even with --force"
expect_err 'run \(memhog\)' "naming the workloads"
mknoisy "$WORK/std/0" 500 1 run pagetest standard
mknoisy "$WORK/std/1" 501 1 run pagetest standard
mknoisy "$WORK/std/2" 502 1 run pagetest standard
rb gate --baseline "$WORK/base" --candidate "$WORK/std" --rules "$RULES"
expect_rc 2 "gate: runs of another suite are refused"
expect_err 'suite differs: quick .*; standard' "naming the suites"

# Identical groups with realistic noise pass, 20 times in a row.
passes=0
i=0
while [ "$i" -lt 20 ]; do
	rm -rf "$WORK/a" "$WORK/b"
	mkgroup "$WORK/a" $((1000 + i * 10)) 1
	mkgroup "$WORK/b" $((5000 + i * 10)) 1
	rb gate --baseline "$WORK/a" --candidate "$WORK/b" --rules "$RULES"
	if [ "$RC" -eq 0 ]; then
		passes=$((passes + 1))
	else
		diag "round $i: exit $RC" "$(cat "$WORK/out" "$WORK/err")"
	fi
	i=$((i + 1))
done
[ "$passes" -eq 20 ]
ok $? "gate: identical groups pass 20 times in a row ($passes of 20)"
expect_out '^pass: workload.pagetest.throughput \[run\]: Hmean baseline' \
    "throughput is compared on harmonic means"

# A candidate whose used memory spreads over 3 regions instead of 1.
mkgroup "$WORK/spread" 700 3
rb gate --baseline "$WORK/base" --candidate "$WORK/spread" --rules "$RULES" \
    --junit "$WORK/spread.xml"
expect_rc 1 "gate: a spreading candidate fails"
expect_out '^FAIL: spread_index.twmean \[run\]: Amean baseline 1\.0[0-9]* \(n=3\), candidate 3 \(n=3\)' \
    "on the spread index"
expect_out '^FAIL: empty_regions.twmean' "and on empty regions"
expect_out '^pass: workload.pagetest.throughput' "while throughput holds"

# Mann-Whitney with 3 runs a side cannot reach p < 0.05 (its smallest p
# is 0.1): a spread twice as large is inconclusive, not a pass.
rb gate --baseline "$WORK/base" --candidate "$WORK/spread" --rules "$RULES" \
    --test mann-whitney --junit "$WORK/mw.xml"
expect_rc 2 "gate --test mann-whitney 3 v 3: a large regression is inconclusive"
expect_out '^inconclusive: spread_index.twmean \[run\]: .*worse by [0-9.]+%, no bound at 95% confidence with 3 and 3 values .*p=0.1 \(alpha 0.05\): worse than allowed, and the test cannot reach alpha with so few values; about 4 boots a side \(1 more\) would decide it$' \
    "saying the test cannot reach alpha, and how many boots would"
expect_out '^gate: INCONCLUSIVE \(3 checks, 0 failed, 3 inconclusive, 0 not judged' \
    "no check passes"
grep -q 'skipped="3"' "$WORK/mw.xml"
ok $? "JUnit: inconclusive checks are skipped, not passed"
rb gate --baseline "$WORK/base" --candidate "$WORK/spread" --rules "$RULES" \
    --test mann-whitney --format json
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = {x["metric"]: x for x in d["checks"]}
s = c["spread_index.twmean"]
sys.exit(0 if d["outcome"] == "inconclusive" and d["inconclusive"] == 3 and
         s["verdict"] == "inconclusive" and s["worse_bound_pct"] is None and
         s["more_needed_a_side"] == 1 and s["p_value"] == 0.1 else 1)' \
    "$WORK/out"
ok $? "JSON: verdict inconclusive, no bound, one more boot a side"

# Holm's correction judges the three checks' p-values together: the
# spread's p (0.0031) times 3 is still below 0.05.
rb gate --baseline "$WORK/base" --candidate "$WORK/spread" --rules "$RULES" \
    --correction holm --format json
expect_rc 1 "gate --correction holm: a spreading candidate still fails"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = {x["metric"]: x for x in d["checks"]}
s = c["spread_index.twmean"]
adj = sorted(x["p_value"] for x in d["checks"])
sys.exit(0 if d["holm_adjusted"] == 3 and s["verdict"] == "failed" and
         abs(s["p_adjusted"] - 3 * adj[0]) < 1e-9 * adj[0] * 3 and
         all(x["p_adjusted"] >= x["p_value"] for x in d["checks"]) and
         "Holm-adjusted over 3 tests" in s["message"] else 1)' "$WORK/out"
ok $? "JSON: each check has its Holm-adjusted p, the smallest times 3"
{ printf '[gate]\ncorrection = holm\n'; cat "$RULES"; } >"$WORK/holm.ini"
rb gate --baseline "$WORK/base" --candidate "$WORK/spread" \
    --rules "$WORK/holm.ini"
expect_rc 1 "gate: [gate] correction = holm in the rules"
expect_out '^gate: FAILED .*; p-values Holm-adjusted over 3 tests\)$' \
    "the summary line says the p-values were adjusted"
rb gate --baseline "$WORK/base" --candidate "$WORK/spread" \
    --rules "$WORK/holm.ini" --correction none
! grep -q Holm "$WORK/out"
ok $? "gate --correction none overrides the rules' [gate] section"
rb gate --baseline "$WORK/base" --candidate "$WORK/spread" --rules "$RULES" \
    --correction bonferroni --junit "$WORK/bad-correction.xml"
expect_rc 2 "gate --correction bonferroni is bad input"
expect_err "correction: expected none or holm, not 'bonferroni'" \
    "naming what is expected"
[ ! -e "$WORK/bad-correction.xml" ]
ok $? "and writes no report"

# --format json: every check with its verdict, reason and figures.
rb gate --baseline "$WORK/base" --candidate "$WORK/spread" --rules "$RULES" \
    --format json
expect_rc 1 "gate --format json: a spreading candidate still fails"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = {x["metric"]: x for x in d["checks"]}
s, t = c["spread_index.twmean"], c["workload.pagetest.throughput"]
keys = {"rule", "phase", "metric", "verdict", "reason", "mean", "better",
        "allowed", "n_baseline", "n_candidate", "baseline_mean",
        "candidate_mean", "change_pct", "worse_pct", "p_value", "alpha",
        "message"}
sys.exit(0 if d["outcome"] == "failed" and d["failed"] == 2 and
         d["checks_total"] == 3 and len(d["baseline"]) == 3 and
         all(keys <= set(x) for x in d["checks"]) and
         s["verdict"] == "failed" and s["rule"] == "spread_index" and
         s["phase"] == "run" and s["candidate_mean"] == 3 and
         s["change_pct"] > 150 and s["p_value"] < 0.05 and
         s["reason"] == "worse than allowed and significant" and
         t["verdict"] == "passed" and t["mean"] == "harmonic" and
         d["unit"] == "boot" and
         d["unit_note"].startswith("unit: boot") and
         d["baseline_counts"]["runs"] == 3 and
         d["candidate_counts"]["boots"] >= 1 and
         "runs_without_boot_id" in d["baseline_counts"] else 1)' "$WORK/out"
ok $? "JSON: outcome, counts, unit and every check with rule, phase, metric, verdict, reason, means, change, p"
rb gate --baseline "$WORK/base" --candidate "$WORK/cand" \
    --rules "$WORK/none.ini" --format json
expect_rc 2 "gate --format json: a vacuous gate is still not judged"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
x = d["checks"][0]
sys.exit(0 if d["outcome"] == "not judged" and d["not_judged"] == 1 and
         x["verdict"] == "not judged" and x["metric"] == "no_such_metric" and
         x["reason"].startswith("matches no metric") and
         x["baseline_mean"] is None and x["p_value"] is None else 1)' \
    "$WORK/out"
ok $? "JSON: the unjudged check says why, with no figures"
rb gate --baseline "$WORK/base" --candidate "$WORK/cand" --rules "$RULES" \
    --format text
expect_rc 0 "gate --format text is the default output"
expect_out '^gate: passed \(3 checks' "with its summary line"

# Runs repeated within one boot count once.
for i in 0 1 2; do
	mknoisy "$WORK/oneboot-a/$i" $((800 + i)) 1 run pagetest quick boot-a
	mknoisy "$WORK/oneboot-b/$i" $((810 + i)) 1 run pagetest quick boot-b
done
rb gate --baseline "$WORK/oneboot-a" --candidate "$WORK/oneboot-b" \
    --rules "$RULES" --markdown "$WORK/oneboot.md"
expect_rc 2 "gate: 3 runs in one boot a side are one value, too few"
expect_out '^unit: boot .*baseline: 3 runs in 1 boot, candidate: 3 runs in 1 boot$' \
    "the gate says what it counts"
expect_out '^not judged: spread_index.twmean \[run\]: baseline has 1 boot, candidate 1; the rule needs 3 a side \(runs within one boot count once\)' \
    "and why the checks are not judged"
grep -q '^unit: boot' "$WORK/oneboot.md"
ok $? "the markdown summary says so too"
rb gate --baseline "$WORK/oneboot-a" --candidate "$WORK/oneboot-b" \
    --rules "$RULES" --unit run
expect_rc 0 "gate --unit run counts each run"
expect_out '^unit: run ' "and says so"
# Six runs in three boots: three values a side, each the mean of two runs.
for i in 0 1 2 3 4 5; do
	mknoisy "$WORK/threeboots-a/$i" $((900 + i)) 1 run pagetest quick \
	    "a$((i / 2))"
	mknoisy "$WORK/threeboots-b/$i" $((950 + i)) 1 run pagetest quick \
	    "b$((i / 2))"
done
rb gate --baseline "$WORK/threeboots-a" --candidate "$WORK/threeboots-b" \
    --rules "$RULES"
expect_rc 0 "gate: 6 runs in 3 boots a side are judged"
expect_out 'baseline: 6 runs in 3 boots, candidate: 6 runs in 3 boots$' \
    "counting boots"
expect_out '^pass: workload.pagetest.throughput \[run\]: Hmean baseline [0-9.]+ \(n=3\)' \
    "n is the number of boots"
rb compare "$WORK/threeboots-a" "$WORK/oneboot-a" --format json
expect_rc 0 "compare groups by boot"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
ns = [c["n"] for m in d["metrics"] for c in m["groups"]
      if m["metric"] == "spread_index.twmean"]
unit = [n for n in d["notes"] if n.startswith("unit: boot")]
sys.exit(0 if ns == [3, 1] and unit else 1)' "$WORK/out"
ok $? "compare: n counts boots (3 and 1) and a note says so"

# Copies of one run (the same run_id) are one run, counted once with a
# warning that names them: three copies a side are no evidence.
for side in a b; do
	mknoisy "$WORK/copies-$side/0" $((1300 + ${#side})) 1
	sed -i 's/"label": "noisy",/"label": "noisy", "run_id": "run-'$side'",/' \
	    "$WORK/copies-$side/0/meta.json"
	cp -r "$WORK/copies-$side/0" "$WORK/copies-$side/1"
	cp -r "$WORK/copies-$side/0" "$WORK/copies-$side/2"
done
rb gate --baseline "$WORK/copies-a" --candidate "$WORK/copies-b" \
    --rules "$RULES" --unit run
expect_rc 2 "gate: three copies of one run a side are one run a side"
expect_err "baseline: $WORK/copies-a/1 is the same run as $WORK/copies-a/0 \\(run_id run-a\\): counted once" \
    "a warning names the copies"
expect_out 'baseline: 1 run in 1 boot .*candidate: 1 run in 1 boot' \
    "each side counts one run"
rb compare "$WORK/copies-a" "$WORK/copies-b" --format json
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
ns = {c["n"] for m in d["metrics"] for c in m["groups"]}
sys.exit(0 if ns == {1} else 1)' "$WORK/out"
ok $? "compare: n is 1 a side for copies of one run"

# The report's comparison table has compare's numbers for the same runs:
# the same unit, n, mean, interval, change and p, in either unit; changes
# coloured by the metric's direction; count intervals clamped to what a
# count can be (a group of 3, 1 and 1 empty regions of 4: [0, 4]).
mkdir -p "$WORK/mixed"
cp -r "$WORK/base/0" "$WORK/mixed/0"
cp -r "$WORK/spread/1" "$WORK/mixed/1"
cp -r "$WORK/spread/2" "$WORK/mixed/2"
# report_matches_compare DESCRIPTION ARGS...: report and compare --format
# json --all (every metric, not only the headline ones) of ARGS agree on
# every figure of the report's table.
report_matches_compare() {
	_what=$1
	shift
	rb report "$@" --out "$WORK/cmp.html"
	expect_rc 0 "report $_what"
	rb compare "$@" --format json --all
	python3 - "$WORK/cmp.html" "$WORK/out" <<'PY'
import html, json, math, re, sys
page = open(sys.argv[1]).read()
table = page[page.index('<table class="compare">'):]
table = table[:table.index('</table>')]
d = json.load(open(sys.argv[2]))
want = {(m["phase"], m["metric"]): m for m in d["metrics"]}
keys = {"n": "n", "mean": "mean", "ci-low": "ci_low", "ci-high": "ci_high",
        "change-pct": "change_pct", "p": "p_value"}
rows = 0
bad = []
for row in re.findall(r"<tr><td>(.*?)</tr>", table):
    cells = re.findall(r"<td([^>]*)>", "<td>" + row)
    texts = re.findall(r"<td>([^<]*)</td>", "<td>" + row)
    phase, metric = html.unescape(texts[0]), html.unescape(texts[1])
    m = want[(phase, metric)]
    for g, attrs in enumerate(cells[3:]):
        a = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', attrs))
        jg = m["groups"][g]
        for k, jk in keys.items():
            if g == 0 and k in ("change-pct", "p"):
                continue
            got = float(a[k]) if k in a else None
            exp = jg[jk]
            if exp is None and got is None:
                continue
            if (exp is None or got is None or
                    not math.isclose(got, exp, rel_tol=1e-9, abs_tol=1e-12)):
                bad.append("%s %s group %d %s: report %s, compare %s" %
                           (phase, metric, g, k, got, exp))
        cls = re.search(r'class="([^"]*)"', attrs).group(1).split()
        sig = "sig" in cls
        if g > 0 and sig != bool(jg["significant"]):
            bad.append("%s %s: significance differs" % (phase, metric))
        if g > 0 and sig and m["better"] is not None:
            up = jg["change_pct"] > 0
            good = up == (m["better"] == "higher")
            if ("better" in cls) != good or ("worse" in cls) == good:
                bad.append("%s %s: colour %s for change %s, better %s" %
                           (phase, metric, cls, jg["change_pct"], m["better"]))
        if m["unit"] == "regions" and jg["ci_low"] is not None and (
                jg["ci_low"] < 0 or jg["ci_high"] > 4):
            bad.append("%s %s: interval [%s, %s] beyond 0-4 regions" %
                       (phase, metric, jg["ci_low"], jg["ci_high"]))
    rows += 1
for b in bad[:10]:
    print("# " + b)
sys.exit(0 if rows >= 3 and not bad else 1)
PY
	ok $? "report $_what: its table has compare's numbers"
}
report_matches_compare "by boot" "$WORK/threeboots-a" "$WORK/oneboot-b"
grep -q 'unit: boot .*threeboots-a: 6 runs in 3 boots, oneboot-b: 3 runs in 1 boot' \
    "$WORK/cmp.html"
ok $? "report: the unit and the boots of each group, as compare says them"
report_matches_compare "--unit run" "$WORK/threeboots-a" "$WORK/oneboot-b" \
    --unit run
report_matches_compare "with Mann-Whitney" "$WORK/base" "$WORK/spread" \
    --test mann-whitney
report_matches_compare "of a better candidate" "$WORK/spread" "$WORK/base"
grep -q 'class="n sig better" data-n="3" data-mean="1"' "$WORK/cmp.html"
ok $? "report: a significantly lower spread index is green (better)"
report_matches_compare "of a worse candidate" "$WORK/base" "$WORK/spread"
grep -q 'class="n sig worse" data-n="3" data-mean="3"' "$WORK/cmp.html"
ok $? "report: a significantly higher spread index is red (worse)"
report_matches_compare "of a group of skewed counts" "$WORK/base" \
    "$WORK/mixed"
grep -Eq 'data-ci-low="0" data-ci-high="4"' "$WORK/cmp.html"
ok $? "report: a region count's interval is clamped to [0, 4]"
rb compare "$WORK/base" "$WORK/mixed" --format json
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
m = [m for m in d["metrics"] if m["metric"] == "empty_regions.twmean"][0]
g = m["groups"][1]
sys.exit(0 if g["ci_low"] == 0 and g["ci_high"] == 4 and
         abs(g["mean"] - 5 / 3) < 0.05 else 1)' "$WORK/out"
ok $? "compare: the same clamped interval, mean untouched"

# Several directories after one flag, and directories of runs at any depth.
rb gate --baseline "$WORK/base/0" "$WORK/base/1" "$WORK/base/2" \
    --candidate "$WORK/cand/0" "$WORK/cand/1" "$WORK/cand/2" --rules "$RULES"
expect_rc 0 "gate: --baseline a b c takes three directories"
expect_out 'baseline: 3 runs in 3 boots .*candidate: 3 runs in 3 boots' \
    "and uses all of them"
mkdir -p "$WORK/deep/kernel-a/boot-1" "$WORK/deep/kernel-a/boot-2" \
    "$WORK/deep/kernel-b"
cp -r "$WORK/threeboots-a/0" "$WORK/threeboots-a/1" "$WORK/deep/kernel-a/boot-1/"
cp -r "$WORK/threeboots-a/2" "$WORK/deep/kernel-a/boot-2/"
cp -r "$WORK/threeboots-a/4" "$WORK/deep/kernel-a/"
cp -r "$WORK/threeboots-b" "$WORK/deep/kernel-b/boots"
rb gate --baseline "$WORK/deep/kernel-a" --candidate "$WORK/deep/kernel-b" \
    --rules "$RULES"
expect_rc 0 "gate: runs found at any depth"
expect_out 'baseline: 4 runs in 3 boots, candidate: 6 runs in 3 boots$' \
    "all of them"
rb compare "$WORK/deep"
expect_rc 0 "compare: a directory of directories of runs is one group"
expect_out '^  deep: 10 runs' "with every run below it"
mkdir -p "$WORK/empty/a/b"
rb gate --baseline "$WORK/empty" --candidate "$WORK/cand" --rules "$RULES"
expect_rc 2 "gate: a directory without runs is bad input"
expect_err 'empty: neither a results directory .* nor a directory with any below it' \
    "and says so"

# Data quality: a run whose sampler overran more than [data_quality]
# allows leaves every rule without a verdict, naming the run and figure.
mkgroup "$WORK/dq" 1200 1
awk 'NR == 2 { for (i = 1; i <= 12; i++)
	printf "%.3f,overrun,1 sample skipped,run\n", i * 0.5 } { print }' \
    "$WORK/dq/1/events.csv" >"$WORK/dq-events.csv"
mv "$WORK/dq-events.csv" "$WORK/dq/1/events.csv"
printf '0.750,warning,"kpageflags: node 0 zone Normal: counted 900 free pages, zoneinfo said 100 before and 120 after the scan (slack 0): +780 pages outside",run\n' \
    >>"$WORK/dq/1/events.csv"
rb analyze "$WORK/dq/1"
expect_rc 0 "analyze: a run with overruns is analysed"
expect_out '^  data quality: 12 sampler overruns, largest gap 0.25 s, kpageflags off by up to 780 pages$' \
    "and the phase's data quality is printed"
grep -q '^run,data_quality.sampler_overruns,12,overruns$' "$WORK/dq/1/summary.csv" &&
    grep -q '^run,data_quality.max_gap_s,0.25,s$' "$WORK/dq/1/summary.csv" &&
    grep -q '^run,data_quality.kpageflags_error_pages,780,pages$' \
    "$WORK/dq/1/summary.csv"
ok $? "summary.csv carries overruns, the largest gap and the kpageflags error"
rb report "$WORK/dq/1" --out "$WORK/dq.html"
expect_rc 0 "report: a run with overruns gets a report"
grep -q '<h3>Data quality</h3>' "$WORK/dq.html" &&
    grep -q '<tr class="warn"><td>run</td><td class="n">12</td><td class="n">0.25</td><td class="n">780</td>' \
    "$WORK/dq.html"
ok $? "and the report shows the phase's data quality, highlighted"
rb analyze "$WORK/dq/0"
! grep -q 'data quality' "$WORK/out"
ok $? "analyze: clean data gets no data-quality line"
grep -q '^run,data_quality.sampler_overruns,0,overruns$' "$WORK/dq/0/summary.csv"
ok $? "summary.csv has the figures of a clean run too"
rb gate --baseline "$WORK/base" --candidate "$WORK/dq" --rules "$RULES"
expect_rc 2 "gate: a run beyond the data-quality limits is not judged"
expect_out "^not judged: rule \[spread_index\]: data quality outside the \[data_quality\] limits: $WORK/dq/1 phase run: sampler overruns 12, above max_overruns = 10\$" \
    "naming the run and the figure"
expect_out '^gate: NOT JUDGED \(3 checks, 0 failed, 3 not judged' \
    "every rule is left without a verdict"
rb gate --baseline "$WORK/base" --candidate "$WORK/dq" --rules "$RULES" \
    --allow-unjudged
expect_rc 0 "--allow-unjudged lets it pass"
grep -v '^max_overruns' "$RULES" >"$WORK/dq.ini"
rb gate --baseline "$WORK/base" --candidate "$WORK/dq" --rules "$WORK/dq.ini"
expect_rc 0 "gate: without max_overruns the same runs are judged"
printf '[data_quality]\nmax_gaps = 1\n[spread_index]\nbetter = lower\nmax_change = 5%%\n' \
    >"$WORK/dqbad.ini"
rb gate --baseline "$WORK/base" --candidate "$WORK/dq" --rules "$WORK/dqbad.ini"
expect_rc 2 "gate: an unknown [data_quality] key is bad input"
expect_err "dqbad.ini:2: unknown key 'max_gaps' in \[data_quality\]" \
    "naming file and line"

# The default rules are found next to the program (an uninstalled build),
# like the suites.
if [ -f "$(dirname "$REGIONBENCH")/suites/gate-rules.ini" ]; then
	env -u REGIONBENCH_DATADIR "$REGIONBENCH" gate --baseline "$WORK/base" \
	    --candidate "$WORK/cand" >"$WORK/out" 2>"$WORK/err" </dev/null
	RC=$?
	expect_rc 0 "gate: default rules found beside the program"
	expect_out "rules $(dirname "$REGIONBENCH")/suites/gate-rules.ini\\)\$" \
	    "and named in the summary"
else
	ok 0 "# SKIP the program is not in the source tree (VPATH build)"
	ok 0 "# SKIP the program is not in the source tree (VPATH build)"
fi
REGIONBENCH_DATADIR="$WORK/nowhere" "$REGIONBENCH" gate --baseline "$WORK/base" \
    --candidate "$WORK/cand" --rules "$WORK/missing.ini" >"$WORK/out" \
    2>"$WORK/err" </dev/null
RC=$?
expect_rc 2 "gate: a missing rules file is bad input"

# Runs made in guests (regionbench vm, ab): each in a boot directory beside
# the vm.json that names the guest kernel and what its log reported.
printf '[spread]\nmetric = spread_index.twmean\nbetter = lower\nmax_change = 5%%\nrequire_significance = yes\nmin_runs = 3\n' \
    >"$WORK/vmrules.ini"
# guestrun DIR: mark the run in DIR as made in a guest of kernel "k1", as
# its meta.json says when the run was made by regionbench vm.
guestrun() {
	python3 -c '
import json, sys
p = sys.argv[1] + "/meta.json"
d = json.load(open(p))
d["guest"] = {"kernel": {"release": "6.18.0", "sha256": "k1"}}
json.dump(d, open(p, "w"))' "$1"
}
for side in a b; do
	for i in 1 2 3; do
		mknoisy "$WORK/ab/$side-$i/run" $((600 + i)) 1
		guestrun "$WORK/ab/$side-$i/run"
		echo '{"guest": {"kernel": {"sha256": "k1"}}}' \
		    >"$WORK/ab/$side-$i/vm.json"
	done
done
abgate() {
	rb gate --baseline "$WORK/ab/a-1/run" --baseline "$WORK/ab/a-2/run" \
	    --baseline "$WORK/ab/a-3" --candidate "$WORK/ab/b-1/run" \
	    --candidate "$WORK/ab/b-2/run" --candidate "$WORK/ab/b-3" \
	    --rules "$WORK/vmrules.ini" "$@"
}
abgate
expect_rc 0 "gate on runs made in guests whose kernels reported nothing"
expect_out '^pass: guest kernel: no bug reported by the candidate.s kernel in its 3 runs made in guests$' \
    "the guest-kernel check is there and passes"
expect_out '^gate: passed \(2 checks, 0 failed' "counted as a check"
echo '{"guest": {"kernel": {"sha256": "k1"}}, "kernel_report": "WARNING: CPU: 1 PID: 7 at mm/page_alloc.c:4410"}' \
    >"$WORK/ab/b-2/vm.json"
abgate --junit "$WORK/ab.xml" --markdown "$WORK/ab.md"
expect_rc 1 "a bug reported by the candidate's kernel fails the gate"
expect_out '^pass: spread_index.twmean ' "though its figures pass"
expect_out "^FAIL: guest kernel: the candidate's kernel reported a bug in 1 of 3 runs made in guests \\(\"WARNING: CPU: 1 PID: 7 at mm/page_alloc.c:4410\" in $WORK/ab/b-2/run;" \
    "the message quotes the report and names the run"
grep -q '<testcase classname="gate.guest-kernel" name="kernel_report">' "$WORK/ab.xml" &&
    grep -q 'failures="1"' "$WORK/ab.xml"
ok $? "JUnit has the check as a failed testcase"
grep -q '^| :x: FAIL | guest-kernel | \* | `kernel_report` | 0 of 3 runs | 1 of 3 runs |' "$WORK/ab.md"
ok $? "markdown has its row"
rb compare "$WORK/ab/a-1" "$WORK/ab/b-2"
expect_out 'group .*b-2: the guest kernel reported a bug in 1 of its 1 runs made in guests \("WARNING: CPU: 1 PID: 7 at mm/page_alloc.c:4410" in .*/b-2/run\): its figures may not be trusted' \
    "compare notes a group whose guest kernel reported a bug"
abgate --format json
expect_rc 1 "--format json: exit 1"
python3 -c '
import json, sys
c = [c for c in json.load(open(sys.argv[1]))["checks"] if c["rule"] == "guest-kernel"]
sys.exit(0 if len(c) == 1 and c[0]["verdict"] == "failed" and
    c[0]["n_candidate"] == 3 and c[0]["candidate_mean"] == 1 else 1)' "$WORK/out"
ok $? "JSON has the check, failed, 1 of 3"
cp "$WORK/ab/b-2/vm.json" "$WORK/ab/a-3/vm.json"
echo '{"guest": {"kernel": {"sha256": "k1"}}}' >"$WORK/ab/b-2/vm.json"
abgate
expect_rc 0 "a bug reported by the baseline's kernel only: the gate passes"
expect_out "^pass: guest kernel: no bug reported by the candidate's kernel in its 3 runs made in guests; the baseline's kernel reported one in 1 of 3 runs \\(.* in $WORK/ab/a-3/run\\): its figures may not be trusted" \
    "and says the baseline's figures may not be trusted"
for i in 1 2 3; do
	echo '{"guest": {"kernel": {"sha256": "k2"}}, "kernel_report": "BUG: x"}' \
	    >"$WORK/ab/b-$i/vm.json"
done
abgate
expect_rc 0 "a vm.json of another kernel than the run's: not the run's boot"
expect_out '^gate: passed \(1 check, 0 failed' "no guest-kernel check"
mknoisy "$WORK/host/0" 701 1
echo '{"guest": {"kernel": {"sha256": "k1"}}, "kernel_report": "BUG: x"}' \
    >"$WORK/host/vm.json"
rb gate --baseline "$WORK/ab/a-1/run" --baseline "$WORK/ab/a-2/run" \
    --baseline "$WORK/ab/a-3" --candidate "$WORK/host/0" \
    --rules "$WORK/vmrules.ini" --allow-unjudged
expect_out '^gate: .*\(1 check' \
    "a run made on the host is not judged by a vm.json beside it"

# A live run records the boot it ran in.
if [ -r /proc/sys/kernel/random/boot_id ]; then
	rb sample --count 1 --out "$WORK/live" --quiet
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1] + "/meta.json"))
sys.exit(0 if d["kernel"]["boot_id"] == open(
    "/proc/sys/kernel/random/boot_id").read().strip() else 1)' "$WORK/live"
	ok $? "meta.json has kernel.boot_id from /proc/sys/kernel/random/boot_id"
else
	ok 0 "# SKIP /proc/sys/kernel/random/boot_id not readable"
fi

done_testing
