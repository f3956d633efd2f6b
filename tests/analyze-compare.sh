# compare and gate on hand-made groups (tests/analyze-lib.sh): groups that
# differ, groups that don't, single runs, runs from other machines.
# p-values: scipy.stats.ttest_ind(equal_var=False) on the twmeans
# [1.75, 2, 1.75] vs [1, 1, 1.25] gives p = 0.0031256; the exact
# Mann-Whitney p is 2/20 = 0.1 (every baseline value above every candidate
# value: one ordering of the C(6,3) = 20 is as extreme on each side).
. "$top_srcdir/tests/cli-lib.sh"
. "$top_srcdir/tests/analyze-lib.sh"

RULES="$top_srcdir/bench/suites/gate-rules.ini"
XSD="$TESTDATA/analyze/junit.xsd"
mkgroup "$WORK/vanilla" vanilla h1 "3 4 3" "1000 1010 990"
mkgroup "$WORK/patched" patched h1 "0 0 1" "1000 1005 995"
mkgroup "$WORK/same" same h1 "3 4 3" "1000 1010 990"
mkgroup "$WORK/slow" slow h1 "3 4 3" "900 905 895"

rb compare "$WORK/vanilla" "$WORK/patched"
expect_rc 0 "compare two groups"
expect_out '^Amean +spread_index.twmean +ratio +↓ +1\.8333 \( +0\.00%\) +1\.0833 \* -40\.91%\*' \
    "significant change marked with stars, mmtests style, lower is better"
expect_out '^Amean +empty_regions.twmean +regions +↑ ' "more empty regions are better"
expect_out '^Hmean +workload.pagetest.throughput +ops/s +↑ +999\.9 ' \
    "a rate gets the harmonic mean 3/(1/1000+1/1010+1/990)"
expect_out '^Amean +used_pages.twmean +pages +683\.3 ' \
    "a mean of page counts, and nothing better about it"
expect_out '^Amean +duration_s +s +4 \(' "a whole number prints as one"
! grep -q 'p-value\|Stddev\|\.final\|\.min\|throughput_per_cpu' "$WORK/out"
ok $? "by default one mean row per headline metric"
rb compare "$WORK/vanilla" "$WORK/patched" --all
expect_out '^p-value +spread_index.twmean +ratio +↓ +0\.003126' "--all: Welch p-value (scipy 0.0031256)"
expect_out '^CI95 +spread_index.twmean +ratio +↓ +\+-0\.3586' \
    "--all: 95% CI half-width t(0.975,2)*0.1443/sqrt(3)"
expect_out '^Amean +spread_index.final ' "--all: every metric"
expect_out '^Amean +workload.pagetest.throughput +ops/s +↑ +1000 ' \
    "--all: a rate's arithmetic mean after its harmonic one"

rb compare "$WORK/vanilla" "$WORK/same"
expect_rc 0 "compare equal groups"
grep '^Amean' "$WORK/out" | grep -q '\*'
[ $? -ne 0 ]
ok $? "no change is marked significant between equal groups"

rb compare "$WORK/vanilla" "$WORK/patched" --test mann-whitney --all
expect_out '^p-value +spread_index.twmean +ratio +↓ +0\.1$' "exact Mann-Whitney p (2/20)"

rb compare "$WORK/vanilla/1" "$WORK/vanilla/2" "$WORK/patched/1" \
    "$WORK/patched/2" --group-by label --format csv
expect_rc 0 "--group-by label"
expect_out '^run,spread_index.twmean,ratio,vanilla,2,' "group vanilla has 2 runs"
expect_out '^run,spread_index.twmean,ratio,patched,2,1,0,1,1,1,1,-46\.66' \
    "group patched: (1 - 1.875) / 1.875"

rb compare "$WORK/vanilla" "$WORK/patched" --baseline patched
expect_out '^Amean +spread_index.twmean +ratio +↓ +1\.8333 \* +69\.23%\* +1\.0833 \( +0\.00%\)' \
    "--baseline picks the reference group"
rb compare "$WORK/vanilla" "$WORK/patched" --baseline nosuch
expect_rc 2 "--baseline of an unknown group"
expect_err 'groups: vanilla, patched' "lists the groups"

rb compare "$WORK/vanilla/1" "$WORK/patched/1" --all
expect_rc 0 "single runs"
expect_out 'means only' "say so: means only"
expect_out '^p-value +spread_index.twmean +ratio +↓ +n<2' "no fake p-value"

