# Malformed results directories: exit 2 and a message naming the file, the
# line and what was expected; never a crash or a half-written summary.
. "$top_srcdir/tests/cli-lib.sh"

B="$TESTDATA/analyze/basic"
n=0

# fresh: a writable copy of the basic directory in $WORK/mN.
fresh() {
	n=$((n + 1))
	D="$WORK/m$n"
	cp -r "$B" "$D"
	chmod -R u+w "$D"
}

# bad DESCRIPTION PATTERN: analyze $D must fail with exit 2 and PATTERN.
bad() {
	rb analyze "$D"
	expect_rc 2 "$1"
	expect_err "$2" "$1: message"
	[ ! -f "$D/summary.csv" ]
	ok $? "$1: no summary written"
}

fresh
rm "$D/meta.json"
bad "no meta.json" "m$n/meta.json: No such file"

fresh
printf '{"schema_version": 1,\n "page_size": 4096,,}\n' >"$D/meta.json"
bad "meta.json is not JSON" "m$n/meta.json:2: "

fresh
sed -i 's/"schema_version": 1/"schema_version": 7/' "$D/meta.json"
bad "unknown schema version" "schema_version: expected 1"

fresh
sed -i 's/"page_size": 4096/"page_size": 4000/' "$D/meta.json"
bad "page size not a power of two" "page_size: expected a positive power of two"

fresh
rm "$D/samples.csv"
bad "no samples.csv" "m$n/samples.csv: No such file"

fresh
sed -i '6s/,1000,1000,1000,0,0,0,0,0$/,1000,lots,1000,0,0,0,0,0/' "$D/samples.csv"
bad "a word for a number" \
    "m$n/samples.csv:6: free_pages: expected a non-negative integer, got 'lots'"

fresh
sed -i '3s/,0,0$/,0/' "$D/samples.csv"
bad "a short row" "m$n/samples.csv:3: expected 13 fields as in the header, got 12"

fresh
sed -i '1s/free_pages/freeish/' "$D/samples.csv"
bad "a missing column" "m$n/samples.csv:1: header lacks column 'free_pages'"

fresh
sed -i '4s/^0.000,fill,0,1,/0.000,fill,0,9,/' "$D/samples.csv"
bad "an unknown region" "m$n/samples.csv:4: node 0 region 9 is not in regions.csv"

fresh
sed -i '8,13s/^1.000/0.500/' "$D/samples.csv"
sed -i '14s/^2.000/0.250/' "$D/samples.csv"
bad "time going backwards" "m$n/samples.csv:14: t_s 0.250 goes back in time"

fresh
sed -i '6s/Normal/"Normal/' "$D/samples.csv"
bad "an unterminated quote" "m$n/samples.csv:[0-9]+: not valid CSV"

fresh
head -1 "$B/samples.csv" >"$D/samples.csv"
bad "no samples at all" "m$n/samples.csv:2: expected at least one sample"

fresh
: >"$D/regions.csv"
bad "an empty regions.csv" "m$n/regions.csv:1: empty file: expected a header line"

fresh
sed -i '3s/,0,1000$/,99,1000/' "$D/buddy.csv"
sed -i '3s/^0.000,fill,0,0,DMA32,[0-9]*,/0.000,fill,0,0,DMA32,99,/' "$D/buddy.csv"
bad "a buddy order out of range" "m$n/buddy.csv:3: order: 99 is out of range"

fresh
sed -i '3s/^0.000/soon/' "$D/events.csv"
bad "an event without a time" "m$n/events.csv:3: t_s: expected a number, got 'soon'"

fresh
sed -i '2s/,100,ops\/s$/,fast,ops\/s/' "$D/workloads.csv"
bad "a workload value that is no number" "m$n/workloads.csv:2: value: expected a number"

fresh
printf 't_s,phase,workload,pid,node,region,pages\n1.000,fill,,100,0,0,5\n' \
    >"$D/placement.csv"
bad "a placement row without a workload" "m$n/placement.csv:2: workload: expected a workload name"

# Tolerated: extra columns, missing optional files.
fresh
sed -i '1s/$/,extra/; 2,$s/$/,x/' "$D/samples.csv"
rm "$D/buddy.csv" "$D/pagetype.csv" "$D/pageblocks.csv" "$D/placement.csv" \
    "$D/workloads.csv" "$D/events.csv"
