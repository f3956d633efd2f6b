# The power states from DAMON's references.csv through the command line:
# analyze, chart, report and verify on tests/data/analyze/references
# (figures worked out in tests/t-metrics.c and tests/t-power.c), runs
# without the file, and damaged files refused with file:line, exit 2.
. "$top_srcdir/tests/cli-lib.sh"

D="$WORK/ref"
cp -r "$TESTDATA/analyze/references" "$D"
chmod -R u+w "$D"

rb analyze "$D"
expect_rc 0 "analyze a run with references.csv"
expect_out 'state_off_share +0\.2500 +0\.3750 +0\.5000 +0\.5000 +0\.3333' \
    "fill: off share min mean max final twmean"
expect_out 'state_self_refresh_share +.* 0\.4167  ratio' \
    "fill: self-refresh share time-weighted"
expect_out 'idle_allocated_regions +1 +1\.5 +2 +1 +1\.667' \
    "fill: idle allocated regions"
expect_out 'referenced_regions ' "referenced regions shown"
expect_out '^  n0r1 .* active, self-refresh$' \
    "the region list adds the power state at the phase's last sample"
expect_out '^  n0r2 .* unproven, self-refresh$' "an unproven region is not off"
expect_out '^  n0r4 .* hole$' "a hole has none"
grep -qx 'fill,state_self_refresh_share.twmean,0.4166666667,ratio' \
    "$D/summary.csv"
ok $? "summary.csv has the time-weighted self-refresh share"
grep -qx 'drain,state_off_share.mean,0.5,ratio' "$D/summary.csv"
ok $? "summary.csv: drain off share (the unproven region is not off)"
grep -q '^fill,state_on_bytes.twmean,536870912,bytes$' "$D/summary.csv"
ok $? "summary.csv keeps the bytes per state (detail)"
rb analyze "$D" --format markdown
expect_out '^\| state_on_share \| 0\.2500 \|' "markdown shows the power states"
rb analyze "$D" --format json
expect_out '"state_off_share.twmean"' "json has them"

cat >"$WORK/power.ini" <<'INI'
[power]
on_mw_per_gib = 50
self_refresh_mw_per_gib = 10
powered_down_mw_per_gib = 0
INI
rb analyze "$D" --power-model "$WORK/power.ini"
expect_rc 0 "--power-model with three states"
expect_out 'power_model\.three_state_saving_mw .*mW  \(model estimate\)' \
    "the three-state saving is labelled a model"
grep -q '^fill,power_model.three_state_saving_mw,66.666666' "$D/summary.csv"
ok $? "fill: 0.83 GiB x 40 mW + 0.67 GiB x 50 mW"

B="$WORK/basic"
cp -r "$TESTDATA/analyze/basic" "$B"
chmod -R u+w "$B"
rb analyze "$B" --power-model "$WORK/power.ini"
expect_rc 0 "a run without references.csv"
! grep -q 'state_\|referenced_regions\|three_state' "$B/summary.csv"
ok $? "has no power states, and the model stays at two states"

rb chart "$D" --out "$WORK/c"
expect_rc 0 "chart a run with references"
[ -s "$WORK/c/power-states.png" ] && [ -s "$WORK/c/power-states.svg" ]
ok $? "power-states.png and .svg drawn"
rb chart "$B" --out "$WORK/cb"
expect_rc 0 "chart a run without references"
expect_err 'no power-states chart: the run has no references.csv' \
    "says why there is no power-states chart"
[ ! -e "$WORK/cb/power-states.png" ]
ok $? "and draws none"

rb report "$D" --out "$WORK/r.html"
expect_rc 0 "report a run with references"
grep -q '<h3>Power states (DAMON)</h3>' "$WORK/r.html" &&
    grep -q 'measured by DAMON' "$WORK/r.html" &&
    grep -q 'docs/damon.md' "$WORK/r.html"
ok $? "the report has a power-states section naming DAMON and its limits"
grep -q '<td>fill</td><td class="n">33.3 %</td><td class="n">41.7 %</td><td class="n">25.0 %</td>' \
    "$WORK/r.html"
ok $? "with fill's shares off, self-refresh and on"
grep -q 'href="[^"]*references.csv"' "$WORK/r.html"
ok $? "and a link to references.csv"
rb report "$B" --out "$WORK/rb.html"
! grep -q 'Power states' "$WORK/rb.html"
ok $? "no power-states section without references"

rb verify "$D"
expect_rc 0 "verify a whole run with references"

# The damaged fixture: line 7 says more bytes referenced than watched.
rb analyze "$TESTDATA/analyze/references-bad"
expect_rc 2 "more referenced than monitored is an input error"
expect_err 'references-bad/references.csv:7: referenced_bytes 536870913 is more than monitored_bytes 536870912' \
    "and names the file, the line and what was expected"
rb verify "$TESTDATA/analyze/references-bad"
expect_rc 1 "verify calls it damaged"
expect_out 'damaged: .*references.csv:7:' "naming file and line"

n=0
# bad SED DESCRIPTION PATTERN: references.csv edited by SED fails analyze.
bad() {
	n=$((n + 1))
	cp -r "$TESTDATA/analyze/references" "$WORK/b$n"
	chmod -R u+w "$WORK/b$n"
	sed -i "$1" "$WORK/b$n/references.csv"
	rb analyze "$WORK/b$n"
	expect_rc 2 "$2"
	expect_err "b$n/references.csv:$3" "$2: message"
}
bad '3s/,0,1,536870912,/,0,9,536870912,/' "an unknown region" \
    '3: node 0 region 9 is not in regions.csv'
bad '2s/,268435456,/,lots,/' "a word for a number" \
    "2: referenced_bytes: expected a non-negative integer, got 'lots'"
bad '3s/,0,1,/,0,0,/' "a region twice in one interval" \
    '3: node 0 region 0 appears twice in the interval ending at t_s 1.050'
bad '7s/^2.050,/0.500,/' "time going backwards" '7: t_s 0.500 goes back'
bad '2s/,1.000$/,-1/' "a negative idle age" \
    '2: idle_age_s: expected seconds'
bad '1s/referenced_bytes/referenced/' "a missing column" \
    "1: header lacks column 'referenced_bytes'"
bad '4s/,0,5.000$/,0/' "a short row" '4: expected 7 fields'

# An interval outside every phase is read, checked and left out.
O="$WORK/outside"
cp -r "$TESTDATA/analyze/references" "$O"
chmod -R u+w "$O"
printf '2.600,,0,%d,536870912,0,\n' 0 1 2 3 >>"$O/references.csv"
rb analyze "$O"
expect_rc 0 "rows with an empty phase are accepted"
grep -qx 'fill,state_self_refresh_share.twmean,0.4166666667,ratio' \
    "$O/summary.csv"
ok $? "and change nothing"
printf '2.700,,0,1,5,6,\n' >>"$O/references.csv"
rb analyze "$O"
expect_rc 2 "but are still checked"
expect_err 'outside/references.csv:21: referenced_bytes 6 is more than' \
    "naming file and line"

done_testing
