# regionbench analyze on the hand-made results directory
# tests/data/analyze/basic (figures worked out in tests/t-metrics.c).
. "$top_srcdir/tests/cli-lib.sh"

D="$WORK/basic"
cp -r "$TESTDATA/analyze/basic" "$D"
chmod -R u+w "$D"

rb analyze "$D"
expect_rc 0 "analyze a results directory"
expect_out '^phase fill' "prints the fill phase"
expect_out 'spread_index +1\.0000 +1\.1667 +1\.5000 +1\.0000 +1\.2000' \
    "spread index min mean max final twmean"
[ -f "$D/summary.csv" ] && [ -f "$D/summary.json" ]
ok $? "writes summary.csv and summary.json into the directory"
head -1 "$D/summary.csv" | grep -qx 'phase,metric,value,unit'
ok $? "summary.csv header"
grep -qx 'fill,spread_index.twmean,1.2,ratio' "$D/summary.csv"
ok $? "summary.csv has the time-weighted spread index"
grep -qx 'drain,empty_regions.final,4,regions' "$D/summary.csv"
ok $? "summary.csv: every region empty at the end of drain"
grep -qx 'fill,workload.pagetest.throughput,150,ops/s' "$D/summary.csv"
ok $? "summary.csv carries workload figures"
[ -z "$(ls "$D" | grep tmp)" ]
ok $? "no temporary files left behind"
if command -v /usr/bin/python3 >/dev/null 2>&1; then
	/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["phases"]["fill"]["spread_index.twmean"]["value"] == 1.2 else 1)' \
	    "$D/summary.json"
	ok $? "summary.json parses and has the same figure"
fi

rb analyze "$D" --format csv
expect_rc 0 "--format csv"
cmp -s "$WORK/out" "$D/summary.csv"
ok $? "--format csv prints summary.csv"
rb analyze "$D" --format json
expect_out '"spread_index.twmean"' "--format json"
rb analyze "$D" --format markdown
expect_out '^\| spread_index \| 1\.0000 \|' "--format markdown table"

rb analyze "$D" --table seed
expect_rc 0 "--table seed"
expect_out '\| +\| start +\| ~480MB +\| 512MB +\|' \
    "seed table: one column per checkpoint, labelled by its detail"
expect_out '\| Region 0 \| 1500 +\| 0 +\| 1005 +\|' \
    "seed table: free pages summed over zones, checkpoint at 0.9 s uses the 1 s sample"
expect_out '\| Region 3 \| 1000 +\| 1000 +\| 1000 +\|' "seed table: last region"
expect_out '\| Region 4 \| hole +\| hole +\| hole +\|' \
    "seed table: a region without memory says hole, not 0 free pages"
expect_out '^	hole: no memory in the region$' "seed table: what hole means"
rb analyze "$D" --table seed --format markdown
expect_out '^\| Region 4 \| hole \| hole \| hole \|$' "seed table in markdown: hole"
rb analyze "$D" --table seed --format csv
expect_out '^0,1,2000,1000,0$' "seed table as CSV"

grep -v checkpoint "$D/events.csv" >"$WORK/ev" && cp "$WORK/ev" "$D/events.csv"
rb analyze "$D" --table seed
expect_out '\| 0\.000s +\| 1\.000s +\| 2\.000s +\| 3\.000s +\| 4\.000s +\|' \
    "seed table without checkpoints: every sample"
cp "$TESTDATA/analyze/basic/events.csv" "$D/events.csv"

rb analyze "$D" --empty-tolerance 10 --format csv
expect_out '^fill,active_regions.max,2,regions$' \
    "--empty-tolerance 10 makes region 2 (10 pages) empty"

cat >"$WORK/power.ini" <<'INI'
[power]
self_refresh_mw_per_gib = 10
powered_down_mw_per_gib = 0
INI
rb analyze "$D" --power-model "$WORK/power.ini"
expect_rc 0 "--power-model"
expect_out 'MODEL ESTIMATE' "power figures are labelled as a model"
grep -q '^fill,power_model.powered_down_share,0.4285714286,ratio$' \
    "$D/summary.csv"
ok $? "powered-down share = 3000 of 7000 pages (time-weighted)"
printf '[power]\nself_refresh_mw_per_gib = lots\n' >"$WORK/bad.ini"
rb analyze "$D" --power-model "$WORK/bad.ini"
expect_rc 2 "a bad power model is an input error"
expect_err 'bad.ini:2:' "and names the file and line"

rb analyze
expect_rc 2 "analyze needs a directory"
rb analyze "$D" "$D"
expect_rc 2 "analyze takes one directory"
rb analyze "$D" --format yaml
expect_rc 2 "unknown format"

# Two samples written in the same millisecond (a late sample and the next
# one on time, or a checkpoint's) are two samples, not one with every
# region counted twice.
D2="$WORK/same-ms"
cp -r "$TESTDATA/analyze/basic" "$D2"
chmod -R u+w "$D2"
rm -f "$D2/summary.csv" "$D2/summary.json"
rb analyze "$D2" --format csv
grep 'used_pages.max' "$WORK/out" >"$WORK/max-before"
n_before=$(tail -n +2 "$D2/samples.csv" | cut -d, -f1 | uniq | wc -l)
last_t=$(tail -1 "$D2/samples.csv" | cut -d, -f1)
grep "^$last_t," "$D2/samples.csv" >"$WORK/last-rows"
cat "$WORK/last-rows" >>"$D2/samples.csv"
rb analyze "$D2" --format csv
expect_rc 0 "analyze a run with two samples at the same t_s"
grep 'used_pages.max' "$WORK/out" >"$WORK/max-after"
cmp -s "$WORK/max-before" "$WORK/max-after"
ok $? "the repeated sample does not double any region's pages"
rb analyze "$D2"
expect_out "$((n_before + 1)) samples" "and counts as a sample of its own"

done_testing