rb analyze "$D"
expect_rc 0 "extra columns and missing optional files are fine"
expect_out 'spread_index +1\.0000' "and the metrics are still there"

fresh
sed -i 's/,,$/,,/' "$D/samples.csv"
sed -i '3s/,495,0,5,0,0$/,,,,,/' "$D/samples.csv"
rb analyze "$D" --format csv
expect_rc 0 "unknown (empty) class columns are accepted"
grep -q unmovable_used_regions "$WORK/out"
[ $? -ne 0 ]
ok $? "and class metrics are dropped when a class is unknown"

# A run killed mid-write: half a line and a short last sample.
fresh
sed -i 's/"status": "complete"/"status": "interrupted"/' "$D/meta.json"
head -n 27 "$D/samples.csv" >"$WORK/s" && cp "$WORK/s" "$D/samples.csv"
printf '4.000,drain,0,1,Norm' >>"$D/samples.csv"
rb analyze "$D" --format csv
expect_rc 0 "an interrupted run with a cut-off last line is analysed"
expect_err 'dropped a cut-off last line' "with a warning about the line"
expect_err 'dropped the incomplete last sample \(t_s 4.000' \
    "and about the short last sample"
expect_out '^drain,samples,1,samples$' "the drain phase keeps its whole sample"
sed -i 's/"status": "interrupted"/"status": "complete"/' "$D/meta.json"
rm -f "$D/summary.csv" "$D/summary.json"
bad "a cut-off line in a complete run" "m$n/samples.csv:28: expected 13 fields"

# A kill can cut a row so that it still has every field (a number cut
# short), or inside a quoted field: in a run that did not complete, a last
# line without its newline is dropped either way.
fresh
sed -i 's/"status": "complete"/"status": "running"/' "$D/meta.json"
head -n 27 "$D/samples.csv" >"$WORK/s27" && cp "$WORK/s27" "$D/samples.csv"
tail -n 1 "$D/samples.csv" | head -c -3 >"$WORK/s"
printf '%s' "$(sed 's/^[0-9.]*,/9.000,/' "$WORK/s")" >>"$D/samples.csv"
printf '9.000,warning,"pagetypeinfo Node 0, zo' >>"$D/events.csv"
rb verify "$D"
expect_rc 0 "a last line cut with all its fields, or inside quotes, is no damage"
expect_err 'samples.csv: dropped a cut-off last line' \
    "the cut samples.csv line is dropped"
expect_err 'events.csv: dropped a cut-off last line' \
    "the cut events.csv line is dropped"
sed -i 's/"status": "running"/"status": "complete"/' "$D/meta.json"
cp "$WORK/s27" "$D/samples.csv"
rb verify "$D"
expect_rc 1 "a run that says complete with a line cut inside quotes is damaged"
expect_out 'events.csv:[0-9]+: not valid CSV at the end' "and the file is named"

# Stopped before the first sample: no regions.csv, tables with only their
# header or the start of it (a kill in the middle of writing it).
fresh
sed -i 's/"status": "complete"/"status": "running"/' "$D/meta.json"
rm "$D/regions.csv"
for f in "$D"/*.csv; do
	head -n 1 "$f" >"$WORK/s" && cp "$WORK/s" "$f"
done
head -c 10 "$D/samples.csv" >"$WORK/s" && cp "$WORK/s" "$D/samples.csv"
rb verify "$D"
expect_rc 4 "a run stopped before its first sample is no damage (exit 4)"
expect_out 'stopped before the first sample \(no data\)$' "verify says no data"
rm "$D/meta.json"
rb verify "$D"
expect_rc 4 "also before meta.json was written"
printf 't_s,phaze' >"$D/samples.csv"
rb verify "$D"
expect_rc 1 "but a first line that is no header's start is damage"

rb analyze "$WORK/does-not-exist"
expect_rc 2 "a directory that does not exist"

fresh
sed -i '6s/,1000,1000,1000,0,0,0,0,0$/,1000,-4,1000,0,0,0,0,0/' "$D/samples.csv"
mkdir -p "$WORK/grp"
cp -r "$B" "$WORK/grp/a"
rb compare "$WORK/grp" "$D" --force
expect_rc 2 "compare refuses a malformed run"
expect_err "m$n/samples.csv:6:" "and names it"

done_testing