mkrun "$WORK/other" other h2 0 1000
rb compare "$WORK/vanilla" "$WORK/other"
expect_rc 2 "runs from another host need --force"
expect_err 'host differs: h1 .*; h2' "and the error says what differs"
rb compare "$WORK/vanilla" "$WORK/other" --force
expect_rc 0 "--force compares them"
expect_out 'note: runs differ' "and the output says they differ"
mkrun "$WORK/bigregions" big h1 0 1000 1073741824
rb compare "$WORK/vanilla" "$WORK/bigregions"
expect_rc 2 "different region sizes need --force"
expect_err 'region size differs' "and says so"

rb compare "$WORK/vanilla" "$WORK/patched" --format json
expect_rc 0 "--format json"
if /usr/bin/python3 -c 'import json' 2>/dev/null; then
	/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); m=[x for x in d["metrics"] if x["metric"]=="spread_index.twmean"][0]; sys.exit(0 if abs(m["groups"][1]["p_value"]-0.0031255892524457277) < 1e-9 else 1)' "$WORK/out"
	ok $? "JSON p-value equals scipy's"
	/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["metrics_shown"] == "headline" and d["metrics"] and all(m["headline"] for m in d["metrics"]) else 1)' "$WORK/out"
	ok $? "JSON: the headline metrics by default"
	rb compare "$WORK/vanilla" "$WORK/patched" --format json --all
	/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); m={x["metric"]: x for x in d["metrics"]}; t=m["workload.pagetest.throughput"]; sys.exit(0 if m["spread_index.twmean"]["better"]=="lower" and m["used_pages.twmean"]["better"] is None and t["better"]=="higher" and abs(t["groups"][0]["hmean"]-3/(1/1000+1/1010+1/990)) < 1e-6 and m["spread_index.twmean"]["groups"][0]["hmean"] is None and m["spread_index.twmean"]["headline"] and not m["spread_index.final"]["headline"] else 1)' "$WORK/out"
	ok $? "JSON: better direction, harmonic mean of rates, headline flag"
fi
rb compare "$WORK/vanilla" "$WORK/patched" --format markdown
expect_out '^\| run \| `spread_index.twmean` \| ratio \| ↓ \| Amean \|' "--format markdown"
expect_out '^\| run \| `empty_bytes.twmean` \| MiB \| ↑ \| Amean \| 0\.7 ' \
    "markdown: bytes in MiB, as analyze prints them"
rb compare "$WORK/vanilla" "$WORK/patched" --alpha 2
expect_rc 2 "--alpha out of range"
rb compare "$WORK/nonexistent"
expect_rc 2 "a missing directory"

# gate
rb gate --baseline "$WORK/vanilla" --candidate "$WORK/patched" \
    --rules "$RULES" --junit "$WORK/pass.xml" --markdown "$WORK/pass.md"
expect_rc 0 "gate: a better candidate passes"
expect_out '^gate: passed \(3 checks, 0 failed' "three checks"
grep -q 'regionbench gate: passed' "$WORK/pass.md"
ok $? "markdown summary says passed"
# Equal means prove nothing when the runs vary this much: 3 a side cannot
# bound the spread's change within 5%, so the gate is inconclusive.
rb gate --baseline "$WORK/vanilla" --candidate "$WORK/same" --rules "$RULES"
expect_rc 2 "gate: an equal but noisy candidate is inconclusive, not a pass"
expect_out '^inconclusive: spread_index.twmean \[run\]: .*, at most 13.7% worse at 95% confidence .*: may be worse than allowed; about [0-9]+ boots a side \([0-9]+ more\) would decide it$' \
    "with the bound it could prove and the boots that would decide it"
expect_out '^pass: workload.pagetest.throughput .*at most 1.71% worse at 95% confidence.*within the allowed change at the rule.s confidence$' \
    "while throughput, bounded within 5%, passes"
expect_out '^gate: INCONCLUSIVE \(3 checks, 0 failed, 2 inconclusive, 0 not judged' \
    "the summary counts the inconclusive checks"
rb gate --baseline "$WORK/patched" --candidate "$WORK/vanilla" \
    --rules "$RULES" --junit "$WORK/fail.xml" --markdown "$WORK/fail.md"
expect_rc 1 "gate: a worse spread index fails with exit 1"
expect_out '^FAIL: spread_index.twmean \[run\]: Amean baseline 1.08333 \(n=3\), candidate 1.83333' \
    "the failure carries the numbers"
grep -q ':x: FAIL' "$WORK/fail.md"
ok $? "markdown marks the failure"
grep -q '<failure type="regression" message="FAIL: spread_index.twmean' \
    "$WORK/fail.xml"
ok $? "JUnit failure with the numbers"
# docs/ci.md's figure: Holm's correction over the three checks turns the
# spread's p of 0.003126 (and empty regions', the same) into 0.009377.
rb gate --baseline "$WORK/patched" --candidate "$WORK/vanilla" \
    --rules "$RULES" --correction holm
