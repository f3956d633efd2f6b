#!/bin/sh
# regionbench chart: every chart of the hand-made run as valid PNG and SVG
# (xmllint), --format, charts skipped when their data is absent, the
# compare chart of two groups, and bad input (exit 2 with the loader's
# message).
. "${top_srcdir:-.}/tests/cli-lib.sh"
. "${top_srcdir:-.}/tests/analyze-lib.sh"

BASIC=$TESTDATA/charts/basic
command -v xmllint >/dev/null 2>&1 || skip_all "xmllint not installed"

# is_png FILE: the PNG signature.
is_png() {
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
}

rb chart "$BASIC" --out "$WORK/c"
expect_rc 0 "chart of the basic run"
for name in heatmap spread placement seed fragmentation; do
	is_png "$WORK/c/$name.png"
	ok $? "$name.png has the PNG signature"
	xmllint --noout "$WORK/c/$name.svg" 2>"$WORK/xml"
	ok $? "$name.svg is well-formed XML"
	[ -s "$WORK/xml" ] && diag "$(cat "$WORK/xml")"
done
[ "$(wc -l <"$WORK/out")" -eq 10 ]
ok $? "ten files listed on stdout"
ls "$WORK/c" | grep -q tmp
[ $? -ne 0 ]
ok $? "no temporary files left behind"

rb chart "$BASIC" --out "$WORK/png" --format png
expect_rc 0 "--format png"
[ -f "$WORK/png/heatmap.png" ] && [ ! -e "$WORK/png/heatmap.svg" ]
ok $? "--format png writes PNG only"

# --out makes the directories leading to it, as run and sample do.
rb chart "$BASIC" --out "$WORK/deep/er/png" --format png
expect_rc 0 "--out whose parents do not exist yet"
[ -f "$WORK/deep/er/png/heatmap.png" ]
ok $? "the parents are made"
: >"$WORK/afile"
rb chart "$BASIC" --out "$WORK/afile/png" --format png
expect_rc 3 "--out below a file: exit 3"
expect_err "afile/png: cannot create the output directory: Not a directory" \
    "the message names the file in the way"

rb chart "$BASIC" --out "$WORK/x" --format gif
expect_rc 2 "--format gif is refused"
expect_err "gif" "the message names the format"

# Default output: DIR/charts.
cp -r "$BASIC" "$WORK/copy"
rb chart "$WORK/copy" --format svg
expect_rc 0 "chart into the default directory"
[ -f "$WORK/copy/charts/heatmap.svg" ]
ok $? "default output is DIR/charts"

# Absent data: no placement rows, no buddy.csv.
cp -r "$BASIC" "$WORK/sparse"
head -1 "$BASIC/placement.csv" >"$WORK/sparse/placement.csv"
rm "$WORK/sparse/buddy.csv"
rb chart "$WORK/sparse" --out "$WORK/s"
expect_rc 0 "chart of a run without placement and buddy data"
expect_err "no placement chart" "the placement chart is skipped with a note"
expect_err "no fragmentation chart" "the fragmentation chart is skipped"
[ -f "$WORK/s/heatmap.png" ] && [ ! -e "$WORK/s/placement.png" ] &&
    [ ! -e "$WORK/s/fragmentation.png" ]
ok $? "the other charts are still drawn"

# Bad input.
rb chart "$WORK/nonexistent"
expect_rc 2 "a missing directory is exit 2"
expect_err "nonexistent/meta.json" "the message names the file"
cp -r "$BASIC" "$WORK/bad"
sed '5s/.*/1.500,fill,0,1,Normal,32768,notanumber,32768,,,,,/' \
    "$BASIC/samples.csv" >"$WORK/bad/samples.csv"
rb chart "$WORK/bad" --out "$WORK/b"
expect_rc 2 "a malformed samples.csv is exit 2"
expect_err "samples.csv:5" "the message names file and line"
[ ! -e "$WORK/b/heatmap.png" ]
ok $? "nothing is written for bad input"
rb chart
expect_rc 2 "no directory is exit 2"

# Compare: two groups of three runs, and a single run against a group.
mkgroup "$WORK/vanilla" vanilla h1 "4 3 4" "100 101 99"
mkgroup "$WORK/patched" patched h1 "1 0 1" "100 100 100"
rb chart "$WORK/vanilla" --compare "$WORK/patched" --out "$WORK/cmp"
expect_rc 0 "chart of a group compared with a group"
is_png "$WORK/cmp/compare.png" && xmllint --noout "$WORK/cmp/compare.svg"
ok $? "compare.png and compare.svg are valid"
is_png "$WORK/cmp/headline.png" && xmllint --noout "$WORK/cmp/headline.svg"
ok $? "headline.png and headline.svg are valid"
[ ! -e "$WORK/cmp/heatmap.png" ]
ok $? "a group alone gets no per-run charts"
rb chart "$WORK/vanilla/1" --compare "$WORK/patched" --out "$WORK/cmp2" \
    --format png
expect_rc 0 "a run compared with a group"
[ -f "$WORK/cmp2/heatmap.png" ] && [ -f "$WORK/cmp2/compare.png" ]
ok $? "the run's charts and the compare chart"
rb chart "$WORK/vanilla" --out "$WORK/grp"
expect_rc 2 "a group alone is refused"
expect_err "group of 3 runs.*--compare" "the message says how to chart a group"
rb chart "$WORK/vanilla" --compare "$WORK/nonexistent" --out "$WORK/cmp3"
expect_rc 2 "compare with a missing directory is exit 2"

done_testing