expect_rc 1 "gate --correction holm: the worse spread index still fails"
expect_out '^FAIL: spread_index.twmean .*, p=0.003126 \(Holm-adjusted over 3 tests: 0.009377, alpha 0.05\): worse than allowed and significant$' \
    "with p 0.003126 adjusted to 0.009377 (docs/ci.md)"
rb gate --baseline "$WORK/vanilla" --candidate "$WORK/slow" --rules "$RULES"
expect_rc 1 "gate: a 10% throughput drop fails"
expect_out '^FAIL: workload.pagetest.throughput' "on the throughput rule"
expect_out '^inconclusive: spread_index' "while the spread rule cannot tell"
rb gate --baseline "$WORK/patched/1" --candidate "$WORK/vanilla/1" \
    --rules "$RULES"
expect_rc 2 "gate: single runs are not judged"
expect_out '^not judged: spread_index.twmean \[run\]: baseline has 1 boot, candidate 1; the rule needs 3 a side' \
    "and the message says why"

# A workload name that needs escaping in XML and markdown.
mkgroup "$WORK/esc-a" a h1 "0 0 0" "100 101 99"
mkgroup "$WORK/esc-b" b h1 "0 0 0" "50 51 49"
for d in "$WORK"/esc-*/*; do
	sed -i 's/pagetest/"a<b\&""c"" | d"/' "$d/workloads.csv"
done
rb gate --baseline "$WORK/esc-a" --candidate "$WORK/esc-b" --rules "$RULES" \
    --junit "$WORK/esc.xml"
expect_rc 1 "gate on oddly named workloads"
if [ -n "${XMLLINT:-}" ] || command -v xmllint >/dev/null 2>&1; then
	for x in pass fail esc; do
		xmllint --noout --schema "$XSD" "$WORK/$x.xml" 2>"$WORK/xl"
		ok $? "JUnit $x.xml validates against tests/data/analyze/junit.xsd"
		[ $? -eq 0 ] || diag "$(cat "$WORK/xl")"
	done
	grep -q 'a&lt;b&amp;&quot;c&quot; | d' "$WORK/esc.xml"
	ok $? "names are escaped in XML"
else
	ok 0 "# SKIP xmllint not installed"
fi

printf '[broken]\nbetter = sideways\nmax_change = 5%%\n' >"$WORK/bad.ini"
rb gate --baseline "$WORK/vanilla" --candidate "$WORK/patched" \
    --rules "$WORK/bad.ini"
expect_rc 2 "gate: bad rules are an input error"
expect_err 'bad.ini:2: better: expected lower or higher' "with file and line"
printf '[half]\nbetter = lower\n' >"$WORK/half.ini"
rb gate --baseline "$WORK/vanilla" --candidate "$WORK/patched" \
    --rules "$WORK/half.ini"
expect_rc 2 "gate: a rule without max_change"
rb gate --baseline "$WORK/vanilla" --candidate "$WORK/other" --rules "$RULES"
expect_rc 2 "gate: other host without --force"
rb gate --baseline "$WORK/vanilla" --rules "$RULES"
expect_rc 2 "gate: needs a candidate"
REGIONBENCH_DATADIR="$top_srcdir/bench/suites" rb gate \
    --baseline "$WORK/vanilla" --candidate "$WORK/patched"
expect_rc 0 "gate: default rules found through REGIONBENCH_DATADIR"

# Sampled kpageflags scans estimate every count: comparing them with exact
# counts is allowed, and said.
cp -R "$WORK/same" "$WORK/sampled"
for m in "$WORK"/sampled/*/meta.json; do
	sed 's/"source": {"name": "kpageflags", "accuracy": {}}/"source": {"name": "kpageflags", "accuracy": {}, "scan_fraction": 0.05, "full_scan_every": 10}/' \
	    "$m" >"$m.new" && mv "$m.new" "$m"
done
grep -q '"scan_fraction": 0.05' "$WORK/sampled/1/meta.json"
ok $? "(the copy has sampled-scan settings)"
rb compare "$WORK/vanilla" "$WORK/sampled"
expect_rc 0 "compare exact with sampled counts"
expect_out 'how counts were read differs: exact \(.*vanilla/1\); sampled \(--scan-fraction 0\.05, a full scan every 10\), estimates \(.*sampled/1\)' \
    "the note says which runs were sampled, and how"
rb compare "$WORK/vanilla" "$WORK/same"
! grep -q 'how counts were read' "$WORK/out"
ok $? "runs read alike get no such note"
rb gate --baseline "$WORK/vanilla" --candidate "$WORK/sampled" --rules "$RULES" \
    --allow-unjudged
expect_rc 0 "gate: sampled against exact is judged"
expect_err 'how counts were read differs' "with a warning"

done_testing
